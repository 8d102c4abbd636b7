import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { trainingPlanRepository } from "../../src/modules/training-plans/training-plan.repository.js";
import { trainings } from "../../src/tables/training.table.js";
import { planTrainings, trainingPlans } from "../../src/tables/training-plan.table.js";
import { rowsOf } from "../helpers/database.js";
import { fieldsOf, ISO, PAGE_KEYS } from "../helpers/shapes.js";
import { useTestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment, planBody } from "../factories/content.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";

const t = useTestApp({ ADMIN_EMAILS: "admin@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const DENIED = { message: "Acesso negado", success: false };
const PLAN_NOT_FOUND = { message: "Plano de treino não encontrado", success: false };
const TRAINERS_ONLY = { message: "Apenas personal trainers podem criar planos de treino", success: false };
const PLAN_KEYS = ["createdAt", "createdBy", "description", "difficulty", "duration", "goal", "id", "isPublic", "name", "trainings", "updatedAt"];

async function counts() {
  const [row] = rowsOf<{ plans: number; items: number; assignments: number }>(
    await t.db.execute(sql`select
      (select count(*)::int from training_plans) as plans,
      (select count(*)::int from plan_trainings) as items,
      (select count(*)::int from plan_assignments) as assignments`),
  );
  return row;
}

const namesOf = (body: { content: { name: string }[] }) => body.content.map((item) => item.name);

let trainer: MadeUser;
let student: MadeUser;
let trainingIds: number[];

beforeEach(async () => {
  trainer = await makeTrainer(t, { name: "Bruno Personal" });
  student = await makeStudent(t, { name: "Ana Aluna" });
  const exercise = await createExercise(t, trainer.token);
  trainingIds = [];
  for (const name of ["Peito", "Costas", "Pernas"]) trainingIds.push((await createTraining(t, trainer.token, [exercise.id], { name })).id);
});

describe("POST /api/training-plans", () => {
  it("answers 404 Treino não encontrado when a training is deleted between its check and the write, writing nothing", async () => {
    const before = await counts();
    const replace = trainingPlanRepository.replaceTrainings;
    // The training row is gone when the plan's trainings are written (a DELETE committed in between).
    const spy = vi.spyOn(trainingPlanRepository, "replaceTrainings").mockImplementationOnce(async (db, planId, items) => {
      await db.delete(trainings).where(eq(trainings.id, trainingIds[0]));
      return replace(db, planId, items);
    });
    try {
      const res = await t.post("/api/training-plans", { token: trainer.token, body: planBody([trainingIds[0]]) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Treino não encontrado", success: false });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    expect(await counts()).toEqual(before);
    expect((await t.get(`/api/trainings/${trainingIds[0]}`, { token: trainer.token })).status).toBe(200);
  });

  it("creates a plan and answers 201 with its trainings in the order sent", async () => {
    const [peito, costas, pernas] = trainingIds;
    const res = await t.post("/api/training-plans", {
      token: trainer.token,
      body: {
        name: "  Hipertrofia 4 semanas ",
        description: "Plano ABC",
        trainings: [
          { trainingId: pernas, dayOfWeek: "WEDNESDAY", order: 0 },
          { trainingId: peito, dayOfWeek: "MONDAY", order: 1 },
          { trainingId: costas, dayOfWeek: "MONDAY", order: 0 },
          { trainingId: peito, dayOfWeek: "FRIDAY", order: 1000 },
        ],
        isPublic: true,
        difficulty: "INTERMEDIARIO",
        goal: "HIPERTROFIA",
        duration: 4,
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Hipertrofia 4 semanas",
      description: "Plano ABC",
      createdBy: trainer.id,
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
      trainings: [
        { id: expect.any(Number), trainingId: pernas, trainingName: "Pernas", dayOfWeek: "WEDNESDAY", order: 0 },
        { id: expect.any(Number), trainingId: peito, trainingName: "Peito", dayOfWeek: "MONDAY", order: 1 },
        { id: expect.any(Number), trainingId: costas, trainingName: "Costas", dayOfWeek: "MONDAY", order: 0 },
        { id: expect.any(Number), trainingId: peito, trainingName: "Peito", dayOfWeek: "FRIDAY", order: 1000 },
      ],
      isPublic: true,
      difficulty: "INTERMEDIARIO",
      goal: "HIPERTROFIA",
      duration: 4,
    });
    expect(res.body.createdAt).toMatch(ISO);
    const [row] = await t.db.select().from(trainingPlans).where(eq(trainingPlans.id, res.body.id));
    expect(row).toMatchObject({ name: "Hipertrofia 4 semanas", createdBy: trainer.id, durationWeeks: 4 });
    const items = await t.db.select().from(planTrainings).orderBy(asc(planTrainings.position));
    expect(items.map((item) => item.trainingId)).toEqual([pernas, peito, costas, peito]);
    expect((await t.get(`/api/training-plans/${res.body.id}`, { token: trainer.token })).body).toEqual(res.body);
  });

  it("defaults to a private plan without difficulty, goal or duration", async () => {
    const res = await t.post("/api/training-plans", {
      token: trainer.token,
      body: { name: "Simples", description: "Só o básico", trainings: [{ trainingId: trainingIds[0], dayOfWeek: "SUNDAY", order: 0 }] },
    });
    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(PLAN_KEYS);
    expect(res.body).toMatchObject({ isPublic: false, difficulty: null, goal: null, duration: null });
  });

  it("schedules another trainer's public training and a linked student's private one", async () => {
    const other = await makeTrainer(t);
    const exercise = await createExercise(t, other.token, { isPublic: true });
    const open = await createTraining(t, other.token, [exercise.id], { isPublic: true });
    await linkTrainerAndStudent(t, trainer, student);
    const ofStudent = await createTraining(t, student.token, [exercise.id]);
    const res = await t.post("/api/training-plans", { token: trainer.token, body: planBody([open.id, ofStudent.id]) });
    expect(res.status).toBe(201);
    expect(res.body.trainings.map((item: { trainingId: number }) => item.trainingId)).toEqual([open.id, ofStudent.id]);
  });

  it("answers 404 for a training the trainer may not see, or an unknown one, and writes nothing", async () => {
    const other = await makeTrainer(t);
    const exercise = await createExercise(t, other.token);
    const hidden = await createTraining(t, other.token, [exercise.id]);
    for (const trainingId of [hidden.id, 999_999]) {
      const res = await t.post("/api/training-plans", { token: trainer.token, body: planBody([trainingIds[0], trainingId]) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Treino não encontrado", success: false });
    }
    expect(await counts()).toEqual({ plans: 0, items: 0, assignments: 0 });
  });

  it("refuses a student with 403 and an anonymous caller with 401, writing nothing", async () => {
    const exercise = await createExercise(t, student.token);
    const own = await createTraining(t, student.token, [exercise.id]);
    const res = await t.post("/api/training-plans", { token: student.token, body: planBody([own.id]) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(TRAINERS_ONLY);
    const anonymous = await t.post("/api/training-plans", { body: planBody([own.id]) });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect(await counts()).toEqual({ plans: 0, items: 0, assignments: 0 });
  });

  it.each([
    ["no trainings", { trainings: [] }, "trainings"],
    ["a missing training list", { trainings: undefined }, "trainings"],
    ["an unknown dayOfWeek", { trainings: [{ trainingId: 0, dayOfWeek: "FUNDAY", order: 0 }] }, "trainings[0].dayOfWeek"],
    ["a lower-case dayOfWeek", { trainings: [{ trainingId: 0, dayOfWeek: "monday", order: 0 }] }, "trainings[0].dayOfWeek"],
    ["a missing order", { trainings: [{ trainingId: 0, dayOfWeek: "MONDAY" }] }, "trainings[0].order"],
    ["an order of 1001", { trainings: [{ trainingId: 0, dayOfWeek: "MONDAY", order: 1001 }] }, "trainings[0].order"],
    ["a trainingId as text", { trainings: [{ trainingId: "1", dayOfWeek: "MONDAY", order: 0 }] }, "trainings[0].trainingId"],
    ["a duration of 0 weeks", { duration: 0 }, "duration"],
    ["a duration of 105 weeks", { duration: 105 }, "duration"],
    ["a blank description", { description: "   " }, "description"],
    ["a missing description", { description: undefined }, "description"],
    ["a blank name", { name: "" }, "name"],
    ["an unknown difficulty", { difficulty: "EXTREMO" }, "difficulty"],
    ["an unknown goal", { goal: "FLEXIBILIDADE" }, "goal"],
    ["isPublic as text", { isPublic: "true" }, "isPublic"],
  ])("refuses %s with 400 at that JSON path and writes nothing", async (_label, change, field) => {
    const body = planBody([trainingIds[0]], change);
    if (Array.isArray(body.trainings)) {
      body.trainings = body.trainings.map((item: Record<string, unknown>) => (item.trainingId === 0 ? { ...item, trainingId: trainingIds[0] } : item));
    }
    const res = await t.post("/api/training-plans", { invalidRequest: true, token: trainer.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(fieldsOf(res.body)).toEqual([field]);
    expect(await counts()).toEqual({ plans: 0, items: 0, assignments: 0 });
  });

  it("reports every problem of the body together", async () => {
    const res = await t.post("/api/training-plans", {
      invalidRequest: true,
      token: trainer.token,
      body: {
        name: " ",
        description: "",
        trainings: [
          { trainingId: trainingIds[0], dayOfWeek: "MONDAY", order: 0 },
          { trainingId: trainingIds[1], dayOfWeek: "DOMINGO", order: -1 },
        ],
        duration: 105,
      },
    });
    expect(res.status).toBe(400);
    expect(fieldsOf(res.body)).toEqual(["description", "duration", "name", "trainings[1].dayOfWeek", "trainings[1].order"]);
  });
});

describe("GET /api/training-plans/{id}", () => {
  it("shows a public plan to any signed-in user, never without a token", async () => {
    const plan = await createPlan(t, trainer.token, [trainingIds[0]], { isPublic: true });
    const stranger = await makeTrainer(t);
    for (const user of [student, stranger]) {
      const res = await t.get(`/api/training-plans/${plan.id}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(plan);
    }
    const anonymous = await t.get(`/api/training-plans/${plan.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("shows a private plan to its creator, an administrator and its assignee; 403 to anyone else", async () => {
    const plan = await createPlan(t, trainer.token, trainingIds);
    const admin = await makeUser(t, { email: "admin@example.com" });
    const stranger = await makeTrainer(t);
    const url = `/api/training-plans/${plan.id}`;
    for (const user of [trainer, admin]) expect((await t.get(url, { token: user.token })).body).toEqual(plan);

    for (const user of [student, stranger]) {
      const res = await t.get(url, { token: user.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    await linkTrainerAndStudent(t, trainer, student);
    await assignPlan(t, trainer.token, plan.id, student.id);
    const res = await t.get(url, { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(plan);
  });

  it("answers 404 for an unknown plan and 400 for a non-numeric id", async () => {
    const res = await t.get("/api/training-plans/424242", { token: trainer.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(PLAN_NOT_FOUND);
    expect((await t.get("/api/training-plans/x1", { invalidRequest: true, token: trainer.token })).body).toEqual({
      message: "Parâmetro inválido: id",
      success: false,
    });
  });
});

describe("PUT /api/training-plans/{id}", () => {
  it("lets the creator replace the plan, its trainings included", async () => {
    const plan = await createPlan(t, trainer.token, [trainingIds[0], trainingIds[1]], { goal: "FORCA", duration: 8 });
    t.clock.advance(60_000);
    const res = await t.put(`/api/training-plans/${plan.id}`, {
      token: trainer.token,
      body: {
        name: "Renomeado",
        description: "Nova descrição",
        trainings: [{ trainingId: trainingIds[2], dayOfWeek: "SATURDAY", order: 3 }],
        isPublic: true,
        difficulty: "AVANCADO",
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: plan.id,
      name: "Renomeado",
      description: "Nova descrição",
      createdBy: trainer.id,
      createdAt: plan.createdAt,
      updatedAt: t.clock.now().toISOString(),
      trainings: [{ id: expect.any(Number), trainingId: trainingIds[2], trainingName: "Pernas", dayOfWeek: "SATURDAY", order: 3 }],
      isPublic: true,
      difficulty: "AVANCADO",
      goal: null,
      duration: null,
    });
    expect(await counts()).toEqual({ plans: 1, items: 1, assignments: 0 });
    expect((await t.get(`/api/training-plans/${plan.id}`, { token: trainer.token })).body).toEqual(res.body);
  });

  it("answers 403 to anyone but the creator and changes nothing", async () => {
    const plan = await createPlan(t, trainer.token, [trainingIds[0]], { isPublic: true });
    const other = await makeTrainer(t);
    for (const user of [other, student]) {
      const res = await t.put(`/api/training-plans/${plan.id}`, { token: user.token, body: planBody([trainingIds[0]]) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    expect((await t.get(`/api/training-plans/${plan.id}`, { token: trainer.token })).body).toEqual(plan);
  });

  it("answers 404 for an unknown plan or an invisible training, 400 for an invalid body", async () => {
    const missing = await t.put("/api/training-plans/424242", { token: trainer.token, body: planBody([trainingIds[0]]) });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(PLAN_NOT_FOUND);

    const plan = await createPlan(t, trainer.token, [trainingIds[0]]);
    const other = await makeTrainer(t);
    const hidden = await createTraining(t, other.token, [(await createExercise(t, other.token)).id]);
    const invisible = await t.put(`/api/training-plans/${plan.id}`, { token: trainer.token, body: planBody([hidden.id]) });
    expect(invisible.status).toBe(404);
    expect(invisible.body).toEqual({ message: "Treino não encontrado", success: false });

    const invalid = await t.put(`/api/training-plans/${plan.id}`, {
      invalidRequest: true,
      token: trainer.token,
      body: planBody([trainingIds[0]], { duration: 105 }),
    });
    expect(invalid.status).toBe(400);
    expect(fieldsOf(invalid.body)).toEqual(["duration"]);
    expect((await t.get(`/api/training-plans/${plan.id}`, { token: trainer.token })).body).toEqual(plan);
  });
});

describe("DELETE /api/training-plans/{id}", () => {
  it("deletes the creator's plan and its schedule with 204", async () => {
    const plan = await createPlan(t, trainer.token, trainingIds);
    const res = await t.delete(`/api/training-plans/${plan.id}`, { token: trainer.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await counts()).toEqual({ plans: 0, items: 0, assignments: 0 });
    expect((await t.get(`/api/training-plans/${plan.id}`, { token: trainer.token })).body).toEqual(PLAN_NOT_FOUND);
    // The trainings stay, now free to be deleted.
    expect((await t.delete(`/api/trainings/${trainingIds[0]}`, { token: trainer.token })).status).toBe(204);
  });

  it("answers 409 while a PENDING or ACTIVE assignment exists, deleting nothing; 204 once it is CANCELED", async () => {
    const plan = await createPlan(t, trainer.token, trainingIds);
    await linkTrainerAndStudent(t, trainer, student);
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
    const url = `/api/training-plans/${plan.id}`;

    const whilePending = await t.delete(url, { token: trainer.token });
    expect(whilePending.status).toBe(409);
    expect(whilePending.body).toEqual({ message: "Plano de treino está atribuído a alunos", success: false });
    expect(await counts()).toEqual({ plans: 1, items: 3, assignments: 1 });

    await moveAssignment(t, student.token, assignment.id, "accept");
    const whileActive = await t.delete(url, { token: trainer.token });
    expect(whileActive.status).toBe(409);
    expect(whileActive.body).toEqual({ message: "Plano de treino está atribuído a alunos", success: false });
    expect(await counts()).toEqual({ plans: 1, items: 3, assignments: 1 });

    await moveAssignment(t, trainer.token, assignment.id, "cancel");
    expect((await t.delete(url, { token: trainer.token })).status).toBe(204);
    expect(await counts()).toEqual({ plans: 0, items: 0, assignments: 0 });
  });

  it("deletes a plan whose assignments are all COMPLETED", async () => {
    const plan = await createPlan(t, trainer.token, [trainingIds[0]]);
    await linkTrainerAndStudent(t, trainer, student);
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
    await moveAssignment(t, student.token, assignment.id, "accept");
    await moveAssignment(t, trainer.token, assignment.id, "complete");
    expect((await t.delete(`/api/training-plans/${plan.id}`, { token: trainer.token })).status).toBe(204);
  });

  it("answers 403 to anyone but the creator, 404 for an unknown plan, 400 for a non-numeric id", async () => {
    const plan = await createPlan(t, trainer.token, [trainingIds[0]], { isPublic: true });
    const other = await makeTrainer(t);
    const res = await t.delete(`/api/training-plans/${plan.id}`, { token: other.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(DENIED);
    expect(await counts()).toEqual({ plans: 1, items: 1, assignments: 0 });
    const missing = await t.delete("/api/training-plans/424242", { token: trainer.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(PLAN_NOT_FOUND);
    const malformed = await t.delete("/api/training-plans/x1", { invalidRequest: true, token: trainer.token });
    expect(malformed).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: id", success: false } });
    expect(await counts()).toEqual({ plans: 1, items: 1, assignments: 0 });
  });
});

describe("GET /api/training-plans", () => {
  it("lists the plans visible to the caller: public ones, its own, those assigned to it", async () => {
    const other = await makeTrainer(t);
    const exercise = await createExercise(t, other.token, { isPublic: true });
    const otherTraining = await createTraining(t, other.token, [exercise.id], { isPublic: true });
    await createPlan(t, trainer.token, [trainingIds[0]], { name: "Privado do Bruno" });
    await createPlan(t, other.token, [otherTraining.id], { name: "Público do outro", isPublic: true });
    await createPlan(t, other.token, [otherTraining.id], { name: "Privado do outro" });
    const assigned = await createPlan(t, trainer.token, [trainingIds[1]], { name: "Atribuído à Ana" });
    await linkTrainerAndStudent(t, trainer, student);
    await assignPlan(t, trainer.token, assigned.id, student.id);

    const res = await t.get("/api/training-plans?sort=name,asc", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PAGE_KEYS);
    expect(namesOf(res.body)).toEqual(["Atribuído à Ana", "Privado do Bruno", "Público do outro"]);
    for (const item of res.body.content) expect(Object.keys(item).sort()).toEqual(PLAN_KEYS);
    expect(res.body.content[0]).toEqual(assigned);

    expect(namesOf((await t.get("/api/training-plans?sort=name,asc", { token: student.token })).body)).toEqual(["Atribuído à Ana", "Público do outro"]);
    const admin = await makeUser(t, { email: "admin@example.com" });
    expect((await t.get("/api/training-plans", { token: admin.token })).body.totalElements).toBe(4);
    expect((await t.get("/api/training-plans")).status).toBe(401);
  });

  it("filters by partial name, createdBy, isPublic, difficulty and goal", async () => {
    await createPlan(t, trainer.token, [trainingIds[0]], { name: "Força total", isPublic: true, difficulty: "AVANCADO", goal: "FORCA" });
    await createPlan(t, trainer.token, [trainingIds[0]], { name: "Queima", difficulty: "INICIANTE", goal: "EMAGRECIMENTO" });
    const other = await makeTrainer(t);
    const exercise = await createExercise(t, other.token, { isPublic: true });
    const otherTraining = await createTraining(t, other.token, [exercise.id], { isPublic: true });
    await createPlan(t, other.token, [otherTraining.id], { name: "Força para iniciantes", isPublic: true, difficulty: "INICIANTE", goal: "FORCA" });
    const names = async (query: string) => namesOf((await t.get(`/api/training-plans?sort=name,asc&${query}`, { token: trainer.token })).body);

    expect(await names("name=FOR")).toEqual(["Força para iniciantes", "Força total"]);
    expect(await names(`createdBy=${other.id}`)).toEqual(["Força para iniciantes"]);
    expect(await names("isPublic=false")).toEqual(["Queima"]);
    expect(await names("isPublic=true")).toEqual(["Força para iniciantes", "Força total"]);
    expect(await names("difficulty=INICIANTE")).toEqual(["Força para iniciantes", "Queima"]);
    expect(await names("goal=FORCA")).toEqual(["Força para iniciantes", "Força total"]);
    expect(await names("goal=FORCA&difficulty=AVANCADO")).toEqual(["Força total"]);
    expect(await names("goal=OUTRO")).toEqual([]);
  });

  it.each([
    ["goal=MAGIA", "goal"],
    ["goal=forca", "goal"],
    ["difficulty=FACIL", "difficulty"],
    ["isPublic=sim", "isPublic"],
    ["createdBy=-3", "createdBy"],
    ["page=abc", "page"],
    ["size=0", "size"],
    ["sort=secret,asc", "sort"],
  ])("refuses %s with 400 naming the parameter", async (query, param) => {
    const res = await t.get(`/api/training-plans?${query}`, { invalidRequest: true, token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("pages through more plans than a page holds, newest first by default", async () => {
    for (let i = 0; i < 23; i += 1) {
      await createPlan(t, trainer.token, [trainingIds[i % 3]], { name: `Plano ${String(i).padStart(2, "0")}` });
      t.clock.advance(1000);
    }
    const first = await t.get("/api/training-plans", { token: trainer.token });
    expect(first.body).toMatchObject({ totalElements: 23, totalPages: 2, number: 0, size: 20, numberOfElements: 20, first: true, last: false });
    expect(first.body.content[0].name).toBe("Plano 22");
    expect(first.body.sort).toEqual({ sorted: true, unsorted: false, empty: false });
    const second = await t.get("/api/training-plans?page=1", { token: trainer.token });
    expect(namesOf(second.body)).toEqual(["Plano 02", "Plano 01", "Plano 00"]);
    expect(second.body).toMatchObject({ number: 1, numberOfElements: 3, last: true, first: false });
    const custom = await t.get("/api/training-plans?size=5&page=1&sort=name,asc", { token: trainer.token });
    expect(namesOf(custom.body)).toEqual(["Plano 05", "Plano 06", "Plano 07", "Plano 08", "Plano 09"]);
    expect(custom.body).toMatchObject({ totalPages: 5, size: 5 });
  });
});

describe("GET /api/training-plans/my-plans", () => {
  it("lists the plans the trainer created, private and public, and no one else's", async () => {
    const other = await makeTrainer(t);
    const exercise = await createExercise(t, other.token, { isPublic: true });
    await createPlan(t, other.token, [(await createTraining(t, other.token, [exercise.id], { isPublic: true })).id], { name: "Alheio", isPublic: true });
    await createPlan(t, trainer.token, [trainingIds[0]], { name: "Meu privado" });
    await createPlan(t, trainer.token, [trainingIds[1]], { name: "Meu público", isPublic: true });
    const res = await t.get("/api/training-plans/my-plans?sort=name,asc", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(namesOf(res.body)).toEqual(["Meu privado", "Meu público"]);
    expect(res.body).toMatchObject({ totalElements: 2, totalPages: 1 });
    for (const item of res.body.content) expect(item.createdBy).toBe(trainer.id);
    const paged = await t.get("/api/training-plans/my-plans?size=1&page=1&sort=name,asc", { token: trainer.token });
    expect(namesOf(paged.body)).toEqual(["Meu público"]);
  });

  it("answers 403 to a student and 401 without a token", async () => {
    const res = await t.get("/api/training-plans/my-plans", { token: student.token });
    expect(res.status).toBe(403);
    expect(res.body.success).toBe(false);
    expect(res.body).toEqual(TRAINERS_ONLY);
    expect((await t.get("/api/training-plans/my-plans")).status).toBe(401);
  });

  it.each([
    ["page=abc", "page"],
    ["size=0", "size"],
    ["sort=secret,asc", "sort"],
  ])("refuses %s with 400 naming the parameter", async (query, param) => {
    const res = await t.get(`/api/training-plans/my-plans?${query}`, { invalidRequest: true, token: trainer.token });
    expect(res).toMatchObject({ status: 400, body: { message: `Parâmetro inválido: ${param}`, success: false } });
  });
});
