import { Placeholder, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Bound } from "./prepared.js";

/**
 * Ids as one array parameter: `column = any($1::int[])`, `unnest($1::int[])`. Unlike `in ($1, …, $n)`, the statement's
 * text is the same whatever the number of ids, so one prepared statement serves every batch of a loader.
 */
export const idArray = (ids: Bound<readonly number[]>): SQL => (ids instanceof Placeholder ? sql`${ids}::int[]` : sql`${sql.param([...new Set(ids)])}::int[]`);

/** `column` is one of `ids` (or of the array a prepared statement binds there). */
export const isAnyOf = (column: AnyColumn | SQL, ids: Bound<readonly number[]>): SQL => sql`${column} = any(${idArray(ids)})`;
