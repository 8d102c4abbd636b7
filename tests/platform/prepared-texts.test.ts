import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { openDatabase, preparedTextGate, rowsOf } from "../../src/platform/db/database.js";
import { startStatementCounter } from "../helpers/statement-counter.js";

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

describe("statements sent unprepared (through a transaction-mode pooler)", () => {
  // Any server works: `transaction` only makes the handle prepare nothing, as it does behind PgBouncer.
  it.skipIf(!process.env.DATABASE_URL)(
    "go in one round trip, bind and all, with every kind of value arriving intact, lists of lists and objects too",
    async () => {
      const counter = await startStatementCounter(process.env.DATABASE_URL!);
      const database = await openDatabase({ databaseUrl: counter.url, maxConnections: 1, poolMode: "transaction" });
      try {
        await database.db.execute(sql`select 1`);
        const flushesBefore = counter.flushes();
        const texts = ["plain", 'with "quotes", commas, {braces}', "back\\slash", "", "NULL", "ação 💪"];
        const rows = rowsOf<Record<string, unknown>>(
          await database.db.execute(sql`select ${sql.param([3, 1, 2])}::int[] as ids, ${sql.param(texts)}::text[] as texts,
            ${sql.param([])}::int[] as none, (${sql.param(["a", null])}::text[])[2] is null as hole, ${"it's"}::text as text, ${42}::int as n,
            ${2.5}::numeric as amount, ${true}::boolean as yes, ${"2026-11-28T13:37:00.123Z"}::timestamptz as at, ${null}::int as nothing`),
        );
        expect(rows[0]).toEqual({
          ids: [3, 1, 2],
          texts,
          none: [],
          hole: true,
          text: "it's",
          n: 42,
          amount: "2.5",
          yes: true,
          at: "2026-11-28 13:37:00.123+00",
          nothing: null,
        });
        // Parse, describe, bind and execute went together: no Flush waited for the parameters' types.
        expect(counter.flushes() - flushesBefore).toBe(0);

        // What postgres.js would first ask the server the type of: a list of lists, dates and bytes in lists, an object.
        const more = rowsOf<Record<string, unknown>>(
          await database.db.execute(
            sql`select ${sql.param([
              [1, 2],
              [3, 4],
            ])}::int[] as grid, (${sql.param([new Date("2026-11-28T13:37:00.123Z")])}::timestamptz[])[1] as day,
              (${sql.param([Buffer.from([0, 34, 92, 255])])}::bytea[])[1] as bytes,
              ${sql.param({ kind: "volume", 'a "b"': [1, null] })}::jsonb as document`,
          ),
        );
        expect(more[0]).toEqual({
          grid: [
            [1, 2],
            [3, 4],
          ],
          day: "2026-11-28 13:37:00.123+00",
          bytes: Buffer.from([0, 34, 92, 255]),
          document: { kind: "volume", 'a "b"': [1, null] },
        });
        expect(counter.flushes() - flushesBefore).toBe(0);
      } finally {
        await database.close();
        await counter.close();
      }
    },
  );
});
