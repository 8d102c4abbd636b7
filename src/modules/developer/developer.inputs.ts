import { z } from "zod";
import { SCOPE_NAMES, type Scope } from "../../platform/auth/scopes.js";
import { requiredText } from "../../platform/validation.js";

/** Scopes asked for: known names, at least one, none twice. */
export const scopeList = z
  .array(z.enum(SCOPE_NAMES as [Scope, ...Scope[]]))
  .min(1, "Informe ao menos um escopo")
  .max(SCOPE_NAMES.length)
  .refine((list) => new Set(list).size === list.length, "Escopos repetidos");

/** A new personal access token (contract §18.3). */
export const personalTokenInput = z.object({
  name: requiredText(100),
  scopes: scopeList,
  expiresInDays: z.number().int().min(1).max(365).default(90),
});
export type PersonalTokenInput = z.output<typeof personalTokenInput>;
