import { getTableColumns, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";

/**
 * A JSON array built by PostgreSQL, one object of `fields` per row of `from` (the subquery's from, joins and where) in
 * `orderBy`'s order: the items of a relation of the enclosing query's row, carried and decoded as one value instead of
 * a row each. The whole subquery sits in one nested fragment: drizzle writes a one-table select's own columns
 * unqualified when they stand directly in a selected field, which a correlated subquery cannot afford. Only the `keys`
 * named when given (objectJson).
 *
 * An ARRAY of the subquery keeps the order its ORDER BY gives, which rows an index or a page subquery already hands
 * in order meet at no cost; an ordered aggregate (`json_agg(… order by …)`) sorts each parent's rows again, a sort
 * per parent (8% of the trainer's dashboard statement).
 */
export function jsonRows(fields: Record<string, AnyColumn | SQL>, from: SQL, orderBy: SQL | AnyColumn, keys?: readonly string[]): SQL<unknown> {
  return sql<unknown>`array_to_json(array(select ${objectJson(fields, keys)} ${from} order by ${orderBy}))`;
}

/** A json value as read: postgres.js decodes it; a driver that does not gives its text. */
export const fromJson = (value: unknown): unknown => (typeof value === "string" ? JSON.parse(value) : value);

/**
 * Every column of `table`'s row in the enclosing query (plus `extra` values), as one JSON object keyed by the row's
 * property names: a row carried inside a tree that PostgreSQL builds in one statement. `rowFromJson` reads it back.
 * Only the `keys` named when given (objectJson).
 */
export function rowJson(table: PgTable, extra: Record<string, SQL> = {}, keys?: readonly string[]): SQL {
  return objectJson({ ...getTableColumns(table), ...extra }, keys);
}

/**
 * A JSON object of `fields` (columns or values of the enclosing query), keyed by their names; only those `keys` names
 * when given (what a GraphQL selection reads of it, Selection.keysOf): building a key costs PostgreSQL more than
 * reading its column, so an object of the 2 fields asked is far cheaper than a whole row.
 */
export function objectJson(fields: Record<string, AnyColumn | SQL>, keys?: readonly string[]): SQL {
  const pairs = Object.entries(pickKeys(fields, keys)).map(([key, value]) => sql`${sql.raw(`'${key}'`)}, ${value}`);
  return sql`json_build_object(${sql.join(pairs, sql`, `)})`;
}

/**
 * Those of `fields` whose names `keys` lists (all when undefined), typed as all of them: a row read so lacks the
 * fields its reader never reads (a GraphQL selection's).
 */
export function pickKeys<Fields extends Record<string, unknown>>(fields: Fields, keys: readonly string[] | undefined): Fields {
  return keys ? (Object.fromEntries(Object.entries(fields).filter(([key]) => keys.includes(key))) as Fields) : fields;
}

const instantKeys = new WeakMap<PgTable, string[]>();

/**
 * A row `rowJson` wrote, as Drizzle maps the table's rows: its instants (JSON strings) back to Dates, in the object
 * itself, which its caller has just decoded and owns (a copy per row, a hundred per dashboard read, was garbage).
 */
export function rowFromJson<Table extends PgTable>(table: Table, json: Record<string, unknown>): Table["$inferSelect"] {
  let keys = instantKeys.get(table);
  if (!keys) {
    keys = Object.entries(getTableColumns(table))
      .filter(([, column]) => column.dataType === "date")
      .map(([key]) => key);
    instantKeys.set(table, keys);
  }
  for (const key of keys) if (typeof json[key] === "string") json[key] = new Date(json[key]);
  return json as Table["$inferSelect"];
}

/**
 * An instant as the JSON answers write it (JavaScript's `toISOString`: UTC, milliseconds, `Z`), for answers whose
 * JSON text PostgreSQL builds whole; PostgreSQL's own JSON of a timestamptz reads `+00:00` and drops zero fractions.
 */
export function isoInstantText(instant: AnyColumn | SQL): SQL<string> {
  return sql<string>`to_char(${instant} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
}

/*
 * JSON text built by concatenation, for a large answer PostgreSQL writes whole and REST sends as it is: compact, byte for
 * byte as every other answer leaves (Express's res.json, JSON.stringify: `{"key":value,…}`), where json_build_object
 * and json_agg would space it (`"key" : value`, items joined by `, `) and cost more per row, as they look up every
 * argument's type and output function again for each row. Each value given must already be compact JSON text and never
 * null (`jsonString`, `jsonNumber`, `jsonInstant`, or these functions' own texts).
 */

/** A text as a JSON string (escaped as json_build_object escapes it); null stays null. */
export const jsonString = (text: AnyColumn | SQL): SQL<string | null> => sql<string | null>`to_json(${text})::text`;

/** A number as JSON (its float8 text, as json_build_object writes a float8), `null` for null. */
export const jsonNumber = (value: AnyColumn | SQL): SQL<string> => sql<string>`coalesce((${value})::float8::text, 'null')`;

/** An instant as a JSON string, as the answers write it (`isoInstantText`); never null for a non-null instant. */
export const jsonInstant = (instant: AnyColumn | SQL): SQL<string> => sql<string>`'"' || ${isoInstantText(instant)} || '"'`;

/** A JSON object's text from `fields` (each a JSON text, never null), in their order. */
export function jsonObjectText(fields: Record<string, SQL>): SQL<string> {
  if (Object.keys(fields).length === 0) return sql<string>`'{}'`;
  const pairs = Object.entries(fields).map(([key, value], index) => sql`${sql.raw(`'${index === 0 ? "{" : ","}"${key}":'`)} || ${value}`);
  return sql<string>`(${sql.join(pairs, sql` || `)} || '}')`;
}

/** The text of a JSON array of `item` (a JSON text, never null), one per row of `from`, in `orderBy`'s order. */
export function jsonArrayText(item: SQL, from: SQL, orderBy: SQL): SQL<string> {
  return sql<string>`(select '[' || coalesce(string_agg(${item}, ',' order by ${orderBy}), '') || ']' ${from})`;
}
