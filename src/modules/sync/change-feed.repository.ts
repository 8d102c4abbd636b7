import { eq, sql, type SQL } from "drizzle-orm";
import { type Db, rowsOf } from "../../platform/db/database.js";
import { syncChanges, type SyncEntity } from "../../tables/sync-change.table.js";

/** A place in one user's feed: past every row at or before (xid, id). `id` 0 stands before every row of `xid`. */
export interface FeedPosition {
  /** A transaction id (xid8) as decimal text. */
  xid: string;
  id: number;
}

export interface FeedRow {
  id: number;
  xid: string;
  entity: SyncEntity;
  entityId: number;
  changedAt: Date;
}

/** One change to record: each of `ids` of `entity`, for each of `userIds`. */
export interface ChangeTo {
  entity: SyncEntity;
  ids: readonly number[];
  userIds: readonly number[];
}

/** The moment of a change: the service clock's when it is given, else the database's. */
const momentOf = (at: Date | undefined): SQL => (at ? sql`${at.toISOString()}::timestamptz` : sql`now()`);

/**
 * Every transaction of this database below this id has ended (committed or rolled back), so every row it wrote that
 * exists is visible to the statement's snapshot and will never be joined by another row of its transaction.
 *
 * The snapshot's xmin (the oldest transaction still running) would do, but transaction ids are shared by every
 * database of the server, so a long transaction in another database would hold this feed back. So: the oldest
 * transaction the snapshot saw running, leaving out those pg_stat_activity shows running in another database (a
 * transaction's database never changes); one that ended since, or whose database is not shown, is kept, which only
 * holds the feed back a little. None running: the snapshot's xmax, the next id to be handed out.
 */
const SETTLED_BELOW = sql`coalesce(
  (select min(running) from pg_snapshot_xip(pg_current_snapshot()) as running
    where running::xid not in (select backend_xid from pg_stat_activity where datname <> current_database() and backend_xid is not null)),
  pg_snapshot_xmax(pg_current_snapshot()))`;

export const changeFeedRepository = {
  /** Inserts the changes, in the order given (one statement whatever their number). */
  async insert(db: Db, at: Date | undefined, rows: { userId: number; entity: SyncEntity; entityId: number }[]): Promise<void> {
    if (rows.length === 0) return;
    await db.execute(sql`
      insert into ${syncChanges} (user_id, entity, entity_id, changed_at)
      select c.user_id, c.entity, c.entity_id, ${momentOf(at)}
      from unnest(${sql.param(rows.map((row) => row.userId))}::int[], ${sql.param(rows.map((row) => row.entity))}::text[],
        ${sql.param(rows.map((row) => row.entityId))}::int[]) with ordinality as c(user_id, entity, entity_id, n)
      order by c.n`);
  },

  /** Inserts a change of `entity` for each distinct (entity_id, user_id) row `audience` selects. */
  async insertAudience(db: Db, at: Date | undefined, entity: SyncEntity, audience: SQL): Promise<void> {
    await db.execute(sql`
      insert into ${syncChanges} (user_id, entity, entity_id, changed_at)
      select distinct a.user_id, ${entity}, a.entity_id, ${momentOf(at)} from (${audience}) as a(entity_id, user_id)
      where a.user_id is not null`);
  },

  /**
   * Up to `limit` of the user's rows past `after` that the statement's snapshot sees (their transactions committed),
   * leaving out those `ahead` says were handed out (of each transaction, rows up to its id), in (xid, id) order, and
   * the bound read under the same snapshot (SETTLED_BELOW): every row of the user's below it and past `after` is
   * either returned, handed out ahead, or after the `limit` first; rows at or above it may still be joined by rows
   * of older transactions that commit later.
   */
  async page(db: Db, userId: number, after: FeedPosition, ahead: readonly FeedPosition[], limit: number): Promise<{ settledBelow: string; rows: FeedRow[] }> {
    const result = await db.execute(sql`
      with horizon as materialized (select ${SETTLED_BELOW} as xmin),
      ahead as (select * from unnest(${sql.param(ahead.map((at) => at.xid))}::text[]::xid8[], ${sql.param(ahead.map((at) => at.id))}::bigint[]) as a(xid, id))
      select horizon.xmin::text as settled_below, c.id::text as id, c.xid::text as xid, c.entity, c.entity_id,
        (extract(epoch from c.changed_at) * 1000)::bigint::text as changed_ms
      from horizon left join lateral (
        select id, xid, entity, entity_id, changed_at from ${syncChanges} as s
        where user_id = ${userId} and (xid, id) > (${after.xid}::xid8, ${after.id}::bigint)
          and not exists (select from ahead where ahead.xid = s.xid and s.id <= ahead.id)
        order by xid, id
        limit ${limit}
      ) c on true`);
    const rows = rowsOf<{ settled_below: string; id: string | null; xid: string; entity: SyncEntity; entity_id: number; changed_ms: string }>(result);
    return {
      settledBelow: rows[0].settled_below,
      rows: rows
        .filter((row) => row.id !== null)
        .map((row) => ({ id: Number(row.id), xid: row.xid, entity: row.entity, entityId: row.entity_id, changedAt: new Date(Number(row.changed_ms)) })),
    };
  },

  /** The bound below which every transaction has ended, now. */
  async settledBelow(db: Db): Promise<string> {
    const [row] = rowsOf<{ xmin: string }>(await db.execute(sql`select ${SETTLED_BELOW}::text as xmin`));
    return row.xmin;
  },

  /** Deletes every change recorded for a user's own feed. */
  async deleteFeedOf(db: Db, userId: number) {
    await db.delete(syncChanges).where(eq(syncChanges.userId, userId));
  },

  /** Deletes up to `batch` rows changed before `before`, oldest first; answers how many. */
  async prune(db: Db, before: Date, batch: number): Promise<number> {
    const result = await db.execute(sql`
      with doomed as (select id from ${syncChanges} where changed_at < ${before.toISOString()}::timestamptz order by changed_at limit ${batch})
      delete from ${syncChanges} where id in (select id from doomed) returning id`);
    return rowsOf(result).length;
  },
};
