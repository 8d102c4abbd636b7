import { sql } from "drizzle-orm";
import type { Db } from "./database.js";

/**
 * Every advisory lock the service takes, listed once so no two uses ever share a key. Transaction locks take two
 * keys: the space below, then the id of what is locked (a user, a trainer).
 */
const LOCK_SPACES = {
  /** One user's billing: checkouts, settlements and renewals of one user run one at a time. */
  billing: 8_001,
  /** One trainer's students: invites and accepts counted against the plan's limit. */
  coaching: 8_002,
  /** One user's logging: two concurrent logs never both claim the same personal record. */
  executions: 8_003,
  /** One account's writes against its erasure: each write shares it, the erasure holds it alone (account-writes.ts). */
  account: 8_004,
  /** One user's credentials for tools: personal tokens and apps counted against their limits. */
  developer: 8_005,
} as const;

/**
 * The lock that serializes the schema changes of instances starting together: the migrations, then the job engine's
 * install (one key: a space apart from the two-key locks).
 */
export const MIGRATION_LOCK_ID = 727_001;

/** Holds the lock on `id` within `space` until the transaction `db` ends. */
export async function lockForTransaction(db: Db, space: keyof typeof LOCK_SPACES, id: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock(${LOCK_SPACES[space]}, ${id})`);
}

/** Holds the lock on `id` within `space`, shared with other holders of it shared, until the transaction `db` ends. */
export async function shareLockForTransaction(db: Db, space: keyof typeof LOCK_SPACES, id: number): Promise<void> {
  await db.execute(sql`select pg_advisory_xact_lock_shared(${LOCK_SPACES[space]}, ${id})`);
}
