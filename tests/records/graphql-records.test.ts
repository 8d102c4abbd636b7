import { beforeEach, describe, expect, it } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { createExercise, linkTrainerAndStudent } from "../factories/content.js";
import { logExerciseExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { makeScene, type Scene } from "../executions/support.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

type GqlBody = { data?: any; errors?: GraphqlError[] };

function dataOf(body: GqlBody) {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

const RECORD_FIELDS = "exerciseId exerciseName kind value unit reps weight achievedAt exerciseExecutionId trainingExecutionId setIndex previousValue";
const NEW_RECORD_FIELDS = "exerciseId kind value unit previousValue";

let s: Scene;

beforeEach(async () => {
  t.clock.set(new Date("2026-03-18T12:00:00.000Z"));
  s = await makeScene(t, { accept: true });
});

/** Supino 8 × 50 and remada 12 × — (bodyweight) on their own. */
async function logSome() {
  await logExerciseExecution(t, s.student.token, s.supino.id, s.trainingA.id, [{ repetitions: 8, weight: 50, completed: true }]);
  await logExerciseExecution(t, s.student.token, s.remada.id, s.trainingA.id, [{ repetitions: 12, completed: true }]);
}

/** Runs `query` as `token`, counting the SQL statements it costs. */
async function measured(query: string, token: string) {
  let statements = 0;
  const stop = t.database.observeQueries(() => (statements += 1));
  try {
    return { statements, data: dataOf(await t.graphql(query, {}, token)) };
  } finally {
    stop();
  }
}

describe("GraphQL records", () => {
  it("both logging mutations answer newRecords as REST does", async () => {
    const training = dataOf(
      await t.graphql(
        `mutation ($trainingId: Int!, $input: TrainingExecutionInput!) { logTrainingExecution(trainingId: $trainingId, input: $input) { id newRecords { ${NEW_RECORD_FIELDS} } } }`,
        {
          trainingId: s.trainingA.id,
          input: trainingExecutionBody("2026-03-17T10:00:00Z", 600, [{ exerciseId: s.remada.id, sets: [{ repetitions: 12, completed: true }] }]),
        },
        s.student.token,
      ),
    ).logTrainingExecution;
    expect(training.newRecords).toEqual([{ exerciseId: s.remada.id, kind: "MAX_REPS", value: 12, unit: "reps", previousValue: null }]);

    const exercise = dataOf(
      await t.graphql(
        `mutation ($exerciseId: Int!, $input: ExerciseExecutionInput!) { logExerciseExecution(exerciseId: $exerciseId, input: $input) { id newRecords { ${NEW_RECORD_FIELDS} } } }`,
        { exerciseId: s.remada.id, input: { trainingId: s.trainingA.id, sets: [{ repetitions: 15, weight: 10, completed: true }] } },
        s.student.token,
      ),
    ).logExerciseExecution;
    expect(
      exercise.newRecords.map((record: { kind: string; value: number; previousValue: number | null }) => [record.kind, record.value, record.previousValue]),
    ).toEqual([
      ["MAX_WEIGHT", 10, null],
      ["BEST_SET_VOLUME", 150, null], // 15 repetitions: no estimate
      ["BEST_SESSION_VOLUME", 150, null],
      ["MAX_REPS", 15, 12],
      ["REP_MAX_3", 10, null],
      ["REP_MAX_5", 10, null],
      ["REP_MAX_10", 10, null],
    ]);
    // Reading an execution back has no newRecords.
    const read = dataOf(await t.graphql(`query ($id: Int!) { trainingExecution(id: $id) { id newRecords { kind } } }`, { id: training.id }, s.student.token));
    expect(read.trainingExecution).toEqual({ id: training.id, newRecords: null });
  });

  it("Exercise.records(userId) and User.records(exerciseId, kinds) read as REST does, for the same readers", async () => {
    await logSome();
    const rest = (await t.get(`/api/exercises/${s.supino.id}/records?userId=${s.student.id}`, { token: s.trainer.token })).body;
    expect(rest).toHaveLength(7);
    const own = dataOf(await t.graphql(`query ($id: Int!) { exercise(id: $id) { records { ${RECORD_FIELDS} } } }`, { id: s.supino.id }, s.student.token));
    expect(own.exercise.records).toEqual(rest);
    const asTrainer = dataOf(
      await t.graphql(
        `query ($id: Int!, $userId: Int) { exercise(id: $id) { records(userId: $userId) { ${RECORD_FIELDS} } } }`,
        { id: s.supino.id, userId: s.student.id },
        s.trainer.token,
      ),
    );
    expect(asTrainer.exercise.records).toEqual(rest);

    const all = dataOf(
      await t.graphql(`query ($id: Int!) { user(id: $id) { records { exerciseName kind value unit } } }`, { id: s.student.id }, s.trainer.token),
    ).user.records;
    // By exercise name, then in kind order.
    expect(all.map((record: { exerciseName: string; kind: string }) => `${record.exerciseName} ${record.kind}`)).toEqual([
      "Remada curvada MAX_REPS",
      ...["MAX_WEIGHT", "ESTIMATED_1RM", "BEST_SET_VOLUME", "BEST_SESSION_VOLUME", "MAX_REPS", "REP_MAX_3", "REP_MAX_5"].map((kind) => `Supino reto ${kind}`),
    ]);
    const some = dataOf(
      await t.graphql(
        `query ($id: Int!, $exerciseId: Int) { user(id: $id) { records(exerciseId: $exerciseId, kinds: [MAX_REPS, MAX_WEIGHT]) { kind value unit } } }`,
        { id: s.student.id, exerciseId: s.supino.id },
        s.student.token,
      ),
    ).user.records;
    expect(some).toEqual([
      { kind: "MAX_WEIGHT", value: 50, unit: "kg" },
      { kind: "MAX_REPS", value: 8, unit: "reps" },
    ]);
  });

  it("refuses with FORBIDDEN a user whose profile the caller reads but whose activity it may not (a student reading its trainer)", async () => {
    const res = await t.graphql(`query ($id: Int!) { user(id: $id) { name records { kind } } }`, { id: s.trainer.id }, s.student.token);
    expect(res.errors!.map((error) => [error.extensions.code, error.path])).toEqual([["FORBIDDEN", ["user", "records"]]]);
    // An unlinked trainer asking for the student's records on its own exercise.
    const outsider = await makeTrainer(t);
    const ownExercise = await createExercise(t, outsider.token);
    const other = await t.graphql(
      `query ($id: Int!) { exercise(id: $id) { name records(userId: ${s.student.id}) { kind } } }`,
      { id: ownExercise.id },
      outsider.token,
    );
    expect(other.errors!.map((error) => [error.extensions.code, error.path])).toEqual([["FORBIDDEN", ["exercise", "records"]]]);
  });

  it("resolves records of a list of users, and of a list of exercises, in as many statements for 3 as for 1", async () => {
    await logSome();
    const students = `query { me { students { student { id records(kinds: [MAX_WEIGHT, MAX_REPS]) { exerciseId kind value } } } } }`;
    const one = await measured(students, s.trainer.token);
    expect(one.data.me.students).toEqual([
      {
        student: {
          id: s.student.id,
          records: [
            { exerciseId: s.remada.id, kind: "MAX_REPS", value: 12 },
            { exerciseId: s.supino.id, kind: "MAX_WEIGHT", value: 50 },
            { exerciseId: s.supino.id, kind: "MAX_REPS", value: 8 },
          ],
        },
      },
    ]);
    for (const name of ["Bia", "Caio"]) {
      const student = await makeStudent(t, { name });
      await linkTrainerAndStudent(t, s.trainer, student);
    }
    const three = await measured(students, s.trainer.token);
    expect(three.data.me.students).toHaveLength(3);
    expect(three.data.me.students.map((link: { student: { records: unknown[] } }) => link.student.records.length)).toEqual([3, 0, 0]);
    expect(three.statements).toBe(one.statements);

    const exercises = (name: string) =>
      `query { exercises(filter: { createdBy: ${s.trainer.id}, name: "${name}" }) { content { name records(userId: ${s.student.id}) { kind } } } }`;
    const single = await measured(exercises("Supino"), s.trainer.token);
    expect(single.data.exercises.content).toHaveLength(1);
    const every = await measured(exercises(""), s.trainer.token);
    expect(every.data.exercises.content.map((exercise: { name: string; records: unknown[] }) => [exercise.name, exercise.records.length])).toEqual(
      expect.arrayContaining([
        ["Supino reto", 7],
        ["Remada curvada", 1],
        ["Agachamento livre", 0],
      ]),
    );
    expect(every.statements).toBe(single.statements);
  });
});
