import { asc, desc, sql, type AnyColumn } from "drizzle-orm";
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
  const total = rows.length > 0 ? rows[0].total : request.page === 0 ? 0 : await count();
  return { rows: rows.map(({ total: _total, ...row }) => row), total };
}

/** A page's ORDER BY: the sort asked (each field's column from `columns`), then `tieBreaker` descending, so pages never overlap. */
export function ordering(columns: Record<string, AnyColumn>, request: Pick<PageRequest, "sort">, tieBreaker: AnyColumn) {
  return [...request.sort.map((s) => (s.direction === "asc" ? asc : desc)(columns[s.field])), desc(tieBreaker)];
}
