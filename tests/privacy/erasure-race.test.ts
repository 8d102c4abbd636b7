import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { lockForTransaction } from "../../src/platform/db/advisory-locks.js";
import { executionCounts, makeScene } from "../executions/support.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

// A log that passed authentication just before the account's erasure committed must not leave rows behind it
// (contract §15: executions deleted). The erasure holds the account's lock alone; the log waits for it, then finds the
// session ended. Two connections at once: PostgreSQL only (PGlite runs one statement at a time).
const t = useTestApp();

describe.runIf(process.env.DATABASE_URL)("a log racing its account's erasure", () => {
  it("answers 401 and logs nothing once the erasure that held the user's lock has committed", async () => {
    t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
    const s = await makeScene(t, { accept: true });
    const body = {
      startTime: "2026-03-18T10:00:00.000Z",
      endTime: "2026-03-18T11:00:00.000Z",
      completed: true,
      exerciseExecutions: [{ exerciseId: s.supino.id, sets: [{ repetitions: 5, weight: 40, completed: true }] }],
    };
    let log: Promise<{ status: number }> | undefined;
    // What an erasure does to the session inside its transaction, while it holds the account's lock.
    await t.db.transaction(async (tx) => {
      await lockForTransaction(tx, "account", s.student.id);
      log = t.post(`/api/trainings/${s.trainingA.id}/execution`, { token: s.student.token, body });
      // The log has authenticated and waits for the lock.
      await vi.waitFor(
        async () => {
          const [row] = rowsOf<{ waiting: number }>(
            await t.db.execute(sql`select count(*)::int as waiting from pg_locks where locktype = 'advisory' and not granted`),
          );
          expect(row.waiting).toBe(1);
        },
        { timeout: 10_000, interval: 20 },
      );
      await tx.execute(sql`update users set session_version = session_version + 1 where id = ${s.student.id}`);
    });
    expect((await log!).status).toBe(401);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });
});
