import { asc, desc, sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import type { PgSelect } from "drizzle-orm/pg-core";
import type { PageRequest } from "../paging.js";

/** How many rows the query matches before its offset and limit, selected beside each row of its page. */
export const totalBeforePaging = () => sql<number>`count(*) over ()`.mapWith(Number);

/**
 * A page read with its total in one statement (each row carries `totalBeforePaging`) instead of a page and a count.
 * A page past the end has no row to carry the total: only then is `count` asked.
 */
export async function pageWithTotal<Row extends { total: number }>(
  rows: Row[],
  request: PageRequest,
  count: () => Promise<number>,
): Promise<{ rows: Omit<Row, "total">[]; total: number }> {
  return { rows: rows.map(({ total: _total, ...row }) => row), total: await pageTotal(rows, request, count) };
}

/**
 * pageWithTotal's total alone, for rows the caller copies into its answer anyway (a listing's items): their `total`
 * stays on them rather than each row being copied to drop it.
 */
export async function pageTotal(rows: readonly { total?: number }[], request: PageRequest, count: () => Promise<number>): Promise<number> {
  return rows.length > 0 ? rows[0].total! : request.page === 0 ? 0 : await count();
}

/** A page's ORDER BY: the sort asked (each field's column from `columns`), then `tieBreaker` descending, so pages never overlap. */
export function ordering(columns: Record<string, AnyColumn | SQL>, request: Pick<PageRequest, "sort">, tieBreaker: AnyColumn | SQL) {
  return [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(columns[s.field])), desc(tieBreaker)];
}

/**
 * Whether a page's statement is written without OFFSET (the first page) or with it bound: a shape of its own, because
 * PostgreSQL prices an OFFSET placeholder as skipping a tenth of the rows, which makes a tree read's generic plan look
 * dearer than its custom ones, so it plans every execution again (0.7 ms of the trainer's dashboard's 2.2 ms).
 */
export const isFirstPage = (request: Pick<PageRequest, "page">) => request.page === 0;

/** `limit <limit> [offset <offset>]` of a page's shape, bound to the placeholders `value` names `limit` and `offset`. */
export const pageClause = (firstPage: boolean, value: (name: string) => Placeholder): SQL =>
  firstPage ? sql`limit ${value("limit")}` : sql`limit ${value("limit")} offset ${value("offset")}`;

/**
 * `query` (a dynamic select: `.$dynamic()`) limited to `request`'s page, its OFFSET written only past the first page
 * (isFirstPage says why: a statement kept prepared is otherwise planned at every execution).
 */
export function pageOf<Query extends PgSelect>(query: Query, request: Pick<PageRequest, "page" | "size">): Query {
  const limited = query.limit(request.size);
  return isFirstPage(request) ? limited : limited.offset(request.page * request.size);
}
