import type { Placeholder } from "drizzle-orm";
import type { Db } from "./database.js";

/** A value in an SQL fragment, or the placeholder a prepared statement binds it to. */
export type Bound<T> = T | Placeholder;

/**
 * A statement whose SQL text Drizzle builds once per database (or transaction), then runs with the values bound at
 * each call: building the text from the query builder is most of Drizzle's CPU on a short read (`is`,
 * `buildQueryFromSourceParams` in issue 11's profiles), and the hot reads run the same few texts all day. `build` makes
 * Drizzle's prepared query with `sql.placeholder(name)` where the values go; `.execute({ name: value })` runs it.
 */
export function preparedStatement<Query>(build: (db: Db) => Query): (db: Db) => Query {
  const byDatabase = new WeakMap<Db, Query>();
  return (db) => {
    let query = byDatabase.get(db);
    if (!query) byDatabase.set(db, (query = build(db)));
    return query;
  };
}

/** Shapes one statement family keeps prepared per database; a shape past that is built for its call only. */
const MAX_SHAPES = 200;

/**
 * `preparedStatement` for a statement whose text takes one of several shapes (which filters are present, the order
 * asked, who asks): one prepared query per database and `shape`, the key naming what changes the text.
 */
export function preparedStatements<Shape, Query>(key: (shape: Shape) => string, build: (db: Db, shape: Shape) => Query): (db: Db, shape: Shape) => Query {
  const byDatabase = new WeakMap<Db, Map<string, Query>>();
  return (db, shape) => {
    let queries = byDatabase.get(db);
    if (!queries) byDatabase.set(db, (queries = new Map()));
    const name = key(shape);
    let query = queries.get(name);
    if (!query) {
      query = build(db, shape);
      if (queries.size < MAX_SHAPES) queries.set(name, query);
    }
    return query;
  };
}
