import { sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";

/**
 * Another module's read that a statement carries for each of its rows (the page of executions of each student of a
 * trainer's page of links), built by the module that owns its rules: the embedding statement places its SQL, binds its
 * values and hands back the JSON value it read, never knowing what is inside.
 */
export interface EmbeddedRead<Answer> {
  /** What shapes its SQL: the embedding statement keeps one prepared text per key. */
  readonly key: string;
  /**
   * Its SQL for the row whose id is `id` (of the enclosing query), its values bound to the placeholders `placeholder`
   * names; `shown`, when given, a condition of the enclosing row its rules may rely on, by the rules' own definition
   * (access's `linkShown`: the row is an ACTIVE link of the reader to that user).
   */
  sql(id: AnyColumn | SQL, placeholder: (name: string) => Placeholder, shown?: SQL): SQL;
  /** The value of each of its placeholders, by name. */
  readonly values: Readonly<Record<string, unknown>>;
  /** Its answer for the value its SQL read. */
  answer(json: unknown): Answer;
}

/** An embedded read's placeholders, named apart from the embedding statement's own by `prefix`. */
export const embeddedPlaceholder =
  (prefix: string) =>
  (name: string): Placeholder =>
    sql.placeholder(`${prefix}${name}`);

/** An embedded read's values, named as embeddedPlaceholder(prefix) names their placeholders. */
export const embeddedValues = (prefix: string, read: EmbeddedRead<unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(read.values).map(([name, value]) => [`${prefix}${name}`, value]));

/** A read refused before it was made (its arguments, its caller): it reads nothing and answers its refusal. */
export const refusedRead = <Refusal>(refusal: Refusal): EmbeddedRead<Refusal> => ({ key: "refused", sql: () => sql`null`, values: {}, answer: () => refusal });
