import { sql } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { rowsOf } from "../helpers/database.js";
import { useTestApp, type GraphqlError } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment, planBody, trainingBody } from "../factories/content.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

type GqlBody = { data?: any; errors?: GraphqlError[] };

/** The one error of a GraphQL answer. */
function onlyError(body: GqlBody): GraphqlError {
  expect(body.errors, JSON.stringify(body)).toHaveLength(1);
  return body.errors![0];
}

/** The data of an answer that must have no errors. */
function dataOf(body: GqlBody) {
  expect(body.errors, JSON.stringify(body.errors)).toBeUndefined();
  return body.data;
}

const TRAINING_FIELDS = `id name description createdBy isPublic createdAt updatedAt
  exercises { id exerciseId exerciseName sets repetitions weight restSeconds order notes }`;
const PLAN_FIELDS = `id name description createdBy isPublic difficulty goal duration createdAt updatedAt
  trainings { id trainingId trainingName dayOfWeek order }`;
const ASSIGNMENT_FIELDS = "id planId planName studentId studentName personalId personalName assignedAt startDate endDate status notes";

const CREATE_TRAINING = `mutation ($input: TrainingInput!) { createTraining(input: $input) { ${TRAINING_FIELDS} } }`;
const UPDATE_TRAINING = `mutation ($id: Int!, $input: TrainingInput!) { updateTraining(id: $id, input: $input) { ${TRAINING_FIELDS} } }`;
const DELETE_TRAINING = "mutation ($id: Int!) { deleteTraining(id: $id) }";
const TRAINING = `query ($id: Int!) { training(id: $id) { ${TRAINING_FIELDS} } }`;
const TRAININGS =
  "query ($filter: TrainingFilter, $page: PageInput) { trainings(filter: $filter, page: $page) { content { id name exerciseCount exercises { id } } totalElements totalPages number size } }";
const MY_TRAININGS = "query { myTrainings { content { id name } totalElements } }";
const CREATE_PLAN = `mutation ($input: TrainingPlanInput!) { createTrainingPlan(input: $input) { ${PLAN_FIELDS} } }`;
const UPDATE_PLAN = `mutation ($id: Int!, $input: TrainingPlanInput!) { updateTrainingPlan(id: $id, input: $input) { ${PLAN_FIELDS} } }`;
const DELETE_PLAN = "mutation ($id: Int!) { deleteTrainingPlan(id: $id) }";
const PLAN = `query ($id: Int!) { trainingPlan(id: $id) { ${PLAN_FIELDS} } }`;
const PLANS =
  "query ($filter: TrainingPlanFilter, $page: PageInput) { trainingPlans(filter: $filter, page: $page) { content { id name } totalElements totalPages number size } }";
const MY_PLANS = "query { myPlans { content { id name } totalElements } }";
const ASSIGN = `mutation ($planId: Int!, $studentId: Int!, $startDate: LocalDate, $notes: String) {
  assignTrainingPlan(planId: $planId, studentId: $studentId, startDate: $startDate, notes: $notes) { ${ASSIGNMENT_FIELDS} } }`;
const ACCEPT = `mutation ($id: Int!) { acceptAssignment(id: $id) { ${ASSIGNMENT_FIELDS} } }`;
const CANCEL = `mutation ($id: Int!) { cancelAssignment(id: $id) { ${ASSIGNMENT_FIELDS} } }`;
const COMPLETE = `mutation ($id: Int!) { completeAssignment(id: $id) { ${ASSIGNMENT_FIELDS} } }`;
const ASSIGNMENTS = `query ($filter: PlanAssignmentFilter, $page: PageInput) { planAssignments(filter: $filter, page: $page) { content { ${ASSIGNMENT_FIELDS} } totalElements } }`;

let trainer: MadeUser;
let student: MadeUser;

beforeEach(async () => {
  trainer = await makeTrainer(t, { name: "Bruno Personal" });
  student = await makeStudent(t, { name: "Ana Aluna" });
});

describe("trainings over GraphQL", () => {
  it("creates, reads, updates and deletes a training with the REST shape", async () => {
    const [a, b] = [await createExercise(t, trainer.token, { name: "Supino" }), await createExercise(t, trainer.token, { name: "Remada" })];
    const input = {
      name: "Treino A",
      description: "Peito e costas",
      exercises: [
        { exerciseId: b.id, sets: 4, weight: 32.5 },
        { exerciseId: a.id, sets: 3, repetitions: 12, order: 1 },
      ],
    };
    const created = dataOf(await t.graphql(CREATE_TRAINING, { input }, trainer.token)).createTraining;
    const rest = await t.get(`/api/trainings/${created.id}`, { token: trainer.token });
    expect(created).toEqual(rest.body);
    expect(created.exercises.map((line: { exerciseName: string }) => line.exerciseName)).toEqual(["Remada", "Supino"]);
    expect(dataOf(await t.graphql(TRAINING, { id: created.id }, trainer.token)).training).toEqual(rest.body);

    const updated = dataOf(
      await t.graphql(UPDATE_TRAINING, { id: created.id, input: { name: "Treino B", exercises: [{ exerciseId: a.id, sets: 1 }] } }, trainer.token),
    ).updateTraining;
    expect(updated).toEqual((await t.get(`/api/trainings/${created.id}`, { token: trainer.token })).body);
    expect(updated.exercises).toHaveLength(1);

    expect(dataOf(await t.graphql(DELETE_TRAINING, { id: created.id }, trainer.token))).toEqual({ deleteTraining: true });
    expect((await t.get(`/api/trainings/${created.id}`, { token: trainer.token })).status).toBe(404);
  });

  it("gives the REST messages with codes and statuses in extensions", async () => {
    const hidden = await createExercise(t, (await makeTrainer(t)).token);
    const own = await createExercise(t, student.token);

    const invisible = onlyError(await t.graphql(CREATE_TRAINING, { input: trainingBody([hidden.id]) }, trainer.token));
    expect(invisible.message).toBe("Exercício não encontrado");
    expect(invisible.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    const published = onlyError(await t.graphql(CREATE_TRAINING, { input: trainingBody([own.id], { isPublic: true }) }, student.token));
    expect(published.message).toBe("Apenas personal trainers podem criar conteúdo público");
    expect(published.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const invalid = onlyError(
      await t.graphql(
        CREATE_TRAINING,
        {
          input: {
            name: " ",
            exercises: [
              { exerciseId: own.id, sets: 3 },
              { exerciseId: own.id, sets: 0, order: 1001 },
            ],
          },
        },
        student.token,
      ),
    );
    expect(invalid.message).toBe("Validation failed");
    expect(invalid.extensions.code).toBe("BAD_USER_INPUT");
    expect(invalid.extensions.status).toBe(400);
    expect(invalid.extensions.errors.map((error: { field: string }) => error.field).sort()).toEqual(["exercises[1].order", "exercises[1].sets", "name"]);
    const restInvalid = await t.post("/api/trainings", {
      invalidRequest: true,
      token: student.token,
      body: {
        name: " ",
        exercises: [
          { exerciseId: own.id, sets: 3 },
          { exerciseId: own.id, sets: 0, order: 1001 },
        ],
      },
    });
    expect(invalid.extensions.errors).toEqual(restInvalid.body.errors);

    const training = await createTraining(t, trainer.token, [(await createExercise(t, trainer.token)).id]);
    const denied = onlyError(await t.graphql(TRAINING, { id: training.id }, student.token));
    expect(denied.message).toBe("Acesso negado");
    expect(denied.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const anonymous = onlyError(await t.graphql(TRAINING, { id: training.id }));
    expect(anonymous.message).toBe("Token inválido ou expirado");
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    const missing = onlyError(await t.graphql(TRAINING, { id: 424_242 }, trainer.token));
    expect(missing.message).toBe("Treino não encontrado");
    expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    await createPlan(t, trainer.token, [training.id]);
    const inUse = onlyError(await t.graphql(DELETE_TRAINING, { id: training.id }, trainer.token));
    expect(inUse.message).toBe("Treino está em uso em planos de treino");
    expect(inUse.extensions).toEqual({ code: "CONFLICT", status: 409 });
  });

  it("shows a public training without a token, with a null exercise where the caller may not see it", async () => {
    const open = await createExercise(t, trainer.token, { name: "Aberto", isPublic: true });
    const closed = await createExercise(t, trainer.token, { name: "Fechado" });
    const training = await createTraining(t, trainer.token, [open.id, closed.id], { isPublic: true });
    const query = `query ($id: Int!) { training(id: $id) { name exercises { exerciseName exercise { name creator { name } } } creator { name } } }`;
    for (const token of [undefined, student.token]) {
      expect(dataOf(await t.graphql(query, { id: training.id }, token)).training).toEqual({
        name: training.name,
        exercises: [
          { exerciseName: "Aberto", exercise: { name: "Aberto", creator: { name: "Bruno Personal" } } },
          { exerciseName: "Fechado", exercise: null },
        ],
        creator: { name: "Bruno Personal" },
      });
    }
  });

  it("lists visible trainings as items with exerciseCount, and the caller's own", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: true });
    await createTraining(t, trainer.token, [exercise.id, exercise.id], { name: "Privado" });
    await createTraining(t, trainer.token, [exercise.id], { name: "Público", isPublic: true });
    await createTraining(t, student.token, [exercise.id], { name: "Do aluno" });
    const page = dataOf(await t.graphql(TRAININGS, { page: { sort: ["name,asc"] } }, student.token)).trainings;
    expect(page).toMatchObject({ totalElements: 2, totalPages: 1, number: 0, size: 20 });
    expect(page.content.map((item: { name: string; exerciseCount: number; exercises: unknown }) => [item.name, item.exerciseCount, item.exercises])).toEqual([
      ["Do aluno", 1, null],
      ["Público", 1, null],
    ]);
    const filtered = dataOf(await t.graphql(TRAININGS, { filter: { createdBy: trainer.id, isPublic: false } }, trainer.token)).trainings;
    expect(filtered.content).toEqual([{ id: expect.any(Number), name: "Privado", exerciseCount: 2, exercises: null }]);
    expect(dataOf(await t.graphql(MY_TRAININGS, {}, student.token)).myTrainings).toMatchObject({ totalElements: 1, content: [{ name: "Do aluno" }] });
  });
});

describe("training plans over GraphQL", () => {
  let trainingId: number;
  beforeEach(async () => {
    trainingId = (await createTraining(t, trainer.token, [(await createExercise(t, trainer.token)).id], { name: "Treino base" })).id;
  });

  it("creates, reads, updates, lists and deletes a plan with the REST shape", async () => {
    const input = {
      name: "Plano GQL",
      description: "Três dias",
      trainings: [{ trainingId, dayOfWeek: "FRIDAY", order: 2 }],
      goal: "FORCA",
      difficulty: "AVANCADO",
      duration: 6,
    };
    const created = dataOf(await t.graphql(CREATE_PLAN, { input }, trainer.token)).createTrainingPlan;
    const rest = await t.get(`/api/training-plans/${created.id}`, { token: trainer.token });
    expect(created).toEqual(rest.body);
    expect(created.trainings).toEqual([{ id: expect.any(Number), trainingId, trainingName: "Treino base", dayOfWeek: "FRIDAY", order: 2 }]);
    expect(dataOf(await t.graphql(PLAN, { id: created.id }, trainer.token)).trainingPlan).toEqual(rest.body);

    const updated = dataOf(
      await t.graphql(UPDATE_PLAN, { id: created.id, input: { ...input, name: "Renomeado", isPublic: true } }, trainer.token),
    ).updateTrainingPlan;
    expect(updated).toEqual((await t.get(`/api/training-plans/${created.id}`, { token: trainer.token })).body);
    expect(updated).toMatchObject({ name: "Renomeado", isPublic: true });

    expect(dataOf(await t.graphql(PLANS, { filter: { goal: "FORCA", difficulty: "AVANCADO" } }, student.token)).trainingPlans).toEqual({
      content: [{ id: created.id, name: "Renomeado" }],
      totalElements: 1,
      totalPages: 1,
      number: 0,
      size: 20,
    });
    expect(dataOf(await t.graphql(PLANS, { filter: { goal: "OUTRO" } }, student.token)).trainingPlans.totalElements).toBe(0);
    expect(dataOf(await t.graphql(MY_PLANS, {}, trainer.token)).myPlans).toEqual({ content: [{ id: created.id, name: "Renomeado" }], totalElements: 1 });

    expect(dataOf(await t.graphql(DELETE_PLAN, { id: created.id }, trainer.token))).toEqual({ deleteTrainingPlan: true });
    expect((await t.get(`/api/training-plans/${created.id}`, { token: trainer.token })).status).toBe(404);
  });

  it("gives the REST messages with codes and statuses in extensions", async () => {
    const studentOnly = onlyError(await t.graphql(CREATE_PLAN, { input: planBody([trainingId]) }, student.token));
    expect(studentOnly.message).toBe("Apenas personal trainers podem criar planos de treino");
    expect(studentOnly.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const other = await makeTrainer(t);
    const hidden = await createTraining(t, other.token, [(await createExercise(t, other.token)).id]);
    const invisible = onlyError(await t.graphql(CREATE_PLAN, { input: planBody([hidden.id]) }, trainer.token));
    expect(invisible.message).toBe("Treino não encontrado");
    expect(invisible.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    const invalid = onlyError(
      await t.graphql(CREATE_PLAN, { input: planBody([trainingId], { description: " ", duration: 105, trainings: [] }) }, trainer.token),
    );
    expect(invalid.message).toBe("Validation failed");
    expect(invalid.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    expect(invalid.extensions.errors.map((error: { field: string }) => error.field).sort()).toEqual(["description", "duration", "trainings"]);

    const missing = onlyError(await t.graphql(PLAN, { id: 424_242 }, trainer.token));
    expect(missing.message).toBe("Plano de treino não encontrado");
    expect(missing.extensions).toEqual({ code: "NOT_FOUND", status: 404 });

    const plan = await createPlan(t, trainer.token, [trainingId]);
    const denied = onlyError(await t.graphql(PLAN, { id: plan.id }, student.token));
    expect(denied.message).toBe("Acesso negado");
    expect(denied.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const anonymous = onlyError(await t.graphql(PLAN, { id: plan.id }));
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    const notCreator = onlyError(await t.graphql(UPDATE_PLAN, { id: plan.id, input: planBody([trainingId]) }, other.token));
    expect(notCreator.message).toBe("Acesso negado");

    const myPlans = onlyError(await t.graphql(MY_PLANS, {}, student.token));
    expect(myPlans.extensions).toEqual({ code: "FORBIDDEN", status: 403 });

    const badGoal = await t.graphql(PLANS, { filter: { goal: "MAGIA" } }, trainer.token);
    expect(onlyError(badGoal).extensions.code).toBe("BAD_USER_INPUT");

    await linkTrainerAndStudent(t, trainer, student);
    await assignPlan(t, trainer.token, plan.id, student.id);
    const assigned = onlyError(await t.graphql(DELETE_PLAN, { id: plan.id }, trainer.token));
    expect(assigned.message).toBe("Plano de treino está atribuído a alunos");
    expect(assigned.extensions).toEqual({ code: "CONFLICT", status: 409 });
  });
  it("tells a caller who may not list so before anything about its page or filter, as REST does; the page before the filter", async () => {
    const myPlans = "query ($page: PageInput) { myPlans(page: $page) { totalElements } }";
    const byStudent = onlyError(await t.graphql(myPlans, { page: { size: 0 } }, student.token));
    expect(byStudent).toMatchObject({ message: "Apenas personal trainers podem criar planos de treino", extensions: { code: "FORBIDDEN", status: 403 } });
    const rest = await t.get("/api/training-plans/my-plans?size=0", { invalidRequest: true, token: student.token });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ message: byStudent.message, success: false });

    const anonymous = onlyError(await t.graphql(PLANS, { filter: { createdBy: 0 }, page: { sort: ["nope,asc"] } }));
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    const both = onlyError(await t.graphql(PLANS, { filter: { createdBy: 0 }, page: { size: 0 } }, trainer.token));
    expect(both.message).toBe("Parâmetro inválido: size");
    expect((await t.get("/api/training-plans?createdBy=0&size=0", { invalidRequest: true, token: trainer.token })).body.message).toBe(both.message);
  });

  it("tells a caller who may not write so before anything about its input, as REST does", async () => {
    const badTraining = { name: " ", exercises: [] };
    const anonymous = onlyError(await t.graphql(CREATE_TRAINING, { input: badTraining }));
    expect(anonymous.extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
    expect((await t.post("/api/trainings", { invalidRequest: true, body: badTraining })).status).toBe(401);

    const badPlan = { name: " ", description: " ", trainings: [] };
    const byStudent = onlyError(await t.graphql(CREATE_PLAN, { input: badPlan }, student.token));
    expect(byStudent).toMatchObject({ message: "Apenas personal trainers podem criar planos de treino", extensions: { code: "FORBIDDEN", status: 403 } });
    const rest = await t.post("/api/training-plans", { invalidRequest: true, token: student.token, body: badPlan });
    expect(rest.status).toBe(403);
    expect(rest.body).toEqual({ message: byStudent.message, success: false });

    const training = await createTraining(t, trainer.token, [(await createExercise(t, trainer.token)).id]);
    const other = await makeTrainer(t);
    const notCreator = onlyError(await t.graphql(UPDATE_TRAINING, { id: training.id, input: badTraining }, other.token));
    expect(notCreator).toMatchObject({ message: "Acesso negado", extensions: { code: "FORBIDDEN", status: 403 } });
    expect((await t.put(`/api/trainings/${training.id}`, { invalidRequest: true, token: other.token, body: badTraining })).status).toBe(403);

    const invalid = onlyError(await t.graphql(CREATE_PLAN, { input: badPlan }, trainer.token));
    expect(invalid).toMatchObject({ message: "Validation failed", extensions: { code: "BAD_USER_INPUT", status: 400 } });
  });
});

describe("assignments over GraphQL", () => {
  let plan: Record<string, any>;
  beforeEach(async () => {
    t.clock.set(new Date("2026-12-01T08:00:00.000Z"));
    await Promise.all(
      [trainer, student].map(async (user) => {
        const res = await t.post("/api/users/login", { body: { email: user.email, password: user.password } });
        user.token = res.body.token;
      }),
    );
    const training = await createTraining(t, trainer.token, [(await createExercise(t, trainer.token)).id]);
    plan = await createPlan(t, trainer.token, [training.id], { name: "Quatro semanas", duration: 4 });
  });

  it("assigns and moves an assignment through its states like REST", async () => {
    await linkTrainerAndStudent(t, trainer, student);
    const assigned = dataOf(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id, notes: "Boa sorte" }, trainer.token)).assignTrainingPlan;
    expect(assigned).toEqual({
      id: expect.any(Number),
      planId: plan.id,
      planName: "Quatro semanas",
      studentId: student.id,
      studentName: "Ana Aluna",
      personalId: trainer.id,
      personalName: "Bruno Personal",
      assignedAt: "2026-12-01T08:00:00.000Z",
      startDate: "2026-12-01",
      endDate: "2026-12-28",
      status: "PENDING",
      notes: "Boa sorte",
    });
    const rest = await t.get("/api/training-plans/assignments", { token: trainer.token });
    expect(rest.body.content).toEqual([assigned]);

    const wrongParty = onlyError(await t.graphql(ACCEPT, { id: assigned.id }, trainer.token));
    expect(wrongParty.message).toBe("Acesso negado");
    expect(wrongParty.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const tooEarly = onlyError(await t.graphql(COMPLETE, { id: assigned.id }, trainer.token));
    expect(tooEarly.message).toBe("Transição de status inválida");
    expect(tooEarly.extensions).toEqual({ code: "CONFLICT", status: 409 });

    expect(dataOf(await t.graphql(ACCEPT, { id: assigned.id }, student.token)).acceptAssignment).toEqual({ ...assigned, status: "ACTIVE" });
    expect(dataOf(await t.graphql(COMPLETE, { id: assigned.id }, trainer.token)).completeAssignment).toEqual({ ...assigned, status: "COMPLETED" });
    const second = await assignPlan(t, trainer.token, plan.id, student.id, { startDate: "2027-01-04" });
    expect(dataOf(await t.graphql(CANCEL, { id: second.id }, student.token)).cancelAssignment).toMatchObject({
      id: second.id,
      status: "CANCELED",
      endDate: "2027-01-31",
    });

    const page = dataOf(await t.graphql(ASSIGNMENTS, { filter: { status: "COMPLETED" } }, student.token)).planAssignments;
    expect(page).toEqual({ content: [{ ...assigned, status: "COMPLETED" }], totalElements: 1 });
    const byDate = dataOf(await t.graphql(ASSIGNMENTS, { filter: { startDate: "2027-01-01" } }, trainer.token)).planAssignments;
    expect(byDate.content.map((item: { id: number }) => item.id)).toEqual([second.id]);
  });

  it("answers the assign errors of REST", async () => {
    const notStudent = onlyError(await t.graphql(ASSIGN, { planId: plan.id, studentId: trainer.id }, trainer.token));
    expect(notStudent.message).toBe("Aluno não encontrado");
    expect(notStudent.extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    const unlinked = onlyError(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id }, trainer.token));
    expect(unlinked.message).toBe("Aluno não vinculado a este personal");
    expect(unlinked.extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const byStudent = onlyError(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id }, student.token));
    expect(byStudent.message).toBe("Apenas personal trainers podem criar planos de treino");
    const noPlan = onlyError(await t.graphql(ASSIGN, { planId: 424_242, studentId: student.id }, trainer.token));
    expect(noPlan.message).toBe("Plano de treino não encontrado");
    const badDate = onlyError(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id, startDate: "2026-02-30" }, trainer.token));
    expect(badDate.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
  });

  it("takes a null startDate as today and refuses days the database cannot hold with BAD_USER_INPUT", async () => {
    await linkTrainerAndStudent(t, trainer, student);
    const today = dataOf(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id, startDate: null }, trainer.token)).assignTrainingPlan;
    expect(today).toMatchObject({ startDate: "2026-12-01", endDate: "2026-12-28", status: "PENDING" });

    for (const startDate of ["0000-01-01", "9999-12-31"]) {
      const refused = onlyError(await t.graphql(ASSIGN, { planId: plan.id, studentId: student.id, startDate }, trainer.token));
      expect(refused.message, startDate).toBe("Validation failed");
      expect(refused.extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400, errors: [{ field: "startDate", message: expect.any(String) }] });
    }
    const badFilter = onlyError(await t.graphql(ASSIGNMENTS, { filter: { endDate: "0000-01-01" } }, trainer.token));
    expect(badFilter).toMatchObject({ message: "Parâmetro inválido: endDate", extensions: { code: "BAD_USER_INPUT", status: 400 } });
    expect(dataOf(await t.graphql(ASSIGNMENTS, {}, trainer.token)).planAssignments.content.map((item: { id: number }) => item.id)).toEqual([today.id]);
  });

  it("shows each party only its own assignments of a plan", async () => {
    const other = await makeStudent(t, { name: "Davi Aluno" });
    await linkTrainerAndStudent(t, trainer, student);
    await linkTrainerAndStudent(t, trainer, other);
    await assignPlan(t, trainer.token, plan.id, student.id);
    await assignPlan(t, trainer.token, plan.id, other.id);
    const query = `query ($id: Int!) { trainingPlan(id: $id) { assignments { studentName status student { name } personal { name } plan { name } } } }`;
    const ofStudent = dataOf(await t.graphql(query, { id: plan.id }, student.token)).trainingPlan.assignments;
    expect(ofStudent).toEqual([
      { studentName: "Ana Aluna", status: "PENDING", student: { name: "Ana Aluna" }, personal: { name: "Bruno Personal" }, plan: { name: "Quatro semanas" } },
    ]);
    const ofTrainer = dataOf(await t.graphql(query, { id: plan.id }, trainer.token)).trainingPlan.assignments;
    expect(ofTrainer.map((item: { studentName: string }) => item.studentName)).toEqual(["Davi Aluno", "Ana Aluna"]);
  });
});

describe("DataLoader: nested relations cost the same number of statements whatever the page size", () => {
  const NESTED = `query { trainingPlans(page: { size: 20 }) { content { id
    trainings { trainingName training { name exercises { exerciseName exercise { name creator { name } } } } }
    assignments { status student { name } }
    creator { name } } } }`;

  /** A trainer with `n` private plans, each of 2 trainings of 3 exercises of their own, each plan assigned to 2 linked students. */
  async function seed(n: number) {
    const coach = await makeTrainer(t, { name: `Treinador ${n}` });
    const students = [await makeStudent(t, { name: `Aluno ${n}A` }), await makeStudent(t, { name: `Aluno ${n}B` })];
    for (const pupil of students) await linkTrainerAndStudent(t, coach, pupil);
    const plans: number[] = [];
    for (let p = 0; p < n; p += 1) {
      const trainingIds: number[] = [];
      for (let k = 0; k < 2; k += 1) {
        const exerciseIds: number[] = [];
        for (let e = 0; e < 3; e += 1) exerciseIds.push((await createExercise(t, coach.token, { name: `Ex ${n}.${p}.${k}.${e}` })).id);
        trainingIds.push((await createTraining(t, coach.token, exerciseIds, { name: `Treino ${n}.${p}.${k}` })).id);
      }
      const plan = await createPlan(t, coach.token, trainingIds, { name: `Plano ${n}.${p}` });
      for (const pupil of students) await assignPlan(t, coach.token, plan.id, pupil.id);
      plans.push(plan.id);
    }
    return { coach, students, plans };
  }

  async function measure(query: string, token: string) {
    let statements = 0;
    const stop = t.database.observeQueries(() => {
      statements += 1;
    });
    let body: GqlBody;
    try {
      body = await t.graphql(query, undefined, token);
    } finally {
      stop();
    }
    return { statements, data: dataOf(body) };
  }

  it("lists 20 plans with trainings, exercises, authors and assignments in as many statements as 5 plans", async () => {
    const small = await seed(5);
    const large = await seed(20);

    const five = await measure(NESTED, small.coach.token);
    const twenty = await measure(NESTED, large.coach.token);
    expect(five.data.trainingPlans.content).toHaveLength(5);
    expect(twenty.data.trainingPlans.content).toHaveLength(20);
    console.info(`DataLoader proof: ${five.statements} statements for 5 plans, ${twenty.statements} for 20`);
    expect(twenty.statements).toBe(five.statements);
    expect(twenty.statements).toBeLessThanOrEqual(20);

    // Every plan's nested data is there, none of it null.
    const content = twenty.data.trainingPlans.content as any[];
    expect(content.map((plan) => plan.id).sort((x, y) => x - y)).toEqual([...large.plans].sort((x, y) => x - y));
    for (const plan of content) {
      const p = large.plans.indexOf(plan.id);
      expect(plan.creator).toEqual({ name: "Treinador 20" });
      expect(plan.trainings).toHaveLength(2);
      plan.trainings.forEach((item: any, k: number) => {
        expect(item.trainingName).toBe(`Treino 20.${p}.${k}`);
        expect(item.training.name).toBe(`Treino 20.${p}.${k}`);
        expect(item.training.exercises).toEqual(
          [0, 1, 2].map((e) => ({ exerciseName: `Ex 20.${p}.${k}.${e}`, exercise: { name: `Ex 20.${p}.${k}.${e}`, creator: { name: "Treinador 20" } } })),
        );
      });
      expect(plan.assignments).toEqual([
        { status: "PENDING", student: { name: "Aluno 20B" } },
        { status: "PENDING", student: { name: "Aluno 20A" } },
      ]);
    }
  });

  it("resolves the plans of a student's assignments in as many statements for 20 as for 5", async () => {
    const small = await seed(5);
    const large = await seed(20);
    const query = `query { planAssignments(page: { size: 20 }) { content { id plan { name trainings { training { name } } } personal { name } } } }`;
    const five = await measure(query, small.students[0].token);
    const twenty = await measure(query, large.students[0].token);
    expect(five.data.planAssignments.content).toHaveLength(5);
    expect(twenty.data.planAssignments.content).toHaveLength(20);
    for (const item of twenty.data.planAssignments.content) {
      expect(item.plan.name).toMatch(/^Plano 20\.\d+$/);
      expect(item.plan.trainings.map((entry: any) => entry.training.name)).toHaveLength(2);
      expect(item.personal).toEqual({ name: "Treinador 20" });
    }
    console.info(`DataLoader proof (assignments): ${five.statements} statements for 5, ${twenty.statements} for 20`);
    expect(twenty.statements).toBe(five.statements);
  }, 120_000); // seeds 25 plans of 150 exercises over HTTP: past the default 30 s on a saturated machine

  it("shows a plan's assignments in every state to its trainer", async () => {
    const { coach } = await seed(1);
    const [row] = rowsOf<{ id: number }>(await t.db.execute(sql`select id from plan_assignments order by id limit 1`));
    await moveAssignment(t, coach.token, row.id, "cancel");
    const nested = await measure(NESTED, coach.token);
    expect(nested.data.trainingPlans.content[0].assignments.map((a: { status: string }) => a.status)).toEqual(["PENDING", "CANCELED"]);
  });
});
