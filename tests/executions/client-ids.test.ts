import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { anotherConnectionToWorkerDatabase, rowsOf } from "../helpers/database.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { trainingExecutionBody } from "../factories/executions.js";
import { executionCounts, makeScene, type Scene } from "./support.js";

// Contract §13.2: a log sent again with its clientId (the app's retry after a lost answer) is the first log.
const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });
/** A second instance of the service on the same database, as behind a load balancer. */
const other = useSecondInstance(t);

const NOW = new Date("2026-03-18T12:00:00.000Z");

let s: Scene;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
});

/** Treino A: supino 10 × `weight` kg, remada 15 reps. */
function trainingBody(clientId: string | undefined, weight = 40, start = "2026-03-17T10:00:00.000Z") {
  return trainingExecutionBody(
    start,
    1800,
    [
      { exerciseId: s.supino.id, sets: [{ repetitions: 10, weight, completed: true }] },
      { exerciseId: s.remada.id, sets: [{ repetitions: 15, completed: true }] },
    ],
    clientId === undefined ? {} : ({ clientId } as object),
  );
}

function exerciseBody(clientId: string | undefined, weight = 50, trainingId = s.trainingA.id) {
  return { trainingId, sets: [{ repetitions: 6, weight, completed: true }], ...(clientId === undefined ? {} : { clientId }) };
}

const logTraining = (app: TestApp, body: unknown, token = s.student.token, trainingId = s.trainingA.id) =>
  app.post(`/api/trainings/${trainingId}/execution`, { token, body });
const logExercise = (app: TestApp, body: unknown, token = s.student.token, exerciseId = s.supino.id) =>
  app.post(`/api/exercises/${exerciseId}/execution`, { token, body });

async function recordCount(): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from exercise_records`));
  return row.n;
}

describe("training executions with a clientId", () => {
  it("answers 201 with the clientId, then 200 with the execution logged first (its newRecords too), whatever the new body", async () => {
    const clientId = randomUUID();
    const first = await logTraining(t, trainingBody(clientId));
    expect(first.status).toBe(201);
    expect(first.body.clientId).toBe(clientId);
    expect(first.body.newRecords.length).toBeGreaterThan(0);
    const records = await recordCount();

    const again = await logTraining(t, trainingBody(clientId, 90, "2026-03-18T08:00:00.000Z"));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    // Even for another training the caller may execute: the client id names the execution.
    const elsewhere = await logTraining(
      t,
      { ...trainingBody(clientId), exerciseExecutions: [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 1, completed: true }] }] },
      s.student.token,
      s.trainingB.id,
    );
    expect(elsewhere.status).toBe(200);
    expect(elsewhere.body).toEqual(first.body);

    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 2, sets: 2 });
    expect(await recordCount()).toBe(records);
    const read = await t.get(`/api/trainings/executions/${first.body.id}`, { token: s.student.token });
    expect(read.body.clientId).toBe(clientId);
  });

  it("answers the records the first log set, as it set them, after later logs beat them", async () => {
    const clientId = randomUUID();
    const first = await logTraining(t, trainingBody(clientId, 40));
    const beaten = await logTraining(t, trainingBody(undefined, 60, "2026-03-17T18:00:00.000Z"));
    expect(beaten.status).toBe(201);
    expect(beaten.body.newRecords.length).toBeGreaterThan(0);

    const again = await logTraining(t, trainingBody(clientId, 40));
    expect(again.status).toBe(200);
    expect(again.body.newRecords).toEqual(first.body.newRecords);
  });

  it("keeps the clientId in lower case, so its upper-case spelling is the same id", async () => {
    const clientId = randomUUID();
    const first = await logTraining(t, trainingBody(clientId.toUpperCase()));
    expect(first.status).toBe(201);
    expect(first.body.clientId).toBe(clientId);
    const again = await logTraining(t, trainingBody(clientId));
    expect(again.status).toBe(200);
    expect(again.body.id).toBe(first.body.id);
  });

  it("refuses a clientId that is not a UUID with the usual 400 and logs nothing", async () => {
    for (const clientId of ["abc", "123e4567-e89b-12d3-a456-42661417400", "123e4567e89b12d3a456426614174000", 42]) {
      const res = await t.withInvalidRequests(() => logTraining(t, { ...trainingBody(undefined), clientId }));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({
        message: "Validation failed",
        success: false,
        errors: [{ field: "clientId", message: typeof clientId === "string" ? "UUID inválido" : expect.any(String) }],
      });
    }
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });

  it("logs every call without a clientId, or with null", async () => {
    expect((await logTraining(t, trainingBody(undefined))).status).toBe(201);
    expect((await logTraining(t, trainingBody(undefined))).status).toBe(201);
    expect((await logTraining(t, { ...trainingBody(undefined), clientId: null })).status).toBe(201);
    expect((await executionCounts(t)).trainings).toBe(3);
  });

  it("is unique per user: another user's log with the same clientId is its own", async () => {
    const clientId = randomUUID();
    expect((await logTraining(t, trainingBody(clientId))).status).toBe(201);
    const theirs = await logTraining(t, trainingBody(clientId), s.trainer.token);
    expect(theirs.status).toBe(201);
    expect(theirs.body.userId).toBe(s.trainer.id);
    expect((await executionCounts(t)).trainings).toBe(2);
  });

  it("stores one execution of 10 simultaneous logs with one clientId over two instances: one 201, nine 200 with it", async () => {
    const clientId = randomUUID();
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => logTraining(i % 2 === 0 ? t : other, trainingBody(clientId, 40 + i, `2026-03-17T1${i}:00:00.000Z`))),
    );
    const statuses = answers.map((res) => res.status).sort();
    expect(statuses).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const created = answers.find((res) => res.status === 201)!;
    for (const res of answers) expect(res.body).toEqual(created.body);
    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 2, sets: 2 });
    expect(await recordCount()).toBe(created.body.newRecords.length);
  });
  // PostgreSQL only: PGlite has one session, where the test's lock would not hold the service's requests back.
  it.runIf(process.env.DATABASE_URL)("decides by the unique index when both logs found no execution with the clientId before either was written", async () => {
    const clientId = randomUUID();
    const connection = await anotherConnectionToWorkerDatabase();
    try {
      const answers = await connection.handle.db.transaction(async (tx) => {
        // The user's logging lock (advisory-locks.ts, "executions"), held while both requests get past their reads.
        await tx.execute(sql`select pg_advisory_xact_lock(8003, ${s.student.id})`);
        const sent = [logTraining(t, trainingBody(clientId, 40)), logTraining(other, trainingBody(clientId, 45))];
        await waitForLockWaiters(tx, s.student.id, 2);
        return sent;
      });
      const settled = await Promise.all(answers);
      expect(settled.map((res) => res.status).sort()).toEqual([200, 201]);
      expect(settled[0].body).toEqual(settled[1].body);
    } finally {
      await connection.close();
    }
    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 2, sets: 2 });
  });
});

/** Until `count` transactions wait for the logging lock of `userId`. */
async function waitForLockWaiters(db: Pick<TestApp["db"], "execute">, userId: number, count: number) {
  for (;;) {
    const [row] = rowsOf<{ n: number }>(
      await db.execute(sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = 8003 and objid = ${userId}`),
    );
    if (row.n >= count) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

describe("exercise executions with a clientId", () => {
  it("answers 201, then 200 with the first execution and its records whatever the new body", async () => {
    const clientId = randomUUID();
    const first = await logExercise(t, exerciseBody(clientId, 50));
    expect(first.status).toBe(201);
    expect(first.body).toMatchObject({ clientId, personalRecord: true, sets: [{ repetitions: 6, weight: 50, completed: true }] });
    expect(first.body.newRecords.length).toBeGreaterThan(0);

    t.clock.set(new Date(NOW.getTime() + 3_600_000));
    const again = await logExercise(t, exerciseBody(clientId, 70, s.trainingB.id));
    expect(again.status).toBe(200);
    expect(again.body).toEqual(first.body);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
  });

  it("keeps the clientIds of training and exercise executions apart", async () => {
    const clientId = randomUUID();
    expect((await logTraining(t, trainingBody(clientId))).status).toBe(201);
    const alone = await logExercise(t, exerciseBody(clientId));
    expect(alone.status).toBe(201);
    expect(alone.body.clientId).toBe(clientId);
    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 3, sets: 3 });
  });

  it("refuses a clientId that is not a UUID with the usual 400", async () => {
    const res = await t.withInvalidRequests(() => logExercise(t, exerciseBody("not-a-uuid")));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "clientId", message: "UUID inválido" }] });
    expect((await executionCounts(t)).exercises).toBe(0);
  });

  it("stores one execution of 10 simultaneous logs with one clientId over two instances", async () => {
    const clientId = randomUUID();
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => logExercise(i % 2 === 0 ? t : other, exerciseBody(clientId, 50 + i))));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    const created = answers.find((res) => res.status === 201)!;
    for (const res of answers) expect(res.body).toEqual(created.body);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
    expect(await recordCount()).toBe(created.body.newRecords.length);
  });
});

describe("GraphQL", () => {
  const LOG_TRAINING = `mutation ($trainingId: Int!, $input: TrainingExecutionInput!) {
    logTrainingExecution(trainingId: $trainingId, input: $input) { id clientId newRecords { exerciseId kind value } }
  }`;
  const LOG_EXERCISE = `mutation ($exerciseId: Int!, $input: ExerciseExecutionInput!) {
    logExerciseExecution(exerciseId: $exerciseId, input: $input) { id clientId newRecords { kind value } }
  }`;

  it("logTrainingExecution and logExerciseExecution take a clientId: sent again, the first execution", async () => {
    const clientId = randomUUID();
    const first = await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: trainingBody(clientId) }, s.student.token);
    expect(first.errors).toBeUndefined();
    expect(first.data.logTrainingExecution.clientId).toBe(clientId);
    const again = await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: trainingBody(clientId, 80) }, s.student.token);
    expect(again).toEqual(first);
    // The same id sent over REST is the same log too.
    const rest = await logTraining(t, trainingBody(clientId));
    expect(rest.status).toBe(200);
    expect(rest.body.id).toBe(first.data.logTrainingExecution.id);

    const exerciseId = randomUUID();
    const alone = await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input: exerciseBody(exerciseId) }, s.student.token);
    expect(alone.data.logExerciseExecution.clientId).toBe(exerciseId);
    expect(await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input: exerciseBody(exerciseId, 99) }, s.student.token)).toEqual(alone);
    expect(await executionCounts(t)).toEqual({ trainings: 1, exercises: 3, sets: 3 });
  });

  it("refuses a clientId that is not a UUID as REST does", async () => {
    const res = await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input: exerciseBody("nope") }, s.student.token);
    expect(res.errors![0].extensions).toEqual({ code: "BAD_USER_INPUT", status: 400, errors: [{ field: "clientId", message: "UUID inválido" }] });
  });
});
