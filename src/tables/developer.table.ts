import { index, integer, pgTable, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant } from "../platform/db/columns.js";
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
