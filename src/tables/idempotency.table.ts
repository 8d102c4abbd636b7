import { sql } from "drizzle-orm";
import { check, customType, index, integer, pgTable, primaryKey, text, uuid, varchar } from "drizzle-orm/pg-core";
import { instant, oneOf } from "../platform/db/columns.js";
import { users } from "./user.table.js";

/** Raw bytes: postgres.js reads a Buffer, PGlite a Uint8Array. */
const bytea = customType<{ data: Buffer; driverData: Buffer | Uint8Array }>({
  dataType: () => "bytea",
  fromDriver: (value) => (Buffer.isBuffer(value) ? value : Buffer.from(value)),
});

/** RUNNING: claimed by a request under way (until `lease_until`); DONE: its answer is kept. */
export const IDEMPOTENCY_STATES = ["RUNNING", "DONE"] as const;
export type IdempotencyState = (typeof IDEMPOTENCY_STATES)[number];

/**
 * Idempotency keys (contract §13.1), shared by every instance: one row per caller's key, claimed by the first request
 * (the primary key makes the claim atomic), then holding its answer for 24 hours.
 */
export const idempotencyKeys = pgTable(
  "idempotency_keys",
  {
    /** Whose key: `user:<id>`, or for a call without a token `anonymous:` and a digest of its method and path. */
    scope: text("scope").notNull(),
    /** A keyed digest (hex) of the client's key: the key itself is never stored (IdempotencyService.sealOf). */
    key: varchar("key", { length: 255 }).notNull(),
    /** The user of a `user:` scope, so the user's keys (and the answers they hold) go with the user. */
    userId: integer("user_id").references(() => users.id, { onDelete: "cascade" }),
    state: varchar("state", { length: 8 }).$type<IdempotencyState>().notNull(),
    /** The running claim's token: only it completes, extends or releases the row. */
    owner: uuid("owner"),
    /** A RUNNING claim not extended past this is abandoned (its process died) and the next request takes the key. */
    leaseUntil: instant("lease_until"),
    /** HMAC-SHA-256 (hex) of the method, path and query, and body bytes of the request that finished with the key. */
    fingerprint: varchar("fingerprint", { length: 64 }),
    status: integer("status"),
    contentType: text("content_type"),
    location: text("location"),
    /** The answer's body, sealed with a key derived from the client's key: unreadable from the database alone. */
    body: bytea("body"),
    createdAt: instant("created_at").notNull(),
    /** created_at + 24 h: past it the key is free again, whether or not the pruning job has deleted the row yet. */
    expiresAt: instant("expires_at").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.scope, t.key] }),
    index("idempotency_keys_expires_idx").on(t.expiresAt),
    index("idempotency_keys_user_idx").on(t.userId),
    check("idempotency_keys_state_check", sql`${t.state} in (${oneOf(IDEMPOTENCY_STATES)})`),
  ],
);
