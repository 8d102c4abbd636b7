import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, preparedTextGate, rowsOf } from "../../src/platform/db/database.js";

describe("statement texts kept prepared", () => {
  it("are the first distinct texts up to the limit: a text seen before stays prepared, a new one past the limit runs unprepared", () => {
    const mayPrepare = preparedTextGate(3);
    expect(["select 1", "select 2", "select 1", "select 3"].map(mayPrepare)).toEqual([true, true, true, true]);
    // Endless new texts (a client varying its GraphQL selection, an id list's length) no longer grow the cache.
    expect(Array.from({ length: 50 }, (_, i) => mayPrepare(`select ${i + 4}`)).every((prepared) => !prepared)).toBe(true);
    expect(["select 1", "select 2", "select 3"].map(mayPrepare)).toEqual([true, true, true]);
  });

  // PGlite runs in this process and prepares nothing of its own: the limit is PostgreSQL's connections'.
  it.skipIf(!process.env.DATABASE_URL)(
    "leave a PostgreSQL connection with no more prepared statements than the limit, however many texts it runs",
    async () => {
      const database = await openDatabase({ databaseUrl: process.env.DATABASE_URL, maxConnections: 1, maxPreparedTexts: 2 });
      try {
        const sums: number[] = [];
        for (let text = 1; text <= 5; text++) {
          // Five distinct parameterized texts, each run twice, on the pool's one connection.
          for (const value of [10, 20]) {
            const rows = rowsOf<{ n: number }>(await database.db.execute(sql`select ${value}::int + ${sql.raw(String(text))} as n`));
            sums.push(rows[0].n);
          }
        }
        expect(sums).toEqual([11, 21, 12, 22, 13, 23, 14, 24, 15, 25]);
        // postgres.js prepares its own array-types query on each connection, past any limit of ours.
        const prepared = rowsOf<{ statement: string }>(
          await database.db.execute(sql`select statement from pg_prepared_statements where statement like 'select $1::int + %' order by statement`),
        );
        expect(prepared.map((row) => row.statement)).toEqual(["select $1::int + 1 as n", "select $1::int + 2 as n"]);
      } finally {
        await database.close();
      }
    },
  );
});
