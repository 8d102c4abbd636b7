import { describe, expect, it } from "vitest";
import { createExercise, createTraining } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent } from "../factories/users.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";

const t = useTestApp();
const other = useSecondInstance(t);

const EXPORTS = 30;

interface Exported {
  profile: { weight: number | null };
  weightHistory: { weight: number }[];
  trainingExecutions: { id: number; exerciseExecutions: { id: number }[] }[];
  exerciseExecutions: { id: number }[];
  records: { exerciseExecutionId: number; trainingExecutionId: number | null }[];
}

/** What makes one export not one snapshot of the user's data: each inconsistency it holds, described. */
function inconsistencies(data: Exported): string[] {
  const found: string[] = [];
  const trainingIds = new Set(data.trainingExecutions.map((execution) => execution.id));
  const exerciseIds = new Set(
    [...data.trainingExecutions.flatMap((execution) => execution.exerciseExecutions), ...data.exerciseExecutions].map((item) => item.id),
  );
  for (const record of data.records) {
    if (!exerciseIds.has(record.exerciseExecutionId)) found.push(`a record of exercise execution ${record.exerciseExecutionId}, not exported`);
    if (record.trainingExecutionId !== null && !trainingIds.has(record.trainingExecutionId)) {
      found.push(`a record of training execution ${record.trainingExecutionId}, not exported`);
    }
  }
  // Setting the weight adds it to the history in the same transaction (and the test sets it from one writer only).
  const newest = data.weightHistory.at(-1)?.weight ?? null;
  if (data.profile.weight !== newest) found.push(`profile weight ${data.profile.weight}, newest weight history entry ${newest}`);
  return found;
}

describe("GET /api/users/me/export under concurrent writes", () => {
  it("reads one snapshot: every record's execution is exported, the profile's weight is the newest of its history", async () => {
    const ana = await makeStudent(t);
    const squat = await createExercise(t, ana.token, { name: "Agachamento" });
    const press = await createExercise(t, ana.token, { name: "Supino" });
    const training = await createTraining(t, ana.token, [squat.id, press.id]);

    // While the exports run, the user keeps logging heavier sessions (each sets records) on both instances, exercises
    // on their own on the second, and keeps weighing in on the first (one writer: its last weight is the newest).
    let exporting = true;
    const keepDoing = async (write: (round: number) => Promise<void>) => {
      for (let round = 1; exporting; round += 1) await write(round);
    };
    const sessionsOn = (app: TestApp, hoursAgo: number) =>
      keepDoing(async (round) => {
        const start = new Date(t.clock.now().getTime() - hoursAgo * 3_600_000);
        const sets = setsOf(2, { repetitions: 5, weight: 40 + hoursAgo / 2 + round, completed: true });
        await logTrainingExecution(
          app,
          ana.token,
          training.id,
          trainingExecutionBody(start, 1800, [
            { exerciseId: squat.id, sets },
            { exerciseId: press.id, sets },
          ]),
        );
      });
    const sessions = [sessionsOn(t, 1), sessionsOn(other, 2)];
    const singles = keepDoing(async (round) => {
      await logExerciseExecution(other, ana.token, press.id, training.id, setsOf(1, { repetitions: 3, weight: 200 + round, completed: true }));
    });
    const weights = keepDoing(async (round) => {
      const res = await t.put("/api/users/profile", { token: ana.token, body: { weight: 60 + round / 10 } });
      expect(res.status).toBe(200);
    });

    const failures: string[] = [];
    try {
      for (let round = 0; round < EXPORTS; round += 1) {
        // One export a minute per user: the next one is a minute later.
        t.clock.advance(61_000);
        const app: TestApp = round % 2 === 0 ? t : other;
        const res = await app.get("/api/users/me/export", { token: ana.token });
        expect(res.status, res.text).toBe(200);
        failures.push(...inconsistencies(res.body).map((found) => `export ${round + 1}: ${found}`));
      }
    } finally {
      exporting = false;
      await Promise.all([...sessions, singles, weights]);
    }
    expect(failures).toEqual([]);
  });
});
