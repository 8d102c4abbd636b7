import { describe, expect, it } from "vitest";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

/*
 * Issue 17: the reads trainers' tools are built from resolve every relation under a list in a number of statements
 * that does not depend on the number of parents (plans' trainings, a page's exercises, a trainer's students).
 */
const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "30" });

type GqlBody = { data?: any; errors?: GraphqlError[] };

const PLAN_TREE = `query ($id: Int!) { trainingPlan(id: $id) { name trainings { training { name exercises { exercise { name creator { name } } } } } } }`;
const EXERCISE_PAGE = `query { exercises(page: { size: 20 }) { totalElements content { id name creator { name } } } }`;
const DASHBOARD = `query { myStudents(page: { size: 20 }) { totalElements content { student { id name
  executions(page: { size: 5 }) { totalElements content { id trainingName startTime duration completed } } } } } }`;

/** The answer's data (there must be no errors) and the SQL statements it took. */
async function measure(query: string, token: string, variables?: Record<string, unknown>) {
  let statements = 0;
  const stop = t.database.observeQueries(() => {
    statements += 1;
  });
  let body: GqlBody;
  try {
    body = await t.graphql(query, variables, token);
  } finally {
    stop();
  }
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return { statements, data: body.data };
}

/** `count` trainers, each with a public exercise. */
async function authorsWithExercises(count: number, prefix: string) {
  const exercises: { id: number; name: string; author: string }[] = [];
  for (let i = 0; i < count; i += 1) {
    const author = await makeTrainer(t, { name: `Autor ${prefix}${i}` });
    const exercise = await createExercise(t, author.token, { name: `${prefix} exercício ${String(i).padStart(2, "0")}`, isPublic: true });
    exercises.push({ id: exercise.id, name: exercise.name, author: `Autor ${prefix}${i}` });
  }
  return exercises;
}

describe("the statements of a read do not depend on the number of parents", () => {
  it("a plan tree: a plan of 5 trainings and one of 20, each of 2 exercises by different authors", async () => {
    const coach = await makeTrainer(t, { name: "Treinador" });
    const exercises = await authorsWithExercises(40, "A");
    async function plan(trainings: number) {
      const ids: number[] = [];
      for (let i = 0; i < trainings; i += 1) {
        ids.push((await createTraining(t, coach.token, [exercises[2 * i].id, exercises[2 * i + 1].id], { name: `Treino ${trainings}.${i}` })).id);
      }
      return createPlan(t, coach.token, ids, { name: `Plano ${trainings}` });
    }
    const [small, large] = [await plan(5), await plan(20)];

    const five = await measure(PLAN_TREE, coach.token, { id: small.id });
    const twenty = await measure(PLAN_TREE, coach.token, { id: large.id });
    console.info(`plan tree: ${five.statements} statements for 5 trainings, ${twenty.statements} for 20`);
    expect(twenty.data.trainingPlan.trainings).toHaveLength(20);
    twenty.data.trainingPlan.trainings.forEach(({ training }: any, i: number) => {
      expect(training).toEqual({
        name: `Treino 20.${i}`,
        exercises: [0, 1].map((k) => ({ exercise: { name: exercises[2 * i + k].name, creator: { name: exercises[2 * i + k].author } } })),
      });
    });
    expect(twenty.statements).toBe(five.statements);
  });

  it("an exercise page: 5 exercises by 5 authors, then 20 by 20", async () => {
    const reader = await makeTrainer(t, { name: "Leitor" });
    const first = await authorsWithExercises(5, "B");
    // The token's first use reads its session (kept afterwards): not a statement of the page's relations.
    await t.graphql("{ me { id } }", {}, reader.token);
    const five = await measure(EXERCISE_PAGE, reader.token);
    expect(five.data.exercises.content).toHaveLength(5);
    const all = [...first, ...(await authorsWithExercises(15, "C"))];
    const twenty = await measure(EXERCISE_PAGE, reader.token);
    console.info(`exercise page: ${five.statements} statements for 5 exercises, ${twenty.statements} for 20`);
    expect(twenty.data.exercises).toEqual({ totalElements: 20, content: all.map((e) => ({ id: e.id, name: e.name, creator: { name: e.author } })) });
    expect(twenty.statements).toBe(five.statements);
  });

  it("a trainer's dashboard: 5 students with their last executions, then 20", async () => {
    const coach = await makeTrainer(t, { name: "Treinador" });
    const exercise = await createExercise(t, coach.token, { name: "Supino" });
    const training = await createTraining(t, coach.token, [exercise.id], { name: "Treino A" });
    await createPlan(t, coach.token, [training.id], { name: "Plano" });
    const students: MadeUser[] = [];
    async function addStudents(count: number) {
      for (let i = 0; i < count; i += 1) {
        const student = await makeStudent(t, { name: `Aluno ${String(students.length).padStart(2, "0")}` });
        await linkTrainerAndStudent(t, coach, student);
        // Logging needs the training visible to the student: its trainer's private training through an assignment.
        const assigned = await t.post(`/api/training-plans/${await planOf(coach)}/assign`, { token: coach.token, body: { studentId: student.id } });
        expect(assigned.status).toBe(201);
        // One more than the page: the page stops at 5, the total counts 6 (fewer for every third student).
        const executions = students.length % 3 === 0 ? 2 : 6;
        for (let k = 0; k < executions; k += 1) {
          const body = trainingExecutionBody(
            new Date(Date.UTC(2026, 0, 1 + k, 8)),
            1800 + k,
            [{ exerciseId: exercise.id, sets: [{ repetitions: 10, weight: 20, completed: true }] }],
            {
              completed: k % 2 === 0,
            },
          );
          await logTrainingExecution(t, student.token, training.id, body);
        }
        students.push(student);
      }
    }
    await addStudents(5);
    const five = await measure(DASHBOARD, coach.token);
    expect(five.data.myStudents.content).toHaveLength(5);
    await addStudents(15);
    const twenty = await measure(DASHBOARD, coach.token);
    console.info(`dashboard: ${five.statements} statements for 5 students, ${twenty.statements} for 20`);

    const content = twenty.data.myStudents.content as any[];
    expect(content).toHaveLength(20);
    // Links newest first.
    expect(content.map((link) => link.student.id)).toEqual([...students].reverse().map((student) => student.id));
    for (const { student } of content) {
      const index = students.findIndex((s) => s.id === student.id);
      const logged = index % 3 === 0 ? 2 : 6;
      expect(student.name).toBe(`Aluno ${String(index).padStart(2, "0")}`);
      expect(student.executions.totalElements).toBe(logged);
      // Latest started first, 5 at most.
      expect(student.executions.content.map((e: any) => [e.trainingName, e.startTime, e.duration, e.completed])).toEqual(
        Array.from({ length: logged }, (_, k) => k)
          .reverse()
          .slice(0, 5)
          .map((k) => ["Treino A", new Date(Date.UTC(2026, 0, 1 + k, 8)).toISOString(), 1800 + k, k % 2 === 0]),
      );
    }
    expect(twenty.statements).toBe(five.statements);
    // The students and their pages come in the links page's one statement (issue 17), under graphql-jit too.
    expect(five.statements).toBe(1);
    const again = await measure(DASHBOARD, coach.token);
    expect(again).toEqual(twenty);

    // A page past the end has no row to carry the total: it is still counted.
    const past = await measure(`query { myStudents(page: { page: 3, size: 20 }) { totalElements totalPages content { id } } }`, coach.token);
    expect(past.data.myStudents).toEqual({ totalElements: 20, totalPages: 1, content: [] });
  });

  it("answers each user's executions or its own FORBIDDEN, read in one batch", async () => {
    const coach = await makeTrainer(t, { name: "Treinador" });
    const student = await makeStudent(t, { name: "Aluna" });
    await linkTrainerAndStudent(t, coach, student);
    const exercise = await createExercise(t, student.token, { name: "Prancha" });
    const training = await createTraining(t, student.token, [exercise.id], { name: "Treino da aluna" });
    await logTrainingExecution(
      t,
      student.token,
      training.id,
      trainingExecutionBody("2026-01-05T08:00:00.000Z", 600, [{ exerciseId: exercise.id, sets: [{ repetitions: 1, completed: true }] }]),
    );

    // The student's own executions and its trainer's (readable profile, executions not hers to read) in one batch.
    const body: GqlBody = await t.graphql(
      `query { me { executions { totalElements content { trainingName } } } myPersonals { content { personal { name executions { totalElements } } } } }`,
      undefined,
      student.token,
    );
    expect(body.data.me.executions).toEqual({ totalElements: 1, content: [{ trainingName: "Treino da aluna" }] });
    // The trainer's page is refused on its own (the field is nullable: it alone turns null), as the one-user read refuses it.
    expect(body.data.myPersonals).toEqual({ content: [{ personal: { name: "Treinador", executions: null } }] });
    expect(body.errors).toEqual([
      {
        message: "Acesso negado",
        locations: expect.any(Array),
        path: ["myPersonals", "content", 0, "personal", "executions"],
        extensions: { code: "FORBIDDEN", status: 403 },
      },
    ]);
  });
});

/** The trainer's one plan. */
async function planOf(coach: MadeUser): Promise<number> {
  const res = await t.get("/api/training-plans/my-plans", { token: coach.token });
  return res.body.content[0].id;
}

describe("GraphQL answers", () => {
  it("are never cached: cache-control no-store, for data and for errors", async () => {
    const user = await makeTrainer(t);
    for (const [query, token] of [
      ["query { me { id } }", user.token],
      ["query { me { id } }", undefined],
      ["query { nope }", user.token],
    ] as const) {
      const res = await t.post("/graphql", { body: { query }, token });
      expect(res.headers.get("cache-control"), `${query} ${token ? "signed in" : "anonymous"}`).toBe("no-store");
    }
  });
});
