import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { runMigration } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { historySteps, makeScene, set, type Scene } from "../executions/support.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

let s: Scene;

beforeEach(async () => {
  s = await makeScene(t, { accept: true });
});

const { alone: at, training } = historySteps(t, () => s);

/**
 * A history logged in the order of its dates, with what makes records subtle: ties (between executions and within
 * one), sets not completed, bodyweight sets, 13 repetitions, an exercise twice in one training, two executions at
 * the same instant, and two users.
 */
async function logHistory() {
  const steps = [
    at("2026-01-05T10:00:00.000Z", [set(10, 40), set(8, 45), set(6, 50, false)]),
    training("2026-01-06T18:00:00.000Z", [
      { exerciseId: s.agachamento.id, sets: [set(5, 100), set(5, 100), set(3, 110)] },
      { exerciseId: s.supino.id, sets: [set(13, 40), set(5, 45)] },
      { exerciseId: s.supino.id, sets: [set(5, 45), set(1, 47.5)] },
    ]),
    at("2026-01-08T10:00:00.000Z", [set(20, null), set(1, 100, false)]),
    at("2026-01-08T10:00:00.000Z", [set(13, 60)]), // the same instant: logging order decides
    at("2026-01-08T10:00:00.000Z", [set(12, 10)], { exerciseId: s.remada.id }),
    at("2026-01-09T10:00:00.000Z", [set(10, 40)], { user: s.trainer }),
    training("2026-01-10T18:00:00.000Z", [{ exerciseId: s.agachamento.id, sets: [set(12, 90), set(1, 120), set(2, 118.25)] }]),
    at("2026-01-11T10:00:00.000Z", [set(1, 62.5), set(2, 61), set(30, null)]),
    at("2026-01-12T10:00:00.000Z", [set(3, 62.5), set(3, 62.5)]),
    at("2026-01-12T11:00:00.000Z", [set(10, 45)], { user: s.trainer }),
  ];
  for (const step of steps) await step();
}

/** Every user's current records and whole history of every exercise, as the API answers them. */
async function snapshot() {
  const result: Record<string, unknown> = {};
  for (const user of [s.student, s.trainer]) {
    for (const exercise of [s.supino, s.remada, s.agachamento]) {
      const key = `${user.id}/${exercise.id}`;
      const current = await t.get(`/api/exercises/${exercise.id}/records`, { token: user.token });
      const history = await t.get(`/api/exercises/${exercise.id}/records/history?size=100`, { token: user.token });
      expect([current.status, history.status]).toEqual([200, 200]);
      result[`${key} current`] = current.body;
      result[`${key} history`] = history.body;
    }
  }
  return result;
}

describe("the records backfill migration", () => {
  it("claims from stored history exactly the records that logging the same sets one by one claimed", async () => {
    await logHistory();
    const logged = await snapshot();
    expect((logged[`${s.student.id}/${s.supino.id} history`] as { totalElements: number }).totalElements).toBeGreaterThan(10);

    await t.db.execute(sql`delete from exercise_records`);
    expect(await snapshot()).not.toEqual(logged);
    await runMigration(t.db, "backfill_exercise_records");
    expect(await snapshot()).toEqual(logged);
  });
});

describe("the estimated one-rep max migration (contract §7)", () => {
  it("recomputes stored estimates to what logging gives now: 1 to 12 repetitions, one repetition the weight itself", async () => {
    await logHistory();
    const progress = async () => (await t.get(`/api/exercises/${s.supino.id}/progress`, { token: s.student.token })).body;
    const records = async () => (await t.get("/api/exercises/personal-records", { token: s.student.token })).body;
    const before = { progress: await progress(), records: await records() };
    // Supino by day: 45 × 38/30 = 57; 45 × 35/30 = 52.5 (13 × 40 gives none, 1 × 47.5 gives 47.5); only 13 × 60, which
    // gives none; 61 × 32/30 = 65.07 (1 × 62.5 gives 62.5); 62.5 × 33/30 = 68.75.
    expect(before.progress.progressData.map((day: { estimatedOneRepMax: number | null }) => day.estimatedOneRepMax)).toEqual([57, 52.5, null, 65.07, 68.75]);
    expect(before.records.find((record: { exerciseId: number }) => record.exerciseId === s.supino.id).estimatedOneRepMax).toBe(68.75);

    // As the former rule stored them: every completed weighted set, Epley even for one or more than 12 repetitions.
    await t.db.execute(sql`update exercise_executions ee set best_one_rep_max = (
      select max(round(s.weight * (30 + s.repetitions) / 30, 2)) from execution_sets s where s.exercise_execution_id = ee.id and s.completed)`);
    expect(await progress()).not.toEqual(before.progress);
    await runMigration(t.db, "estimated_one_rep_max_rule");
    expect({ progress: await progress(), records: await records() }).toEqual(before);
  });
});
