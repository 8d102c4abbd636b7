import { and, eq, lte, or, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { idempotencyKeys } from "./idempotency.table.js";

export type IdempotencyRow = typeof idempotencyKeys.$inferSelect;

/** A claim being written: the key, whose it is, the claim's token and its times. */
export interface NewClaim {
  scope: string;
  key: string;
  userId: number | null;
  owner: string;
  leaseUntil: Date;
  createdAt: Date;
  expiresAt: Date;
}

/** The answer a finished request leaves with its key. */
export interface KeptRow {
  fingerprint: string;
  status: number;
  contentType: string | null;
  location: string | null;
  body: Buffer;
}

const ofClaim = (scope: string, key: string, owner: string) =>
  and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key), eq(idempotencyKeys.owner, owner), eq(idempotencyKeys.state, "RUNNING"));

export const idempotencyRepository = {
  /**
   * Claims the key in one statement: inserted when new, or taken over when its row has expired or its claim was
   * abandoned (lease run out) at `now`. True when this claim holds the key; false when another request's row stands
   * (running or finished), which two concurrent claims on any instances can never both escape.
   */
  async claim(db: Db, claim: NewClaim, now: Date): Promise<boolean> {
    const fresh = {
      userId: claim.userId,
      state: "RUNNING" as const,
      owner: claim.owner,
      leaseUntil: claim.leaseUntil,
      fingerprint: null,
      status: null,
      contentType: null,
      location: null,
      body: null,
      createdAt: claim.createdAt,
      expiresAt: claim.expiresAt,
    };
    const rows = await db
      .insert(idempotencyKeys)
      .values({ scope: claim.scope, key: claim.key, ...fresh })
      .onConflictDoUpdate({
        target: [idempotencyKeys.scope, idempotencyKeys.key],
        set: fresh,
        setWhere: or(lte(idempotencyKeys.expiresAt, now), and(eq(idempotencyKeys.state, "RUNNING"), lte(idempotencyKeys.leaseUntil, now))),
      })
      .returning({ owner: idempotencyKeys.owner });
    return rows[0]?.owner === claim.owner;
  },

  async find(db: Db, scope: string, key: string): Promise<IdempotencyRow | null> {
    const [row] = await db
      .select()
      .from(idempotencyKeys)
      .where(and(eq(idempotencyKeys.scope, scope), eq(idempotencyKeys.key, key)));
    return row ?? null;
  },

  /** Pushes a running claim's lease on; false when the claim no longer holds the key. */
  async extend(db: Db, scope: string, key: string, owner: string, leaseUntil: Date): Promise<boolean> {
    const rows = await db
      .update(idempotencyKeys)
      .set({ leaseUntil })
      .where(ofClaim(scope, key, owner))
      .returning({ owner: idempotencyKeys.owner });
    return rows.length > 0;
  },

  /** Keeps the finished request's answer; false when the claim no longer holds the key. */
  async complete(db: Db, scope: string, key: string, owner: string, kept: KeptRow): Promise<boolean> {
    const rows = await db
      .update(idempotencyKeys)
      .set({ state: "DONE", owner: null, leaseUntil: null, ...kept })
      .where(ofClaim(scope, key, owner))
      .returning({ key: idempotencyKeys.key });
    return rows.length > 0;
  },

  /** Drops a running claim, so the key is free again. */
  async release(db: Db, scope: string, key: string, owner: string): Promise<void> {
    await db.delete(idempotencyKeys).where(ofClaim(scope, key, owner));
  },

  /** Deletes up to `limit` rows expired at `now`; how many. */
  async deleteExpired(db: Db, now: Date, limit: number): Promise<number> {
    const rows = await db
      .delete(idempotencyKeys)
      .where(
        sql`(${idempotencyKeys.scope}, ${idempotencyKeys.key}) in (select i.scope, i.key from ${idempotencyKeys} i where i.expires_at <= ${now.toISOString()}::timestamptz limit ${limit})`,
      )
      .returning({ key: idempotencyKeys.key });
    return rows.length;
  },
};
