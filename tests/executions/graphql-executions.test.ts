import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { createExercise, createTraining } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";
import { asRead, executionCounts, makeScene, type Scene } from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const NOW = new Date("2026-03-18T12:00:00.000Z");

type GqlBody = { data?: any; errors?: GraphqlError[] };

/** The data of an answer that must have no errors. */
function dataOf(body: GqlBody) {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

/** The one error of a GraphQL answer. */
function onlyError(body: GqlBody): GraphqlError {
  expect(body.errors, JSON.stringify(body)).toHaveLength(1);
  return body.errors![0];
}

const EXECUTION_FIELDS = `id trainingId trainingName userId userName startTime endTime duration completed notes clientId
  exerciseExecutions { id exerciseId exerciseName personalRecord sets { repetitions weight completed } }`;
const LOG_TRAINING = `mutation ($trainingId: Int!, $input: TrainingExecutionInput!) { logTrainingExecution(trainingId: $trainingId, input: $input) { ${EXECUTION_FIELDS} } }`;
const EXERCISE_EXECUTION_FIELDS = "id exerciseId userId trainingId sets { repetitions weight completed } notes executedAt duration personalRecord clientId";
const LOG_EXERCISE = `mutation ($exerciseId: Int!, $input: ExerciseExecutionInput!) { logExerciseExecution(exerciseId: $exerciseId, input: $input) { ${EXERCISE_EXECUTION_FIELDS} } }`;
const TRAINING_EXECUTION = `query ($id: Int!) { trainingExecution(id: $id) { ${EXECUTION_FIELDS} } }`;
const PERSONAL_RECORDS = "query { personalRecords { exerciseId exerciseName value unit date estimatedOneRepMax } }";
const DASHBOARD = `query ($id: Int!, $trainingId: Int!, $exerciseId: Int!) {
  user(id: $id) {
    executions(page: { size: 5 }) { totalElements content { id } }
    personalRecords { exerciseName value }
    metrics { totalTrainings weeklyProgress { date } }
  }
  training(id: $trainingId) { statistics(userId: $id) { totalVolume } }
  exercise(id: $exerciseId) { progress(interval: WEEK, userId: $id) { progressData { date } } }
}`;

let s: Scene;
let stranger: MadeUser;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
  stranger = await makeTrainer(t, { name: "Diego Personal" });
});

/** Treino A as REST and GraphQL both take it. */
function inputA(start = "2026-03-17T10:00:00.000Z", seconds = 3725) {
  return trainingExecutionBody(
    start,
    seconds,
    [
      {
        exerciseId: s.supino.id,
        sets: [
          { repetitions: 10, weight: 42.5, completed: true },
          { repetitions: 8, weight: 33.75, completed: false },
        ],
      },
      { exerciseId: s.remada.id, sets: [{ repetitions: 15, completed: true }], notes: "Sem carga" },
    ],
    { notes: "Pelo GraphQL" },
  );
}

describe("logTrainingExecution", () => {
  it("logs like POST /trainings/{id}/execution and reads back like GET /trainings/executions/{id}", async () => {
    const logged = dataOf(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: inputA() }, s.student.token)).logTrainingExecution;
    expect(logged).toMatchObject({
      trainingId: s.trainingA.id,
      trainingName: "Treino A",
      userId: s.student.id,
      userName: "Ana Aluna",
      startTime: "2026-03-17T10:00:00.000Z",
      endTime: "2026-03-17T11:02:05.000Z",
      duration: 3725,
      completed: true,
      notes: "Pelo GraphQL",
    });
    expect(logged.exerciseExecutions[0]).toMatchObject({
      exerciseName: "Supino reto",
      personalRecord: true,
      sets: [
        { repetitions: 10, weight: 42.5, completed: true },
        { repetitions: 8, weight: 33.75, completed: false },
      ],
    });
    expect(logged.exerciseExecutions[1]).toMatchObject({
      exerciseName: "Remada curvada",
      personalRecord: false,
      sets: [{ repetitions: 15, weight: null, completed: true }],
    });

    const rest = await t.get(`/api/trainings/executions/${logged.id}`, { token: s.student.token });
    expect(logged).toEqual(rest.body);
    expect(dataOf(await t.graphql(TRAINING_EXECUTION, { id: logged.id }, s.student.token)).trainingExecution).toEqual(rest.body);
    expect(dataOf(await t.graphql(TRAINING_EXECUTION, { id: logged.id }, s.trainer.token)).trainingExecution).toEqual(rest.body);

    // A REST-logged one reads the same through GraphQL.
    const viaRest = await logTrainingExecution(t, s.student.token, s.trainingA.id, inputA("2026-03-16T10:00:00Z", 60));
    expect(dataOf(await t.graphql(TRAINING_EXECUTION, { id: viaRest.id }, s.student.token)).trainingExecution).toEqual(asRead(viaRest));
  });

  it("gives the REST errors with codes: validation by JSON path, 403, 404, 401 — and writes nothing", async () => {
    const invalid = {
      ...inputA(),
      endTime: "2026-03-17T09:00:00.000Z",
      exerciseExecutions: [
        { exerciseId: s.agachamento.id, sets: [{ repetitions: 5, completed: true }] },
        { exerciseId: s.supino.id, sets: [] },
        {
          exerciseId: s.remada.id,
          sets: [
            { repetitions: -1, weight: 2001, completed: true },
            { repetitions: 10_001, weight: 42.125, completed: true },
          ],
        },
      ],
    };
    const gql = onlyError(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: invalid }, s.student.token));
    const rest = await t.post(`/api/trainings/${s.trainingA.id}/execution`, { invalidRequest: true, token: s.student.token, body: invalid });
    expect(rest.status).toBe(400);
    expect(gql.message).toBe("Validation failed");
    expect(gql.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    expect(gql.extensions.errors).toEqual(rest.body.errors);
    expect(gql.extensions.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      [
        "endTime",
        "exerciseExecutions[1].sets",
        "exerciseExecutions[2].sets[0].repetitions",
        "exerciseExecutions[2].sets[0].weight",
        "exerciseExecutions[2].sets[1].repetitions",
        "exerciseExecutions[2].sets[1].weight",
      ].sort(),
    );
    // The exercise outside the training, once the rest is valid.
    const outside = { ...inputA(), exerciseExecutions: [{ exerciseId: s.agachamento.id, sets: [{ repetitions: 5, completed: true }] }] };
    const outsideError = onlyError(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: outside }, s.student.token));
    expect(outsideError.extensions.errors).toEqual(
      (await t.post(`/api/trainings/${s.trainingA.id}/execution`, { token: s.student.token, body: outside })).body.errors,
    );
    expect(outsideError.extensions.errors.map((e: { field: string }) => e.field)).toEqual(["exerciseExecutions[0].exerciseId"]);

    const denied = onlyError(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: inputA() }, stranger.token));
    expect(denied.message).toBe("Acesso negado");
    expect(denied.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const missing = onlyError(await t.graphql(LOG_TRAINING, { trainingId: 999999, input: inputA() }, s.student.token));
    expect(missing.message).toBe("Treino não encontrado");
    expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    const anonymous = onlyError(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input: inputA() }));
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });

    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });

  it("refuses times outside 1900 … 2999 with the REST errors", async () => {
    for (const [startTime, endTime] of [
      ["0000-01-01T00:00:00.000Z", "0000-01-01T01:00:00.000Z"],
      ["9999-12-31T22:00:00.000Z", "9999-12-31T23:00:00.000Z"],
    ]) {
      const input = { ...inputA(), startTime, endTime };
      const gql = onlyError(await t.graphql(LOG_TRAINING, { trainingId: s.trainingA.id, input }, s.student.token));
      const rest = await t.post(`/api/trainings/${s.trainingA.id}/execution`, { token: s.student.token, body: input });
      expect(rest.status).toBe(400);
      expect(gql.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
      expect(gql.extensions.errors).toEqual(rest.body.errors);
      expect(gql.extensions.errors.length).toBeGreaterThan(0);
    }
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });
});

describe("logExerciseExecution", () => {
  it("logs like POST /exercises/{id}/execution, dated at the clock, with personalRecord", async () => {
    t.clock.set(new Date("2026-03-18T15:00:00.500Z"));
    const input = { trainingId: s.trainingA.id, sets: [{ repetitions: 6, weight: 50, completed: true }], notes: "Série pesada", duration: 240 };
    const first = dataOf(await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input }, s.student.token)).logExerciseExecution;
    expect(first).toEqual({
      id: expect.any(Number),
      exerciseId: s.supino.id,
      userId: s.student.id,
      trainingId: s.trainingA.id,
      sets: [{ repetitions: 6, weight: 50, completed: true }],
      notes: "Série pesada",
      executedAt: "2026-03-18T15:00:00.500Z",
      duration: 240,
      personalRecord: true,
      clientId: null,
    });
    const again = await t.post(`/api/exercises/${s.supino.id}/execution`, { token: s.student.token, body: input });
    expect(again.body.personalRecord).toBe(false);
    const { id: _restId, ...restRest } = asRead(again.body);
    const { id: _gqlId, ...gqlRest } = first;
    expect({ ...gqlRest, personalRecord: false }).toEqual(restRest);

    const listed = await t.get(`/api/exercises/${s.supino.id}/executions?sort=id,asc`, { token: s.student.token });
    expect(listed.body.content[0]).toEqual(first);
  });

  it("refuses no sets with the REST validation error, and a stranger with FORBIDDEN", async () => {
    const noSets = { trainingId: s.trainingA.id, sets: [] };
    const gql = onlyError(await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input: noSets }, s.student.token));
    const rest = await t.post(`/api/exercises/${s.supino.id}/execution`, { invalidRequest: true, token: s.student.token, body: noSets });
    expect(rest.status).toBe(400);
    expect(gql.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400, errors: rest.body.errors });
    expect(rest.body.errors.map((e: { field: string }) => e.field)).toEqual(["sets"]);

    const input = { trainingId: s.trainingA.id, sets: [{ repetitions: 1, weight: 1, completed: true }] };
    const denied = onlyError(await t.graphql(LOG_EXERCISE, { exerciseId: s.supino.id, input }, stranger.token));
    expect(denied).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    const missing = onlyError(await t.graphql(LOG_EXERCISE, { exerciseId: 999999, input }, s.student.token));
    expect(missing).toMatchObject({ message: "Exercício não encontrado", extensions: { code: "NOT_FOUND", status: 404 } });
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 0, sets: 0 });
  });
});

describe("trainingExecution and personalRecords", () => {
  it("reads an execution with the REST access rules and messages", async () => {
    const logged = await logTrainingExecution(t, s.student.token, s.trainingA.id, inputA());
    const boss = await makeUser(t, { email: "boss@example.com", userType: "PERSONAL" });
    expect(dataOf(await t.graphql(TRAINING_EXECUTION, { id: logged.id }, boss.token)).trainingExecution.id).toBe(logged.id);

    for (const reader of [stranger, await makeStudent(t)]) {
      const denied = onlyError(await t.graphql(TRAINING_EXECUTION, { id: logged.id }, reader.token));
      expect(denied).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    }
    const missing = onlyError(await t.graphql(TRAINING_EXECUTION, { id: 424242 }, s.student.token));
    expect(missing).toMatchObject({ message: "Execução não encontrada", extensions: { code: "NOT_FOUND", status: 404 } });
    const anonymous = onlyError(await t.graphql(TRAINING_EXECUTION, { id: logged.id }));
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
  });

  it("gives the caller's records as GET /exercises/personal-records does", async () => {
    await logTrainingExecution(t, s.student.token, s.trainingA.id, inputA());
    t.clock.set(new Date("2026-03-18T13:00:00.000Z"));
    await logExerciseExecution(t, s.student.token, s.remada.id, s.trainingA.id, [{ repetitions: 10, weight: 33.75, completed: true }]);
    await logExerciseExecution(t, s.student.token, s.supino.id, s.trainingA.id, [{ repetitions: 2, weight: 42.5, completed: true }]);
    const rest = (await t.get("/api/exercises/personal-records", { token: s.student.token })).body;
    const gql = dataOf(await t.graphql(PERSONAL_RECORDS, {}, s.student.token)).personalRecords;
    expect(gql).toEqual(rest);
    expect(gql.map((r: any) => [r.exerciseName, r.value, r.unit, r.date]).sort()).toEqual([
      ["Remada curvada", 33.75, "kg", "2026-03-18T13:00:00.000Z"],
      ["Supino reto", 42.5, "kg", "2026-03-17T11:02:05.000Z"],
    ]);
    expect(dataOf(await t.graphql(PERSONAL_RECORDS, {}, stranger.token)).personalRecords).toEqual([]);
  });
});

describe("a trainer's dashboard of a linked student", () => {
  async function history() {
    await logTrainingExecution(t, s.student.token, s.trainingA.id, inputA("2026-03-02T10:00:00Z", 3600));
    await logTrainingExecution(t, s.student.token, s.trainingA.id, inputA("2026-03-09T10:00:00Z", 2400));
    for (let i = 0; i < 5; i++) {
      await logTrainingExecution(
        t,
        s.student.token,
        s.trainingB.id,
        trainingExecutionBody(
          `2026-03-1${i}T18:00:00Z`,
          1200 + i,
          [
            { exerciseId: s.agachamento.id, sets: [{ repetitions: 5, weight: 100 + i * 2.5, completed: true }] },
            {
              exerciseId: s.supino.id,
              sets: [
                { repetitions: 8, weight: 33.75, completed: true },
                { repetitions: 8, weight: 45, completed: i % 2 === 0 },
              ],
            },
          ],
          { completed: i !== 3 },
        ),
      );
    }
    t.clock.set(new Date("2026-03-17T09:00:00.000Z"));
    await logExerciseExecution(t, s.student.token, s.remada.id, s.trainingA.id, [{ repetitions: 12, weight: 27.5, completed: true }], { duration: 300 });
    t.clock.set(NOW);
  }

  it("gives executions, records, metrics, statistics and progress with the numbers of REST", async () => {
    await history();
    const data = dataOf(await t.graphql(DASHBOARD, { id: s.student.id, trainingId: s.trainingA.id, exerciseId: s.supino.id }, s.trainer.token));

    const executions = (await t.get(`/api/trainings/executions/user/${s.student.id}?size=5`, { token: s.trainer.token })).body;
    expect(data.user.executions).toEqual({ totalElements: 7, content: executions.content.map((item: { id: number }) => ({ id: item.id })) });
    expect(data.user.executions.content).toHaveLength(5);
    expect(executions.totalElements).toBe(7);

    const records = (await t.get("/api/exercises/personal-records", { token: s.student.token })).body;
    expect(data.user.personalRecords).toEqual(records.map((r: { exerciseName: string; value: number }) => ({ exerciseName: r.exerciseName, value: r.value })));
    expect(data.user.personalRecords.map((r: { exerciseName: string; value: number }) => [r.exerciseName, r.value]).sort()).toEqual([
      ["Agachamento livre", 110],
      ["Remada curvada", 27.5],
      ["Supino reto", 45],
    ]);

    const metrics = (await t.get("/api/users/metrics", { token: s.student.token })).body;
    expect(data.user.metrics).toEqual({
      totalTrainings: metrics.totalTrainings,
      weeklyProgress: metrics.weeklyProgress.map((w: { date: string }) => ({ date: w.date })),
    });
    expect(data.user.metrics.totalTrainings).toBe(7);
    expect(data.user.metrics.weeklyProgress.map((w: { date: string }) => w.date)).toEqual([
      "2026-01-26",
      "2026-02-02",
      "2026-02-09",
      "2026-02-16",
      "2026-02-23",
      "2026-03-02",
      "2026-03-09",
      "2026-03-16",
    ]);

    const statistics = (await t.get(`/api/trainings/${s.trainingA.id}/statistics?userId=${s.student.id}`, { token: s.trainer.token })).body;
    expect(data.training.statistics).toEqual({ totalVolume: statistics.totalVolume });
    expect(statistics.totalVolume).toBe(850); // 2 × (10 × 42.5 + 15 × 0); the 33.75 sets were not completed

    const progress = (await t.get(`/api/exercises/${s.supino.id}/progress?interval=WEEK&userId=${s.student.id}`, { token: s.trainer.token })).body;
    expect(data.exercise.progress).toEqual({ progressData: progress.progressData.map((p: { date: string }) => ({ date: p.date })) });
    expect(data.exercise.progress.progressData).toEqual([{ date: "2026-03-02" }, { date: "2026-03-09" }]);

    // The student sees the same through `me`.
    const me = dataOf(await t.graphql("query { me { metrics { totalTrainings totalExercises totalTime } } }", {}, s.student.token)).me;
    expect(me.metrics).toEqual({ totalTrainings: metrics.totalTrainings, totalExercises: metrics.totalExercises, totalTime: metrics.totalTime });
    expect(me.metrics).toEqual({ totalTrainings: 7, totalExercises: 15, totalTime: 3600 + 2400 + 1200 * 5 + 10 + 300 });
  });

  it("reads filter fields and arguments sent as null as not given: the caller's own figures, any day, by DAY", async () => {
    await history();
    const query = (args: { filter: string; statistics: string; progress: string }) => `query ($id: Int!, $trainingId: Int!, $exerciseId: Int!) {
      user(id: $id) { executions${args.filter} { totalElements } }
      training(id: $trainingId) { statistics${args.statistics} { totalVolume } }
      exercise(id: $exerciseId) { progress${args.progress} { progressData { date } } }
    }`;
    const ids = { id: s.student.id, trainingId: s.trainingA.id, exerciseId: s.supino.id };
    const nulls = dataOf(
      await t.graphql(
        query({
          filter: "(filter: { trainingId: null, completed: null, startDate: null, endDate: null })",
          statistics: "(userId: null, from: null, to: null)",
          progress: "(interval: null, userId: null, from: null, to: null)",
        }),
        ids,
        s.student.token,
      ),
    );
    expect(nulls).toEqual(dataOf(await t.graphql(query({ filter: "", statistics: "", progress: "" }), ids, s.student.token)));
    expect(nulls.user.executions.totalElements).toBe(7);
    expect(nulls.training.statistics.totalVolume).toBe(850);
    expect(nulls.exercise.progress.progressData.length).toBeGreaterThan(0);
  });

  it("refuses a trainer without an ACTIVE link with FORBIDDEN, as REST does", async () => {
    await history();
    const unlinked = onlyError(await t.graphql("query ($id: Int!) { user(id: $id) { executions { totalElements } } }", { id: s.student.id }, stranger.token));
    expect(unlinked).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });

    // Public content, so only the reading of another user's figures is refused.
    const exercise = await createExercise(t, stranger.token, { isPublic: true, name: "Rosca direta" });
    const training = await createTraining(t, stranger.token, [exercise.id], { isPublic: true, name: "Treino público" });
    const stats = await t.graphql(
      "query ($t: Int!, $id: Int!) { training(id: $t) { statistics(userId: $id) { totalVolume } } }",
      { t: training.id, id: s.student.id },
      stranger.token,
    );
    expect(onlyError(stats)).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    expect(await t.get(`/api/trainings/${training.id}/statistics?userId=${s.student.id}`, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { message: "Acesso negado", success: false },
    });
    const progress = await t.graphql(
      "query ($e: Int!, $id: Int!) { exercise(id: $e) { progress(interval: WEEK, userId: $id) { progressData { date } } } }",
      { e: exercise.id, id: s.student.id },
      stranger.token,
    );
    expect(onlyError(progress)).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    expect(await t.get(`/api/exercises/${exercise.id}/progress?userId=${s.student.id}`, { token: stranger.token })).toMatchObject({
      status: 403,
      body: { message: "Acesso negado", success: false },
    });

    // The linked trainer loses it all when the link is removed.
    expect((await t.delete(`/api/personal/students/${s.linkId}`, { token: s.trainer.token })).status).toBe(204);
    const after = await t.graphql(DASHBOARD, { id: s.student.id, trainingId: s.trainingA.id, exerciseId: s.supino.id }, s.trainer.token);
    expect(after.errors!.length).toBeGreaterThan(0);
    for (const error of after.errors!) expect(error).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    expect(after.data?.user ?? null).toBeNull();
  });
});
