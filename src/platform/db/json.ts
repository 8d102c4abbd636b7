import { sql, type AnyColumn, type SQL } from "drizzle-orm";

/**
 * A JSON array built by PostgreSQL, one object of `fields` per row of `from` (the subquery's from, joins and where) in
 * `orderBy`'s order: the items of a relation of the enclosing query's row, carried and decoded as one value instead of
 * a row each. The whole subquery sits in one nested fragment: drizzle writes a one-table select's own columns
 * unqualified when they stand directly in a selected field, which a correlated subquery cannot afford.
 */
export function jsonRows(fields: Record<string, AnyColumn | SQL>, from: SQL, orderBy: SQL | AnyColumn): SQL<unknown> {
  const object = sql.join(
    Object.entries(fields).map(([name, value]) => sql`${sql.raw(`'${name}'`)}, ${value}`),
    sql`, `,
  );
  const subquery = sql`select coalesce(json_agg(json_build_object(${object}) order by ${orderBy}), '[]') ${from}`;
  return sql<unknown>`(${subquery})`;
}

/** A json value as read: postgres.js decodes it; a driver that does not gives its text. */
export const fromJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);
