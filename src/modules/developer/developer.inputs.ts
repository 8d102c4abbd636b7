import { parse } from "graphql";
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

const LOOPBACK_HOSTS = new Set(["127.0.0.1", "[::1]", "localhost"]);

/** A redirect URI: https, or http to a loopback address only (RFC 8252 §7.3); no fragment. */
const redirectUri = z
  .string()
  .trim()
  .max(2048)
  .refine((text) => {
    if (!URL.canParse(text)) return false;
    const url = new URL(text);
    if (url.hash !== "" || url.username !== "" || url.password !== "") return false;
    return url.protocol === "https:" || (url.protocol === "http:" && LOOPBACK_HOSTS.has(url.hostname));
  }, "URI de redirecionamento inválida (https, ou http só para o próprio computador)");

const redirectUris = z
  .array(redirectUri)
  .min(1, "Informe ao menos uma URI de redirecionamento")
  .max(10)
  .refine((list) => new Set(list).size === list.length, "URIs repetidas");

/** A new app (contract §18.1). */
export const appInput = z.object({
  name: requiredText(100),
  redirectUris,
  scopes: scopeList,
  confidential: z.boolean(),
});
export type AppInput = z.output<typeof appInput>;

/** A change of an app: any of its name, redirect URIs, scopes, and whether it runs registered documents only. */
export const appChangeInput = z.object({
  name: requiredText(100).optional(),
  redirectUris: redirectUris.optional(),
  scopes: scopeList.optional(),
  trustedDocumentsOnly: z.boolean().optional(),
});
export type AppChangeInput = z.output<typeof appChangeInput>;

/** The GraphQL documents an app registers (contract §18.5): each one must parse. */
export const appDocumentsInput = z.object({
  documents: z
    .array(
      z
        .string()
        .min(1)
        .max(20_000)
        .refine((text) => {
          try {
            parse(text, { maxTokens: 5000 });
            return true;
          } catch {
            return false;
          }
        }, "Documento GraphQL inválido"),
    )
    .max(200),
});
export type AppDocumentsInput = z.output<typeof appDocumentsInput>;
