import { z } from "zod";
import { SCOPE_NAMES, type Scope } from "../../platform/auth/scopes.js";
import type { ListedPersonalToken } from "./personal-token.repository.js";
import type { DeveloperAppRow } from "./developer-app.repository.js";

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

export const appSchema = z
  .object({
    id: z.number().int(),
    clientId: z.string(),
    name: z.string(),
    redirectUris: z.array(z.string()),
    scopes: scopeNames,
    confidential: z.boolean().describe("true: the app authenticates at the token endpoint with its secret"),
    trustedDocumentsOnly: z.boolean().describe("true: its tokens run only the documents it registered, by hash"),
    createdAt: z.iso.datetime(),
  })
  .meta({ id: "DeveloperApp" });
export type AppDto = Omit<z.output<typeof appSchema>, "createdAt"> & { createdAt: Date };

export const createdAppSchema = appSchema
  .extend({ clientSecret: z.string().optional().describe("a confidential app's secret: shown only here and at rotation") })
  .meta({ id: "CreatedDeveloperApp" });
export type CreatedAppDto = AppDto & { clientSecret?: string };

export const appSecretSchema = z.object({ clientSecret: z.string() }).meta({ id: "DeveloperAppSecret" });

export const authorizationSchema = z
  .object({
    clientId: z.string(),
    appName: z.string(),
    scopes: scopeNames,
    grantedAt: z.iso.datetime(),
    lastUsedAt: z.iso.datetime().nullable(),
  })
  .meta({ id: "Authorization" });
export interface AuthorizationDto {
  clientId: string;
  appName: string;
  scopes: Scope[];
  grantedAt: Date;
  lastUsedAt: Date | null;
}

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
  .object({ hashes: z.array(z.string()).describe("each document's SHA-256 (hex), as APQ's sha256Hash names it, in the order sent") })
  .meta({ id: "RegisteredDocuments" });
