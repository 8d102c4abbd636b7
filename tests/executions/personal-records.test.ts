import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rowsOf, runMigration } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { createExercise, createTraining } from "../factories/content.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { historySteps, makeScene, set, type Scene } from "./support.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

let s: Scene;

beforeEach(async () => {
  t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
  s = await makeScene(t, { accept: true });
});

const { alone, training } = historySteps(t, () => s);

/**
 * A history logged out of the order of its dates, with what makes records subtle: the same weight reached again
 * earlier by a session logged after the fact, an exercise twice in one session (one instant), two executions at one
 * instant, estimates higher on lighter sets, bodyweight and unfinished sets, a renamed exercise, and two users.
 */
async function logHistory() {
  const steps = [
    alone("2026-02-10T10:00:00.000Z", [set(10, 40), set(8, 45), set(6, 50, false)]),
    training("2026-01-06T18:00:00.000Z", [
      { exerciseId: s.agachamento.id, sets: [set(5, 100), set(3, 110)] },
      { exerciseId: s.supino.id, sets: [set(5, 45), set(12, 44)] },
      { exerciseId: s.supino.id, sets: [set(1, 45)] },
    ]),
    alone("2026-02-11T10:00:00.000Z", [set(20, null), set(1, 100, false)]),
    alone("2026-02-12T10:00:00.000Z", [set(13, 60)], { exerciseId: s.remada.id }),
    alone("2026-02-12T10:00:00.000Z", [set(2, 60)], { exerciseId: s.remada.id }), // the same instant: the first logged holds the record
    alone("2026-02-12T11:00:00.000Z", [set(10, 45)], { user: s.trainer }),
    async () => {
      // Renamed by its author (arranged in SQL: the rename's multipart form is beside the point): later logs carry the new name.
      await t.db.execute(sql`update exercises set name = 'Agachamento com barra' where id = ${s.agachamento.id}`);
    },
    training("2026-01-03T18:00:00.000Z", [{ exerciseId: s.agachamento.id, sets: [set(1, 110), set(12, 90)] }]), // earlier, renamed
    training("2026-03-01T18:00:00.000Z", [{ exerciseId: s.agachamento.id, sets: [set(1, 110)] }]),
    alone("2026-03-02T10:00:00.000Z", [set(1, 58), set(30, null)], { exerciseId: s.remada.id }),
  ];
  for (const step of steps) await step();
}

/** A user's records as contract §7 defines them, recomputed from every execution logged. */
async function recomputed(userId: number) {
  return rowsOf<Record<string, unknown>>(
    await t.db.execute(sql`
      select ee.exercise_id as "exerciseId", ee.exercise_name as "exerciseName", ee.max_weight::float8 as value, 'kg' as unit,
        to_char(ee.executed_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"') as date,
        (select max(x.best_one_rep_max) from exercise_executions x where x.user_id = ee.user_id and x.exercise_id = ee.exercise_id)::float8
          as "estimatedOneRepMax"
      from (
        select distinct on (exercise_id) * from exercise_executions
        where user_id = ${userId} and exercise_id is not null and max_weight is not null
        order by exercise_id, max_weight desc, executed_at, id
      ) ee
      order by ee.exercise_name, ee.exercise_id`),
  );
}

/** Every user's records as the API answers them: the list, the metrics' list and each exercise's progress. */
async function answers() {
  const result: Record<string, unknown> = {};
  for (const user of [s.student, s.trainer]) {
    const list = await t.get("/api/exercises/personal-records", { token: user.token });
    const metrics = await t.get("/api/users/metrics", { token: user.token });
    expect([list.status, metrics.status]).toEqual([200, 200]);
    result[`${user.id} list`] = list.body;
    result[`${user.id} metrics`] = metrics.body.personalRecords;
    for (const exercise of [s.supino, s.remada, s.agachamento]) {
      result[`${user.id}/${exercise.id} progress`] = (await t.get(`/api/exercises/${exercise.id}/progress`, { token: user.token })).body.personalRecord;
    }
  }
  return result;
}

describe("personal records kept at logging time", () => {
  it("are what the whole history gives, however it was logged", async () => {
    await logHistory();
    for (const user of [s.student, s.trainer]) {
      const expected = await recomputed(user.id);
      const list = (await t.get("/api/exercises/personal-records", { token: user.token })).body;
      expect(list).toEqual(expected);
      const metrics = (await t.get("/api/users/metrics", { token: user.token })).body;
      expect(metrics.personalRecords).toEqual(expected.map(({ exerciseId: _exerciseId, ...record }) => record));
    }
    const student = await recomputed(s.student.id);
    expect(student.map((record) => [record.exerciseName, record.value, record.date, record.estimatedOneRepMax])).toEqual([
      // Reached first by the session logged last but dated earliest, under the exercise's new name; 90 × 42/30 = 126.
      ["Agachamento com barra", 110, "2026-01-03T18:30:00.000Z", 126],
      // 13 × 60 and 2 × 60 at one instant: the first logged (no estimate of its own); 60 × 32/30 = 64.
      ["Remada curvada", 60, "2026-02-12T10:00:00.000Z", 64],
      // 45 in the session of 6 January, twice: the first of the two; 44 × 42/30 = 61.6.
      ["Supino reto", 45, "2026-01-06T18:30:00.000Z", 61.6],
    ]);
  });

  it("are what logging kept for a history logged before the record kinds, filled by their backfill migrations", async () => {
    await logHistory();
    const logged = await answers();
    await t.db.execute(sql`delete from personal_record_holders`);
    await t.db.execute(sql`delete from exercise_records`);
    expect(await answers()).not.toEqual(logged);
    await runMigration(t.db, "backfill_exercise_records");
    await runMigration(t.db, "personal_record_holders_backfill");
    expect(await answers()).toEqual(logged);
  });

  it("leave out an exercise deleted since: its executions no longer have it", async () => {
    const extra = await createExercise(t, s.trainer.token, { name: "Crucifixo", category: "PEITO" });
    const withExtra = await createTraining(t, s.trainer.token, [extra.id], { name: "Treino C", isPublic: true });
    await logTrainingExecution(
      t,
      s.trainer.token,
      withExtra.id,
      trainingExecutionBody("2026-03-10T10:00:00Z", 600, [{ exerciseId: extra.id, sets: [set(8, 20)] }]),
    );
    await logTrainingExecution(
      t,
      s.trainer.token,
      s.trainingA.id,
      trainingExecutionBody("2026-03-11T10:00:00Z", 600, [{ exerciseId: s.supino.id, sets: [set(8, 30)] }]),
    );
    const names = async () =>
      (await t.get("/api/exercises/personal-records", { token: s.trainer.token })).body.map((r: { exerciseName: string }) => r.exerciseName);
    expect(await names()).toEqual(["Crucifixo", "Supino reto"]);

    expect((await t.delete(`/api/trainings/${withExtra.id}`, { token: s.trainer.token })).status).toBe(204);
    expect((await t.delete(`/api/exercises/${extra.id}`, { token: s.trainer.token })).status).toBe(204);
    expect(await names()).toEqual(["Supino reto"]);
    expect(await names()).toEqual((await recomputed(s.trainer.id)).map((record) => record.exerciseName));
  });
});
