import { z } from "zod";
import { SCOPE_NAMES, type Scope } from "../../platform/auth/scopes.js";
import type { ListedPersonalToken } from "./personal-token.repository.js";

/* The answers' shapes as zod schemas: the DTO types are read from them and the OpenAPI document describes them. */

const scopeNames = z.array(z.enum(SCOPE_NAMES as [Scope, ...Scope[]]));

const personalTokenFields = z.object({
  id: z.number().int(),
  name: z.string(),
  scopes: scopeNames,
  expiresAt: z.iso.datetime(),
  createdAt: z.iso.datetime(),
  lastUsedAt: z.iso.datetime().nullable().describe("the last request it signed, to the minute"),
});
export const personalTokenSchema = personalTokenFields.meta({ id: "PersonalToken" });
export type PersonalTokenDto = Omit<z.output<typeof personalTokenSchema>, "expiresAt" | "createdAt" | "lastUsedAt"> & {
  expiresAt: Date;
  createdAt: Date;
  lastUsedAt: Date | null;
};

export const createdPersonalTokenSchema = personalTokenFields
  .extend({ token: z.string().describe("fit_pat_ + 40 URL-safe characters: shown only here, stored only as a hash") })
  .meta({ id: "CreatedPersonalToken" });
export type CreatedPersonalTokenDto = PersonalTokenDto & { token: string };

export function toPersonalTokenDto(row: ListedPersonalToken): PersonalTokenDto {
  return { id: row.id, name: row.name, scopes: row.scopes, expiresAt: row.expiresAt, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}
