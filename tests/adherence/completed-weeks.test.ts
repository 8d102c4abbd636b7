import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { rowsOf, runMigration } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { adherenceOf, assigned, DAY_MS, gymOf, link, trained, weeklyPlan } from "./support.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

/*
 * Adherence counts a student's done sessions of a training from the weeks the student completed it in at least once,
 * twice and three times, kept at logging time (completed_training_weeks: 64 ISO weeks to a row, a bit each per
 * level). These check the kept bits against the sessions logged, and the migrations that fill them for the history
 * logged before.
 */

/** An instant's ISO week, numbered from the week of Monday 0001-01-01 (as the executions' index numbers them). */
const weekOf = (instant: string) => Math.floor((Date.parse(`${instant.slice(0, 10)}T00:00:00Z`) - Date.parse("0001-01-01T00:00:00Z")) / DAY_MS / 7);
/** The Monday (YYYY-MM-DD) of ISO week `week`. */
const mondayOf = (week: number) => new Date(Date.parse("0001-01-01T00:00:00Z") + week * 7 * DAY_MS).toISOString().slice(0, 10);

/** The rows the completed sessions should leave: "user/training/block" → the bits of its weeks with 1, 2 and 3+ sessions. */
function expectedRows(sessions: { userId: number; trainingId: number; start: string }[]) {
  const perWeek = new Map<string, number>();
  for (const { userId, trainingId, start } of sessions) {
    const key = `${userId}/${trainingId}/${weekOf(start)}`;
    perWeek.set(key, (perWeek.get(key) ?? 0) + 1);
  }
  const rows: Record<string, bigint[]> = {};
  for (const [key, count] of perWeek) {
    const [userId, trainingId, week] = key.split("/").map(Number);
    const row = (rows[`${userId}/${trainingId}/${Math.floor(week / 64)}`] ??= [0n, 0n, 0n]);
    for (let level = 1; level <= Math.min(count, 3); level++) row[level - 1] |= 1n << BigInt(week % 64);
  }
  return rows;
}

async function storedRows() {
  const rows = rowsOf<{ user_id: number; training_id: number; block: number; levels: string[] }>(
    await t.db.execute(
      sql`select user_id, training_id, block, array[weeks::text, weeks_twice::text, weeks_thrice::text] as levels from completed_training_weeks`,
    ),
  );
  // Bit 63 makes a bigint negative: read each as its 64 bits.
  return Object.fromEntries(
    rows.map((row) => [`${row.user_id}/${row.training_id}/${row.block}`, row.levels.map((level) => BigInt.asUintN(64, BigInt(level)))]),
  );
}

describe("the completed weeks adherence counts", () => {
  it("hold a bit for each ISO week with one, two and three or more completed sessions of a training, across blocks; unfinished sessions set none", async () => {
    t.clock.set(new Date("2026-11-25T12:00:00Z"));
    const trainer = await makeTrainer(t);
    const gym = await gymOf(t, trainer, ["A", "B"]);
    const [ana, bruno] = [await makeStudent(t, { name: "Ana" }), await makeStudent(t, { name: "Bruno" })];
    // Students log a trainer's trainings of the plans assigned to them.
    const plan = await weeklyPlan(t, gym, [
      ["A", "MONDAY"],
      ["B", "WEDNESDAY"],
    ]);
    for (const student of [ana, bruno]) {
      await link(t, gym, student);
      await assigned(t, gym, plan.id, student, "2025-11-03");
    }

    // The last week of a block and the first of the next, found from the numbering, not assumed.
    let lastOfBlock = weekOf("2026-10-01");
    while (lastOfBlock % 64 !== 63) lastOfBlock -= 1;
    const [blockEnd, blockStart] = [mondayOf(lastOfBlock), mondayOf(lastOfBlock + 1)];
    const completed = [
      { student: ana, letter: "A", start: `${blockEnd}T09:00:00Z` },
      { student: ana, letter: "A", start: `${blockStart}T09:00:00Z` },
      { student: ana, letter: "A", start: "2026-11-01T23:30:00Z" }, // Sunday night, UTC
      { student: ana, letter: "A", start: "2026-11-02T00:10:00Z" }, // Monday: the next week
      { student: ana, letter: "A", start: "2026-11-03T08:00:00Z" }, // twice in one week
      { student: ana, letter: "B", start: "2026-11-09T08:00:00Z" },
      { student: ana, letter: "B", start: "2026-11-10T08:00:00Z" },
      { student: ana, letter: "B", start: "2026-11-11T08:00:00Z" },
      { student: ana, letter: "B", start: "2026-11-12T08:00:00Z" }, // four times: three levels
      { student: ana, letter: "B", start: "2026-11-04T08:00:00Z" },
      { student: bruno, letter: "A", start: "2026-11-05T08:00:00Z" },
    ];
    for (const session of completed) await trained(t, gym, session.student, session.letter, session.start);
    await trained(t, gym, bruno, "B", "2026-11-06T08:00:00Z", { completed: false });

    const expected = expectedRows(completed.map((s) => ({ userId: s.student.id, trainingId: gym.trainings[s.letter], start: s.start })));
    expect(Object.keys(expected)).toHaveLength(4); // Ana: A in two blocks, B; Bruno: A
    expect(await storedRows()).toEqual(expected);
  });

  it("are filled by the migration for a history logged before them, as logging leaves them, and adherence reads the same", async () => {
    t.clock.set(new Date("2026-01-07T12:00:00Z")); // a Wednesday; the windows reach back across the year's end
    const trainer = await makeTrainer(t);
    const gym = await gymOf(t, trainer, ["A", "B"]);
    const plan = await weeklyPlan(t, gym, [
      ["A", "MONDAY"],
      ["A", "THURSDAY"],
      ["B", "WEDNESDAY"],
    ]);
    const student = await makeStudent(t);
    await link(t, gym, student);
    await assigned(t, gym, plan.id, student, "2025-09-01");
    const sessionsOfA = ["2025-09-01", "2025-10-13", "2025-12-10", "2025-12-29", "2025-12-30", "2025-12-31", "2026-01-05"];
    for (const day of sessionsOfA) await trained(t, gym, student, "A", `${day}T07:00:00Z`);
    for (const start of ["2025-11-26T19:00:00Z", "2025-12-31T19:00:00Z"]) await trained(t, gym, student, "B", start);
    await trained(t, gym, student, "B", "2026-01-07T07:00:00Z", { completed: false });

    const logged = await storedRows();
    const readings = async () => Promise.all([7, 30, 90].map((window) => adherenceOf(t, trainer, student.id, window)));
    const before = await readings();
    // Hand-counted over 30 days (12-09 … 01-07), per ISO week and training:
    // - A, twice a week (Mon, Thu): 12-11; 12-15, 12-18; 12-22, 12-25; 12-29, 01-01; 01-05 (01-08 is after today): 8
    //   sessions. Done: the week of 12-08 once (12-10), of 12-29 twice (three sessions logged), of 01-05 once: 4.
    // - B, Wednesdays 12-10 … 01-07: 5 sessions, done the week of 12-29 (01-07 unfinished): 1.
    expect(before[1]).toMatchObject({ scheduled: 13, completed: 5 });

    await t.db.execute(sql`delete from completed_training_weeks`);
    await runMigration(t.db, "backfill_completed_training_weeks");
    await runMigration(t.db, "backfill_completed_training_weeks_levels");
    expect(await storedRows()).toEqual(logged);
    expect(await readings()).toEqual(before);
  });
});
