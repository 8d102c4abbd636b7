import { sql } from "drizzle-orm";
import { timestamp } from "drizzle-orm/pg-core";

/** A UTC instant, read as a JS Date. */
export const instant = (name: string) => timestamp(name, { withTimezone: true, mode: "date", precision: 3 });

export const createdAt = () =>
  instant("created_at")
    .notNull()
    .default(sql`now()`);
export const updatedAt = () =>
  instant("updated_at")
    .notNull()
    .default(sql`now()`);

/** `col IN (...)` check text for an enum column. */
export const oneOf = (values: readonly string[]) => sql.raw(values.map((v) => `'${v}'`).join(", "));
