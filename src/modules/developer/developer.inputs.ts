import { parse } from "graphql";
import { z } from "zod";
import { SCOPE_NAMES } from "../../platform/auth/scopes.js";
import { requiredText } from "../../platform/validation.js";
import { scope } from "./developer.dto.js";

/** Scopes asked for: known names, at least one, none twice. */
export const scopeList = z
  .array(scope.schema)
  .min(1, "Informe ao menos um escopo")
  .max(SCOPE_NAMES.length)
  .refine((list) => new Set(list).size === list.length, "Escopos repetidos");

/** A new personal access token (contract §18.3). */
export const personalTokenInput = z
  .object({
    name: requiredText(100).describe("What to call it (1 to 100 characters)"),
    scopes: scopeList.describe("What it may reach: at least one scope, none twice"),
    expiresInDays: z.number().int().min(1).max(365).default(90).describe("How many days it works: 1 to 365, 90 when left out"),
  })
  .describe("A new personal access token for one of the user's own tools");
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
  }, "URI de redirecionamento inválida (https, ou http só para o próprio computador)")
  .meta({ format: "uri" });

const redirectUris = z
  .array(redirectUri)
  .min(1, "Informe ao menos uma URI de redirecionamento")
  .max(10)
  .refine((list) => new Set(list).size === list.length, "URIs repetidas");

const APP_NAME = "Its name (1 to 100 characters), shown to users on the consent page";
const REDIRECT_URIS =
  "Where users may be sent back: 1 to 10 URIs, none twice, each of at most 2048 characters, https (or http to 127.0.0.1, [::1] or localhost), without a fragment or credentials";
const APP_SCOPES = "The scopes it may be granted: at least one, none twice; offline_access lets it refresh its tokens";

/** A new app (contract §18.1). */
export const appInput = z
  .object({
    name: requiredText(100).describe(APP_NAME),
    redirectUris: redirectUris.describe(REDIRECT_URIS),
    scopes: scopeList.describe(APP_SCOPES),
    confidential: z
      .boolean()
      .describe("true: a server-side app that keeps a secret (answered once, at registration); false: a public app (mobile, single-page), with PKCE alone"),
  })
  .describe("A new app: an OAuth client of the authorization server");
export type AppInput = z.output<typeof appInput>;

/** A change of an app: any of its name, redirect URIs, scopes, and whether it runs registered documents only. */
export const appChangeInput = z
  .object({
    name: requiredText(100).optional().describe(APP_NAME),
    redirectUris: redirectUris.optional().describe(REDIRECT_URIS),
    scopes: scopeList.optional().describe(APP_SCOPES),
    trustedDocumentsOnly: z.boolean().optional().describe("true: its tokens may run only the GraphQL documents it registered, by hash; false: any document"),
  })
  .describe("Changes to an app: only the fields given change");
export type AppChangeInput = z.output<typeof appChangeInput>;

/** The GraphQL documents an app registers (contract §18.5): each one must parse. */
export const appDocumentsInput = z
  .object({
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
      .max(200)
      .describe("The GraphQL documents its tokens may run: at most 200, each one that parses, of 1 to 20000 characters"),
  })
  .describe("The GraphQL documents an app registers, in place of those it registered before");
export type AppDocumentsInput = z.output<typeof appDocumentsInput>;
