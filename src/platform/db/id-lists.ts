import { Placeholder, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { rowsOf, type Db } from "./database.js";
import type { Bound } from "./prepared.js";

/**
 * Ids as one array parameter: `column = any($1::int[])`, `unnest($1::int[])`. Unlike `in ($1, …, $n)`, the statement's
 * text is the same whatever the number of ids, so one prepared statement serves every batch of a loader.
 */
export const idArray = (ids: Bound<readonly number[]>): SQL => (ids instanceof Placeholder ? sql`${ids}::int[]` : sql`${sql.param([...new Set(ids)])}::int[]`);

/** `column` is one of `ids` (or of the array a prepared statement binds there). */
export const isAnyOf = (column: AnyColumn | SQL, ids: Bound<readonly number[]>): SQL => sql`${column} = any(${idArray(ids)})`;

/**
 * Up to `limit` of the ids an id subquery selects, above `afterId`, ascending: one page of a listing by id over a set
 * a rule defines (the rule's subquery is read whole, so it should select a bounded set, as one user's entities are).
 */
export async function idsAbove(db: Db, ids: SQL, afterId: number, limit: number): Promise<number[]> {
  const result = await db.execute(sql`select distinct s.id from (${ids}) as s(id) where s.id > ${afterId} order by s.id limit ${limit}`);
  const rows = rowsOf<{ id: number }>(result);
  return rows.map((row) => Number(row.id));
}
