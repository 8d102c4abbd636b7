import { boolean, doublePrecision, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, updatedAt } from "../platform/db/columns.js";
import type { Scope } from "../platform/auth/scopes.js";
import { users } from "./user.table.js";

/**
 * Personal access tokens (contract §18.3): a user's own tokens for their tools, each with its scopes and expiry. Only
 * the token's SHA-256 is stored; deleting the row revokes it.
 */
export const personalAccessTokens = pgTable(
  "personal_access_tokens",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    name: varchar("name", { length: 100 }).notNull(),
    tokenHash: text("token_hash").notNull(),
    scopes: text("scopes").array().$type<Scope[]>().notNull(),
    expiresAt: instant("expires_at").notNull(),
    createdAt: createdAt(),
    lastUsedAt: instant("last_used_at"),
  },
  (t) => [uniqueIndex("personal_access_tokens_hash_key").on(t.tokenHash), index("personal_access_tokens_user_idx").on(t.userId, t.createdAt)],
);

/**
 * Apps users register for their tools (contract §18.1): OAuth clients. A confidential app's secret is stored sealed
 * (the authorization server compares it as sent), never in the clear.
 */
export const developerApps = pgTable(
  "developer_apps",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    clientId: text("client_id").notNull(),
    name: varchar("name", { length: 100 }).notNull(),
    redirectUris: text("redirect_uris").array().notNull(),
    scopes: text("scopes").array().$type<Scope[]>().notNull(),
    confidential: boolean("confidential").notNull(),
    sealedSecret: text("sealed_secret"),
    /** Its tokens may run only its registered documents (developer_app_documents), by hash (contract §18.5). */
    trustedDocumentsOnly: boolean("trusted_documents_only").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [uniqueIndex("developer_apps_client_id_key").on(t.clientId), index("developer_apps_user_idx").on(t.userId, t.createdAt)],
);

/**
 * What the authorization server (oidc-provider) keeps: grants, authorization codes, access and refresh tokens,
 * sessions and interactions, each a JSON payload under its model's name, until it expires.
 */
export const oauthPayloads = pgTable(
  "oauth_payloads",
  {
    model: text("model").notNull(),
    id: text("id").notNull(),
    payload: jsonb("payload").$type<Record<string, unknown>>().notNull(),
    grantId: text("grant_id"),
    uid: text("uid"),
    /** The account a grant or a token is for (the user's id), so a user's grants are found and revoked. */
    accountId: integer("account_id"),
    clientId: text("client_id"),
    expiresAt: instant("expires_at"),
    consumedAt: instant("consumed_at"),
    lastUsedAt: instant("last_used_at"),
  },
  (t) => [
    primaryKey({ columns: [t.model, t.id] }),
    index("oauth_payloads_grant_idx").on(t.grantId),
    index("oauth_payloads_uid_idx").on(t.uid),
    index("oauth_payloads_account_idx").on(t.accountId, t.clientId),
    index("oauth_payloads_expires_idx").on(t.expiresAt),
  ],
);

/**
 * What each (app or personal token, user) pair spent (contract §18.4), shared by every instance: REST requests in a
 * 15-minute and a daily window, and the GraphQL leaky bucket's points.
 */
export const apiBudgets = pgTable("api_budgets", {
  key: text("key").primaryKey(),
  quarterStart: instant("quarter_start"),
  quarterCount: integer("quarter_count").notNull().default(0),
  dayStart: instant("day_start"),
  dayCount: integer("day_count").notNull().default(0),
  points: doublePrecision("points"),
  pointsAt: instant("points_at"),
});

/** The GraphQL documents an app registered (contract §18.5), by the SHA-256 of their text (hex, as APQ names them). */
export const developerAppDocuments = pgTable(
  "developer_app_documents",
  {
    appId: integer("app_id")
      .notNull()
      .references(() => developerApps.id, { onDelete: "cascade" }),
    hash: text("hash").notNull(),
    document: text("document").notNull(),
    createdAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.appId, t.hash] })],
);
