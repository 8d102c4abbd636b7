/**
 * EXPLAIN (ANALYZE, BUFFERS) of the statements the app sends, shared by the benchmarks: each statement printed with
 * its parameters inlined (readable, and what was explained), then its plan.
 */
import type postgres from "postgres";

/** `text` with its `$n` placeholders replaced by SQL literals of `params` (numbers, booleans, dates, strings, arrays). */
export function inlineParameters(text: string, params: readonly unknown[]): string {
  return text.replace(/\$(\d+)/g, (_, index: string) => literal(params[Number(index) - 1]));
}

function literal(value: unknown): string {
  if (value === null || value === undefined) return "null";
  if (typeof value === "number" || typeof value === "boolean") return String(value);
  if (value instanceof Date) return quoted(value.toISOString());
  // An untyped array literal: PostgreSQL casts it to the array type the placeholder stands for.
  if (Array.isArray(value))
    return quoted(`{${value.map((item) => (typeof item === "number" ? String(item) : `"${String(item).replace(/["\\]/g, "\\$&")}"`)).join(",")}}`);
  return quoted(String(value));
}

const quoted = (text: string) => `'${text.replace(/'/g, "''")}'`;

/** Prints `label`, the statement on one line and its EXPLAIN (ANALYZE, BUFFERS); answers the plan's lines. */
export async function printExplain(sql: postgres.Sql, label: string, statement: string): Promise<string[]> {
  console.log(`\n--- ${label}`);
  console.log(statement.replace(/\s+/g, " ").trim());
  const plan = (await sql.unsafe<{ "QUERY PLAN": string }[]>(`explain (analyze, buffers) ${statement}`)).map((row) => row["QUERY PLAN"]);
  for (const line of plan) console.log(`  ${line}`);
  return plan;
}
