import { z } from "zod";
import { instant } from "../../platform/answer-fields.js";
import { enumeration, type Meanings } from "../../platform/enumeration.js";
import { SCOPE_NAMES, SCOPES, type Scope } from "../../platform/auth/scopes.js";
import type { ListedPersonalToken } from "./personal-token.repository.js";
import type { DeveloperAppRow } from "./developer-app.repository.js";

/* The answers' shapes as zod schemas: the DTO types are read from them and the OpenAPI document describes them. */

const SCOPE_VALUES = SCOPE_NAMES as [Scope, ...Scope[]];

/** The scopes of contract §18.2, with the words the OAuth security scheme gives them. */
export const scope = enumeration(SCOPE_VALUES, {
  name: "Scope",
  description: "What a token handed to a tool (an app's, or a personal token) may reach; login tokens hold every scope",
  meanings: Object.fromEntries(SCOPE_NAMES.map((name) => [name, SCOPES[name].en])) as Meanings<typeof SCOPE_VALUES>,
});

const scopeNames = z.array(scope.schema);

const personalTokenFields = z.object({
  id: z.number().int().describe("The token's id: the one to give to delete it"),
  name: z.string().describe("What its user called it"),
  scopes: scopeNames.describe("What it may reach, never more than its user may"),
  expiresAt: instant.describe("When it stops working (401 from then on)"),
  createdAt: instant.describe("When it was created"),
  lastUsedAt: instant.nullable().describe("When it last signed a request, to the minute; null until it does"),
});
export const personalTokenSchema = personalTokenFields.meta({
  id: "PersonalToken",
  description: "A personal access token, without the token itself; expired ones stay listed until deleted",
});
export type PersonalTokenDto = z.output<typeof personalTokenSchema>;

export const createdPersonalTokenSchema = personalTokenFields
  .extend({
    token: z
      .string()
      .describe("The token: fit_pat_ and 40 URL-safe characters, to send as `Authorization: Bearer <token>`. Shown only here, stored only as a hash"),
  })
  .meta({
    id: "CreatedPersonalToken",
    description: "A personal access token just created, with the token itself: keep it now, it is never shown again",
    examples: [
      {
        id: 5,
        name: "Planilha de treinos",
        scopes: ["activity:read", "students:read"],
        expiresAt: "2025-09-13T12:00:00.000Z",
        createdAt: "2025-06-15T12:00:00.000Z",
        lastUsedAt: null,
        token: "fit_pat_3q2-7wEvZ0yX8Ck1mNpQrStUvWxYz0123456789A",
      },
    ],
  });
export type CreatedPersonalTokenDto = PersonalTokenDto & { token: string };

export function toPersonalTokenDto(row: ListedPersonalToken): PersonalTokenDto {
  return { id: row.id, name: row.name, scopes: row.scopes, expiresAt: row.expiresAt, createdAt: row.createdAt, lastUsedAt: row.lastUsedAt };
}

export const appSchema = z
  .object({
    id: z.number().int().describe("The app's id, in this API's paths"),
    clientId: z.string().describe("Its OAuth `client_id`"),
    name: z.string().describe("Its name, shown to users on the consent page"),
    redirectUris: z.array(z.string()).describe("Where the authorization server may send users back"),
    scopes: scopeNames.describe("The scopes it may be granted: what it asks beyond these is left out"),
    confidential: z.boolean().describe("true: the app authenticates at the token endpoint with its secret; false: a public app, with PKCE alone"),
    trustedDocumentsOnly: z.boolean().describe("true: its tokens run only the documents it registered, by hash"),
    createdAt: instant.describe("When it was registered"),
  })
  .meta({ id: "DeveloperApp", description: "An app registered for the OAuth flow (an OAuth client), as its owner sees it, without its secret" });
export type AppDto = z.output<typeof appSchema>;

export const createdAppSchema = appSchema
  .extend({ clientSecret: z.string().optional().describe("A confidential app's secret: shown only here and at rotation; left out for a public app") })
  .meta({ id: "CreatedDeveloperApp", description: "An app just registered, with a confidential app's secret" });
export type CreatedAppDto = AppDto & { clientSecret?: string };

export const appSecretSchema = z
  .object({ clientSecret: z.string().describe("The app's new secret: shown only here") })
  .meta({ id: "DeveloperAppSecret", description: "A confidential app's new secret; the previous one no longer works" });

export const authorizationSchema = z
  .object({
    clientId: z.string().describe("The app's OAuth `client_id`: the one to give to revoke the authorization"),
    appName: z.string().describe("The app's name"),
    scopes: scopeNames.describe("The scopes the user granted it (offline_access: it may refresh its tokens)"),
    grantedAt: instant.describe("When the user first authorized it"),
    lastUsedAt: instant.nullable().describe("When one of its tokens last signed a request for the user, to the minute; null until one does"),
  })
  .meta({ id: "Authorization", description: "An app the user authorized, and what they granted it" });
export type AuthorizationDto = z.output<typeof authorizationSchema>;

export function toAppDto(row: DeveloperAppRow): AppDto {
  return {
    id: row.id,
    clientId: row.clientId,
    name: row.name,
    redirectUris: row.redirectUris,
    scopes: row.scopes,
    confidential: row.confidential,
    trustedDocumentsOnly: row.trustedDocumentsOnly,
    createdAt: row.createdAt,
  };
}

export const registeredDocumentsSchema = z
  .object({ hashes: z.array(z.string()).describe("Each document's SHA-256 (hex), as APQ's sha256Hash names it, in the order sent") })
  .meta({
    id: "RegisteredDocuments",
    description: "The hashes of the documents an app registered: its tokens run them by hash (APQ's `extensions.persistedQuery.sha256Hash`)",
  });
