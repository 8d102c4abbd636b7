/*
 * A process that runs the service's transactions on PostgreSQL (openDatabase, DATABASE_URL, through a pooler with
 * DATABASE_POOL_MODE and DATABASE_DIRECT_URL) while the test terminates
 * its backends: it prints "writing", runs transactions on four concurrent writers until a line arrives on stdin, then
 * runs ten more one after another and prints what happened as one JSON line. Without the postgres.js patch
 * (patches/) the process dies first, of an uncaught TypeError thrown from postgres.js's own ROLLBACK.
 */
import { createInterface } from "node:readline";
import { sql } from "drizzle-orm";
import { openDatabase } from "../../src/platform/db/database.js";

const handle = await openDatabase({
  databaseUrl: process.env.DATABASE_URL!,
  poolMode: process.env.DATABASE_POOL_MODE === "transaction" ? "transaction" : "session",
  directUrl: process.env.DATABASE_DIRECT_URL || undefined,
  maxConnections: 4,
});
const transaction = () =>
  handle.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_sleep(0.005)`);
    await tx.execute(sql`select 1`);
  });
/** The driver's code of a failed transaction (Drizzle wraps the driver's error as its cause). */
const codeOf = (error: unknown): string => {
  const { code, cause } = error as { code?: string; cause?: { code?: string } };
  return cause?.code ?? code ?? String(error);
};

let stopped = false;
createInterface({ input: process.stdin }).once("line", () => (stopped = true));
const failures: string[] = [];
let committed = 0;
console.log("writing");
await Promise.all(
  Array.from({ length: 4 }, async () => {
    while (!stopped)
      await transaction().then(
        () => committed++,
        (error: unknown) => failures.push(codeOf(error)),
      );
  }),
);
let committedAfter = 0;
for (let i = 0; i < 10; i++) {
  await transaction();
  committedAfter++;
}
console.log(JSON.stringify({ committed, failures, committedAfter }));
await handle.close();
