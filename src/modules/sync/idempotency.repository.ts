import { and, eq, sql } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/database.js";
import { idempotencyKeys } from "../../tables/idempotency.table.js";

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

/**
 * A one-row FROM item that turns off, for its own statement's transaction, the wait for the commit to reach the disk
 * (each of a key's statements would otherwise cost a WAL flush, several milliseconds, on a write's path). The WAL is
 * written in order, so a claim is on disk by the time the write it guards commits (synchronously) or calls out; what
 * a crash of PostgreSQL itself may lose is the kept copy of an answer of the last fraction of a second, whose claim then
 * stays until its lease runs out, so that a retry runs again.
 */
const unflushed = sql`(select set_config('synchronous_commit', 'off', true) as setting) unflushed`;
const isUnflushed = sql`unflushed.setting = 'off'`;

const iso = (date: Date) => date.toISOString();

const ofClaim = (scope: string, key: string, owner: string) =>
  sql`${idempotencyKeys.scope} = ${scope} and ${idempotencyKeys.key} = ${key} and ${idempotencyKeys.owner} = ${owner}::uuid and ${idempotencyKeys.state} = 'RUNNING'`;

export const idempotencyRepository = {
  /**
   * Claims the key in one statement: inserted when new, or taken over when its row has expired or its claim was
   * abandoned (lease run out) at `now`. True when this claim holds the key; false when another request's row stands
   * (running or finished), which two concurrent claims on any instances can never both escape.
   */
  async claim(db: Db, claim: NewClaim, now: Date): Promise<boolean> {
    const t = idempotencyKeys;
    const result = await db.execute(sql`
      insert into ${t} (scope, key, user_id, state, owner, lease_until, created_at, expires_at)
      select ${claim.scope}, ${claim.key}, ${claim.userId}::int, 'RUNNING', ${claim.owner}::uuid, ${iso(claim.leaseUntil)}::timestamptz,
        ${iso(claim.createdAt)}::timestamptz, ${iso(claim.expiresAt)}::timestamptz
      from ${unflushed} where ${isUnflushed}
      on conflict (scope, key) do update set
        user_id = excluded.user_id, state = 'RUNNING', owner = excluded.owner, lease_until = excluded.lease_until, fingerprint = null,
        status = null, content_type = null, location = null, body = null, created_at = excluded.created_at, expires_at = excluded.expires_at
      where ${t.expiresAt} <= ${iso(now)}::timestamptz or (${t.state} = 'RUNNING' and ${t.leaseUntil} <= ${iso(now)}::timestamptz)
      returning owner`);
    return rowsOf<{ owner: string }>(result)[0]?.owner === claim.owner;
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
    const result = await db.execute(sql`
      update ${idempotencyKeys} set lease_until = ${iso(leaseUntil)}::timestamptz from ${unflushed}
      where ${isUnflushed} and ${ofClaim(scope, key, owner)} returning ${idempotencyKeys.key}`);
    return rowsOf(result).length > 0;
  },

  /** Keeps the finished request's answer; false when the claim no longer holds the key. */
  async complete(db: Db, scope: string, key: string, owner: string, kept: KeptRow): Promise<boolean> {
    const result = await db.execute(sql`
      update ${idempotencyKeys} set state = 'DONE', owner = null, lease_until = null, fingerprint = ${kept.fingerprint}, status = ${kept.status}::int,
        content_type = ${kept.contentType}, location = ${kept.location}, body = ${kept.body}::bytea
      from ${unflushed}
      where ${isUnflushed} and ${ofClaim(scope, key, owner)} returning ${idempotencyKeys.key}`);
    return rowsOf(result).length > 0;
  },

  /** Drops a running claim, so the key is free again. */
  async release(db: Db, scope: string, key: string, owner: string): Promise<void> {
    await db.execute(sql`delete from ${idempotencyKeys} using ${unflushed} where ${isUnflushed} and ${ofClaim(scope, key, owner)}`);
  },

  /** Deletes a user's finished keys and the answers they keep (a request still running completes its own). */
  async deleteDoneOf(db: Db, userId: number) {
    await db.delete(idempotencyKeys).where(and(eq(idempotencyKeys.userId, userId), eq(idempotencyKeys.state, "DONE")));
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
