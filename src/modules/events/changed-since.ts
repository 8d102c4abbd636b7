import { sql, type SQL } from "drizzle-orm";
import { syncChanges } from "../../tables/sync-change.table.js";

/*
 * What the change log tells the read models, as SQL to compose into their statements: whether anything of some users
 * changed since a statement read it. A module that keeps figures derived from users' data (adherence, records) keeps
 * the snapshot they were read under, then asks before each reuse. Every write emits its changes in its own
 * transaction and the change feed logs them for each user they concern (sync/change-feed.subscriber.ts), so the
 * answer is exact whatever order transactions commit in, and the same on every instance of the service. It lives
 * here, beside emit, so a read model asks the log without importing the feed above it.
 */

/** The snapshot the statement reads under, as text (a `pg_snapshot`): what `changedSince` compares with. */
export const readSnapshot: SQL<string> = sql<string>`pg_current_snapshot()::text`;

/**
 * Whether a change to one of `userIds` (an `int[]` value) was committed after `snapshot` (a `readSnapshot`) was taken:
 * a row this statement sees, written by a transaction that snapshot did not see. An index range per user, from the
 * snapshot's oldest running transaction on: written as a probe per user (the LIMIT keeps PostgreSQL from turning it
 * into a join), since over `user_id = any(…)` it may scan the whole log when a few users wrote most of it.
 */
export function changedSince(userIds: SQL, snapshot: SQL): SQL<boolean> {
  const taken = sql`${snapshot}::pg_snapshot`;
  return sql<boolean>`exists (select from unnest(${userIds}) as changed_user(id) cross join lateral (
    select from ${syncChanges} where ${syncChanges.userId} = changed_user.id
      and ${syncChanges.xid} >= pg_snapshot_xmin(${taken}) and not pg_visible_in_snapshot(${syncChanges.xid}, ${taken})
    limit 1) changed)`;
}
