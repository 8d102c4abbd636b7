import { asc, eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { exercises } from "../../src/tables/exercise.table.js";
import { trainingRepository } from "../../src/modules/trainings/training.repository.js";
import { trainingExercises, trainings } from "../../src/tables/training.table.js";
import { rowsOf } from "../helpers/database.js";
import { fieldsOf, ISO, PAGE_KEYS } from "../helpers/shapes.js";
import { useTestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment, trainingBody } from "../factories/content.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";

const t = useTestApp({ ADMIN_EMAILS: "admin@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const DENIED = { message: "Acesso negado", success: false };
const TRAINING_NOT_FOUND = { message: "Treino não encontrado", success: false };
const LIST_ITEM_KEYS = ["createdAt", "createdBy", "description", "exerciseCount", "id", "isPublic", "name", "updatedAt"];

async function counts() {
  const [row] = rowsOf<{ trainings: number; lines: number }>(
    await t.db.execute(sql`select (select count(*)::int from trainings) as trainings, (select count(*)::int from training_exercises) as lines`),
  );
  return row;
}

let trainer: MadeUser;
let student: MadeUser;

beforeEach(async () => {
  trainer = await makeTrainer(t, { name: "Bruno Personal" });
  student = await makeStudent(t, { name: "Ana Aluna" });
});

describe("POST /api/trainings", () => {
  it("answers 404 Exercício não encontrado when an exercise is deleted between its check and the write, writing nothing", async () => {
    const exercise = await createExercise(t, trainer.token, { name: "Supino reto" });
    const before = await counts();
    const replace = trainingRepository.replaceExercises;
    // The exercise row is gone when the training's lines are written (a DELETE committed in between).
    const spy = vi.spyOn(trainingRepository, "replaceExercises").mockImplementationOnce(async (db, trainingId, lines) => {
      await db.delete(exercises).where(eq(exercises.id, exercise.id));
      return replace(db, trainingId, lines);
    });
    try {
      const res = await t.post("/api/trainings", { token: trainer.token, body: trainingBody([exercise.id]) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Exercício não encontrado", success: false });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    expect(await counts()).toEqual(before);
  });

  it("creates a trainer's training and answers 201 with the full shape, exercises in the order sent", async () => {
    const ex = [];
    for (const name of ["Supino reto", "Crucifixo", "Flexão", "Crossover"]) ex.push(await createExercise(t, trainer.token, { name }));
    // Ids sent scrambled: the answer keeps the order of the request, not the ids' order.
    const lines = [
      { exerciseId: ex[2].id, sets: 4, repetitions: 12, weight: 0, restSeconds: 60, order: 1, notes: "Pegada fechada" },
      { exerciseId: ex[0].id, sets: 5, repetitions: 5, weight: 82.5, restSeconds: 180, order: 0 },
      { exerciseId: ex[3].id, sets: 3 },
      { exerciseId: ex[1].id, sets: 50, repetitions: 10_000, weight: 2000, restSeconds: 86_400, order: 1000, notes: "  Até a falha  " },
    ];
    const res = await t.post("/api/trainings", {
      token: trainer.token,
      body: { name: "  Peito A  ", description: "Treino de peito", isPublic: true, exercises: lines },
    });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: "Peito A",
      description: "Treino de peito",
      createdBy: trainer.id,
      isPublic: true,
      exercises: [
        {
          id: expect.any(Number),
          exerciseId: ex[2].id,
          exerciseName: "Flexão",
          sets: 4,
          repetitions: 12,
          weight: 0,
          restSeconds: 60,
          order: 1,
          notes: "Pegada fechada",
        },
        {
          id: expect.any(Number),
          exerciseId: ex[0].id,
          exerciseName: "Supino reto",
          sets: 5,
          repetitions: 5,
          weight: 82.5,
          restSeconds: 180,
          order: 0,
          notes: null,
        },
        {
          id: expect.any(Number),
          exerciseId: ex[3].id,
          exerciseName: "Crossover",
          sets: 3,
          repetitions: null,
          weight: null,
          restSeconds: null,
          order: null,
          notes: null,
        },
        {
          id: expect.any(Number),
          exerciseId: ex[1].id,
          exerciseName: "Crucifixo",
          sets: 50,
          repetitions: 10_000,
          weight: 2000,
          restSeconds: 86_400,
          order: 1000,
          notes: "Até a falha",
        },
      ],
      createdAt: t.clock.now().toISOString(),
      updatedAt: t.clock.now().toISOString(),
    });
    expect(new Set(res.body.exercises.map((line: { id: number }) => line.id)).size).toBe(4);

    const [row] = await t.db.select().from(trainings).where(eq(trainings.id, res.body.id));
    expect(row).toMatchObject({ name: "Peito A", createdBy: trainer.id, isPublic: true });
    const stored = await t.db.select().from(trainingExercises).where(eq(trainingExercises.trainingId, res.body.id)).orderBy(asc(trainingExercises.position));
    expect(stored.map((line) => line.exerciseId)).toEqual([ex[2].id, ex[0].id, ex[3].id, ex[1].id]);

    // Read back, the order is still the one sent.
    const read = await t.get(`/api/trainings/${res.body.id}`, { token: trainer.token });
    expect(read.body).toEqual(res.body);
  });

  it("lets a student create a private training with its own exercises and public ones", async () => {
    const mine = await createExercise(t, student.token, { name: "Agachamento livre" });
    const open = await createExercise(t, trainer.token, { name: "Remada", isPublic: true });
    const res = await t.post("/api/trainings", {
      token: student.token,
      body: {
        name: "Meu treino",
        exercises: [
          { exerciseId: mine.id, sets: 3 },
          { exerciseId: open.id, sets: 2 },
        ],
      },
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ name: "Meu treino", description: null, createdBy: student.id, isPublic: false });
    expect(res.body.exercises.map((line: { exerciseName: string }) => line.exerciseName)).toEqual(["Agachamento livre", "Remada"]);
  });

  it("answers 404 for another trainer's private exercise or an unknown one, and writes nothing", async () => {
    const other = await makeTrainer(t);
    const hidden = await createExercise(t, other.token, { isPublic: false });
    const mine = await createExercise(t, trainer.token);
    for (const exerciseId of [hidden.id, 999_999]) {
      const res = await t.post("/api/trainings", { token: trainer.token, body: trainingBody([mine.id, exerciseId]) });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Exercício não encontrado", success: false });
    }
    expect(await counts()).toEqual({ trainings: 0, lines: 0 });
  });

  it("refuses a public training from a student with 403 and writes nothing", async () => {
    const mine = await createExercise(t, student.token);
    const res = await t.post("/api/trainings", { token: student.token, body: trainingBody([mine.id], { isPublic: true }) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas personal trainers podem criar conteúdo público", success: false });
    expect(await counts()).toEqual({ trainings: 0, lines: 0 });
  });

  it("answers 401 without a token", async () => {
    const res = await t.post("/api/trainings", { invalidRequest: true, body: { name: "x", exercises: [] } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("keeps a weight of two decimals exactly, and reads it back so", async () => {
    const exercise = await createExercise(t, trainer.token);
    const exercises = [
      { exerciseId: exercise.id, sets: 3, weight: 0.01 },
      { exerciseId: exercise.id, sets: 3, weight: 1999.99 },
    ];
    const res = await t.post("/api/trainings", { token: trainer.token, body: trainingBody([], { exercises }) });
    expect(res.status).toBe(201);
    expect(res.body.exercises.map((line: { weight: number }) => line.weight)).toEqual([0.01, 1999.99]);
    expect((await t.get(`/api/trainings/${res.body.id}`, { token: trainer.token })).body).toEqual(res.body);
  });

  describe("validation", () => {
    let exerciseId: number;
    beforeEach(async () => {
      exerciseId = (await createExercise(t, trainer.token)).id;
    });
    const line = (change: Record<string, unknown>) => [
      { exerciseId: 0, sets: 3 },
      { exerciseId: 0, sets: 3, ...change },
    ];

    it.each([
      ["no exercises", { exercises: [] }, "exercises"],
      ["a missing exercise list", { exercises: undefined }, "exercises"],
      ["a blank name", { name: "   " }, "name"],
      ["a 121-character name", { name: "x".repeat(121) }, "name"],
      ["0 sets", { exercises: line({ sets: 0 }) }, "exercises[1].sets"],
      ["51 sets", { exercises: line({ sets: 51 }) }, "exercises[1].sets"],
      ["missing sets", { exercises: line({ sets: undefined }) }, "exercises[1].sets"],
      ["-1 repetitions", { exercises: line({ repetitions: -1 }) }, "exercises[1].repetitions"],
      ["a weight of 2001 kg", { exercises: line({ weight: 2001 }) }, "exercises[1].weight"],
      // The column keeps two decimals: these were once stored silently rounded (0 and 2000 kg).
      ["a weight of 0.001 kg", { exercises: line({ weight: 0.001 }) }, "exercises[1].weight"],
      ["a weight of 1999.999 kg", { exercises: line({ weight: 1999.999 }) }, "exercises[1].weight"],
      ["a rest of 86401 s", { exercises: line({ restSeconds: 86_401 }) }, "exercises[1].restSeconds"],
      ["an order of 1001", { exercises: line({ order: 1001 }) }, "exercises[1].order"],
      ["a fractional sets count", { exercises: line({ sets: 2.5 }) }, "exercises[1].sets"],
      ["a missing exerciseId", { exercises: line({ exerciseId: undefined }) }, "exercises[1].exerciseId"],
    ])("refuses %s with 400 at that JSON path and writes nothing", async (_label, change, field) => {
      const body: Record<string, unknown> = trainingBody([exerciseId], change);
      if (Array.isArray(body.exercises)) {
        body.exercises = body.exercises.map((item: Record<string, unknown>) =>
          "exerciseId" in item && item.exerciseId === 0 ? { ...item, exerciseId } : item,
        );
      }
      const res = await t.post("/api/trainings", { invalidRequest: true, token: trainer.token, body });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe("Validation failed");
      expect(res.body.success).toBe(false);
      expect(fieldsOf(res.body)).toEqual([field]);
      expect(await counts()).toEqual({ trainings: 0, lines: 0 });
    });

    it("reports every problem of the body together", async () => {
      const res = await t.post("/api/trainings", {
        invalidRequest: true,
        token: trainer.token,
        body: {
          name: "",
          exercises: [
            { exerciseId, sets: 0, repetitions: -1 },
            { exerciseId, sets: 3, weight: 2001, restSeconds: 86_401, order: 1001 },
          ],
        },
      });
      expect(res.status).toBe(400);
      expect(fieldsOf(res.body)).toEqual(
        ["exercises[0].repetitions", "exercises[0].sets", "exercises[1].order", "exercises[1].restSeconds", "exercises[1].weight", "name"].sort(),
      );
      for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
    });
  });
});

describe("GET /api/trainings/{id}", () => {
  it("shows a private training to its creator and to an administrator", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const admin = await makeUser(t, { email: "admin@example.com" });
    for (const user of [trainer, admin]) {
      const res = await t.get(`/api/trainings/${training.id}`, { token: user.token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(training);
    }
  });

  it("shows a student's private training to the trainer linked to that student, only while the link is ACTIVE", async () => {
    const exercise = await createExercise(t, student.token);
    const training = await createTraining(t, student.token, [exercise.id]);
    const outsider = await makeTrainer(t);
    expect((await t.get(`/api/trainings/${training.id}`, { token: trainer.token })).status).toBe(403);

    const linkId = await linkTrainerAndStudent(t, trainer, student);
    const res = await t.get(`/api/trainings/${training.id}`, { token: trainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(training);
    const other = await t.get(`/api/trainings/${training.id}`, { token: outsider.token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual(DENIED);

    expect((await t.delete(`/api/personal/students/${linkId}`, { token: trainer.token })).status).toBe(204);
    const after = await t.get(`/api/trainings/${training.id}`, { token: trainer.token });
    expect(after.status).toBe(403);
    expect(after.body).toEqual(DENIED);
  });

  it("shows a trainer's private training to a student whose PENDING or ACTIVE assignment uses it, not after it ends", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const plan = await createPlan(t, trainer.token, [training.id]);
    await linkTrainerAndStudent(t, trainer, student);
    const url = `/api/trainings/${training.id}`;
    expect((await t.get(url, { token: student.token })).body).toEqual(DENIED);

    const pending = await assignPlan(t, trainer.token, plan.id, student.id);
    expect((await t.get(url, { token: student.token })).body).toEqual(training);
    await moveAssignment(t, student.token, pending.id, "accept");
    expect((await t.get(url, { token: student.token })).status).toBe(200);
    await moveAssignment(t, trainer.token, pending.id, "complete");
    expect((await t.get(url, { token: student.token })).status).toBe(403);

    const second = await assignPlan(t, trainer.token, plan.id, student.id);
    expect((await t.get(url, { token: student.token })).status).toBe(200);
    await moveAssignment(t, student.token, second.id, "cancel");
    const res = await t.get(url, { token: student.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(DENIED);
  });

  it("answers 403 to a signed-in stranger and 401 to an anonymous caller for a private training", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const stranger = await t.get(`/api/trainings/${training.id}`, { token: student.token });
    expect(stranger.status).toBe(403);
    expect(stranger.body).toEqual(DENIED);
    const anonymous = await t.get(`/api/trainings/${training.id}`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("shows a public training to anyone, without a token too", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: true });
    const training = await createTraining(t, trainer.token, [exercise.id], { isPublic: true });
    for (const token of [undefined, student.token]) {
      const res = await t.get(`/api/trainings/${training.id}`, { token });
      expect(res.status).toBe(200);
      expect(res.body).toEqual(training);
    }
  });

  it("answers 404 for an unknown training and 400 for a non-numeric id", async () => {
    const res = await t.get("/api/trainings/424242", { token: trainer.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual(TRAINING_NOT_FOUND);
    const bad = await t.get("/api/trainings/abc", { invalidRequest: true, token: trainer.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });
});

describe("PUT /api/trainings/{id}", () => {
  it("lets the creator replace everything, the exercise list included", async () => {
    const [a, b, c] = [
      await createExercise(t, trainer.token, { name: "A" }),
      await createExercise(t, trainer.token, { name: "B" }),
      await createExercise(t, trainer.token, { name: "C" }),
    ];
    const training = await createTraining(t, trainer.token, [a.id, b.id]);
    t.clock.advance(60_000);
    const res = await t.put(`/api/trainings/${training.id}`, {
      token: trainer.token,
      body: {
        name: "Novo nome",
        description: "Nova descrição",
        isPublic: true,
        exercises: [
          { exerciseId: c.id, sets: 2, weight: 10 },
          { exerciseId: a.id, sets: 1 },
        ],
      },
    });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: training.id,
      name: "Novo nome",
      description: "Nova descrição",
      createdBy: trainer.id,
      isPublic: true,
      exercises: [
        { id: expect.any(Number), exerciseId: c.id, exerciseName: "C", sets: 2, repetitions: null, weight: 10, restSeconds: null, order: null, notes: null },
        { id: expect.any(Number), exerciseId: a.id, exerciseName: "A", sets: 1, repetitions: null, weight: null, restSeconds: null, order: null, notes: null },
      ],
      createdAt: training.createdAt,
      updatedAt: t.clock.now().toISOString(),
    });
    const stored = await t.db.select().from(trainingExercises).orderBy(asc(trainingExercises.position));
    expect(stored.map((line) => line.exerciseId)).toEqual([c.id, a.id]);
    expect((await t.get(`/api/trainings/${training.id}`, { token: trainer.token })).body).toEqual(res.body);
  });

  it("answers 403 to anyone but the creator (a linked trainer included) and changes nothing", async () => {
    const exercise = await createExercise(t, student.token);
    const training = await createTraining(t, student.token, [exercise.id]);
    await linkTrainerAndStudent(t, trainer, student);
    const stranger = await makeStudent(t);
    for (const user of [trainer, stranger]) {
      const res = await t.put(`/api/trainings/${training.id}`, { token: user.token, body: trainingBody([exercise.id], { name: "Tomado" }) });
      expect(res.status).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    expect((await t.get(`/api/trainings/${training.id}`, { token: student.token })).body).toEqual(training);
  });

  it("answers 404 for an unknown training, 400 for an invalid body, 403 when a student makes it public", async () => {
    const exercise = await createExercise(t, student.token);
    const missing = await t.put("/api/trainings/424242", { token: student.token, body: trainingBody([exercise.id]) });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(TRAINING_NOT_FOUND);

    const training = await createTraining(t, student.token, [exercise.id]);
    const invalid = await t.put(`/api/trainings/${training.id}`, {
      invalidRequest: true,
      token: student.token,
      body: { name: "ok", exercises: [{ exerciseId: exercise.id, sets: 51 }] },
    });
    expect(invalid.status).toBe(400);
    expect(fieldsOf(invalid.body)).toEqual(["exercises[0].sets"]);

    const published = await t.put(`/api/trainings/${training.id}`, { token: student.token, body: trainingBody([exercise.id], { isPublic: true }) });
    expect(published.status).toBe(403);
    expect(published.body).toEqual({ message: "Apenas personal trainers podem criar conteúdo público", success: false });
    expect((await t.get(`/api/trainings/${training.id}`, { token: student.token })).body).toEqual(training);
  });

  it("answers 404 when a new exercise is not visible to the creator, keeping the old list", async () => {
    const exercise = await createExercise(t, trainer.token);
    const hidden = await createExercise(t, (await makeTrainer(t)).token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const res = await t.put(`/api/trainings/${training.id}`, { token: trainer.token, body: trainingBody([exercise.id, hidden.id]) });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Exercício não encontrado", success: false });
    expect((await t.get(`/api/trainings/${training.id}`, { token: trainer.token })).body).toEqual(training);
  });
});

describe("DELETE /api/trainings/{id}", () => {
  it("deletes the creator's training and its exercise lines with 204", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    const res = await t.delete(`/api/trainings/${training.id}`, { token: trainer.token });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");
    expect(await counts()).toEqual({ trainings: 0, lines: 0 });
    expect((await t.get(`/api/trainings/${training.id}`, { token: trainer.token })).body).toEqual(TRAINING_NOT_FOUND);
  });

  it("answers 409 while a plan uses the training and deletes nothing", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    await createPlan(t, trainer.token, [training.id]);
    const res = await t.delete(`/api/trainings/${training.id}`, { token: trainer.token });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Treino está em uso em planos de treino", success: false });
    expect(await counts()).toEqual({ trainings: 1, lines: 1 });
  });

  it("answers 403 to anyone but the creator, 404 for an unknown training, 400 for a non-numeric id", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: true });
    const training = await createTraining(t, trainer.token, [exercise.id], { isPublic: true });
    const res = await t.delete(`/api/trainings/${training.id}`, { token: student.token });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(DENIED);
    expect(await counts()).toEqual({ trainings: 1, lines: 1 });
    const missing = await t.delete("/api/trainings/424242", { token: trainer.token });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual(TRAINING_NOT_FOUND);
    const malformed = await t.delete("/api/trainings/abc", { invalidRequest: true, token: trainer.token });
    expect(malformed).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: id", success: false } });
    expect(await counts()).toEqual({ trainings: 1, lines: 1 });
  });
});

describe("GET /api/trainings", () => {
  it("lists the trainings visible to the caller as items with exerciseCount and no exercises", async () => {
    const other = await makeTrainer(t);
    const [e1, e2] = [await createExercise(t, trainer.token, { isPublic: true }), await createExercise(t, trainer.token, { isPublic: true })];
    const own = await createTraining(t, trainer.token, [e1.id, e2.id, e1.id], { name: "Próprio" });
    t.clock.advance(1000);
    const open = await createTraining(t, other.token, [e1.id], { name: "Público alheio", isPublic: true });
    t.clock.advance(1000);
    await createTraining(t, other.token, [e2.id], { name: "Privado alheio" });
    t.clock.advance(1000);
    await linkTrainerAndStudent(t, trainer, student);
    const ofStudent = await createTraining(t, student.token, [e2.id], { name: "Do aluno" });

    const res = await t.get("/api/trainings", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(Object.keys(res.body).sort()).toEqual(PAGE_KEYS);
    // Newest first by default.
    expect(res.body.content.map((item: { name: string }) => item.name)).toEqual(["Do aluno", "Público alheio", "Próprio"]);
    expect(res.body.totalElements).toBe(3);
    for (const item of res.body.content) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    expect(res.body.content[2]).toEqual({
      id: own.id,
      name: "Próprio",
      description: own.description,
      createdBy: trainer.id,
      isPublic: false,
      exerciseCount: 3,
      createdAt: own.createdAt,
      updatedAt: own.updatedAt,
    });
    expect(res.body.content[1]).toMatchObject({ id: open.id, exerciseCount: 1, isPublic: true });
    expect(res.body.content[0]).toMatchObject({ id: ofStudent.id, createdBy: student.id, exerciseCount: 1 });

    // The student sees its own and the public one; once a plan holding the trainer's training is assigned, that one too.
    const mine = await t.get("/api/trainings?sort=name,asc", { token: student.token });
    expect(mine.body.content.map((item: { name: string }) => item.name)).toEqual(["Do aluno", "Público alheio"]);
    const plan = await createPlan(t, trainer.token, [own.id]);
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
    const assigned = await t.get("/api/trainings?sort=name,asc", { token: student.token });
    expect(assigned.body.content.map((item: { name: string }) => item.name)).toEqual(["Do aluno", "Próprio", "Público alheio"]);
    await moveAssignment(t, trainer.token, assignment.id, "cancel");
    const canceled = await t.get("/api/trainings?sort=name,asc", { token: student.token });
    expect(canceled.body.content.map((item: { name: string }) => item.name)).toEqual(["Do aluno", "Público alheio"]);
  });

  it("filters by partial name, createdBy and isPublic, and refuses a bad filter with 400", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: true });
    await createTraining(t, trainer.token, [exercise.id], { name: "Peito e tríceps" });
    await createTraining(t, trainer.token, [exercise.id], { name: "Costas", isPublic: true });
    const other = await makeTrainer(t);
    await createTraining(t, other.token, [exercise.id], { name: "Peito 100%", isPublic: true });
    const names = async (query: string) =>
      (await t.get(`/api/trainings?sort=name,asc&${query}`, { token: trainer.token })).body.content.map((item: { name: string }) => item.name);

    expect(await names("name=PEITO")).toEqual(["Peito 100%", "Peito e tríceps"]);
    expect(await names("name=100%25")).toEqual(["Peito 100%"]);
    expect(await names(`createdBy=${other.id}`)).toEqual(["Peito 100%"]);
    expect(await names("isPublic=true")).toEqual(["Costas", "Peito 100%"]);
    expect(await names(`isPublic=false&createdBy=${trainer.id}`)).toEqual(["Peito e tríceps"]);

    for (const [query, param] of [
      ["isPublic=talvez", "isPublic"],
      ["createdBy=abc", "createdBy"],
      ["page=-1", "page"],
      ["size=0", "size"],
      ["sort=password,asc", "sort"],
    ]) {
      const res = await t.get(`/api/trainings?${query}`, { invalidRequest: true, token: trainer.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
    }
  });

  it("pages through more trainings than a page holds", async () => {
    const exercise = await createExercise(t, trainer.token);
    for (let i = 0; i < 25; i += 1) {
      await createTraining(t, trainer.token, [exercise.id], { name: `Treino ${String(i).padStart(2, "0")}` });
    }
    const first = await t.get("/api/trainings?sort=name,asc", { token: trainer.token });
    expect(first.body).toMatchObject({ totalElements: 25, totalPages: 2, number: 0, size: 20, numberOfElements: 20, first: true, last: false, empty: false });
    expect(first.body.content[0].name).toBe("Treino 00");
    const second = await t.get("/api/trainings?sort=name,asc&page=1", { token: trainer.token });
    expect(second.body).toMatchObject({ totalElements: 25, number: 1, numberOfElements: 5, first: false, last: true });
    expect(second.body.content.map((item: { name: string }) => item.name)).toEqual(["Treino 20", "Treino 21", "Treino 22", "Treino 23", "Treino 24"]);
    const small = await t.get("/api/trainings?sort=name,desc&size=10&page=2", { token: trainer.token });
    expect(small.body.content.map((item: { name: string }) => item.name)).toEqual(["Treino 04", "Treino 03", "Treino 02", "Treino 01", "Treino 00"]);
    expect(small.body.pageable).toEqual({
      sort: { sorted: true, unsorted: false, empty: false },
      pageNumber: 2,
      pageSize: 10,
      offset: 20,
      paged: true,
      unpaged: false,
    });
    const clamped = await t.get("/api/trainings?size=500", { token: trainer.token });
    expect(clamped.body).toMatchObject({ size: 100, numberOfElements: 25, totalPages: 1 });
    const beyond = await t.get("/api/trainings?page=5", { token: trainer.token });
    expect(beyond.body).toMatchObject({ content: [], empty: true, numberOfElements: 0, totalElements: 25 });
  });

  it("answers 401 without a token", async () => {
    const res = await t.get("/api/trainings");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

describe("GET /api/trainings/my-trainings", () => {
  it("lists only the trainings the caller created, for a trainer and a student alike", async () => {
    const exercise = await createExercise(t, trainer.token, { isPublic: true });
    await createTraining(t, trainer.token, [exercise.id], { name: "Do personal" });
    await createTraining(t, trainer.token, [exercise.id], { name: "Público do personal", isPublic: true });
    await createTraining(t, student.token, [exercise.id], { name: "Do aluno" });

    const ofTrainer = await t.get("/api/trainings/my-trainings?sort=name,asc", { token: trainer.token });
    expect(ofTrainer.status).toBe(200);
    expect(ofTrainer.body.content.map((item: { name: string }) => item.name)).toEqual(["Do personal", "Público do personal"]);
    for (const item of ofTrainer.body.content) expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);

    const ofStudent = await t.get("/api/trainings/my-trainings", { token: student.token });
    expect(ofStudent.body).toMatchObject({ totalElements: 1, content: [{ name: "Do aluno", createdBy: student.id, exerciseCount: 1 }] });
    expect((await t.get("/api/trainings/my-trainings")).status).toBe(401);
  });

  it("pages the caller's trainings", async () => {
    const exercise = await createExercise(t, trainer.token);
    for (let i = 0; i < 3; i += 1) await createTraining(t, trainer.token, [exercise.id]);
    await createTraining(t, student.token, [(await createExercise(t, student.token)).id]);
    const res = await t.get("/api/trainings/my-trainings?size=2&page=1", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ totalElements: 3, totalPages: 2, numberOfElements: 1, last: true });
    expect(res.body.content).toHaveLength(1);
    expect(res.body.content[0].createdBy).toBe(trainer.id);
  });

  it.each([
    ["page=-1", "page"],
    ["size=abc", "size"],
  ])("refuses %s with 400 naming the parameter", async (query, param) => {
    const res = await t.get(`/api/trainings/my-trainings?${query}`, { invalidRequest: true, token: trainer.token });
    expect(res).toMatchObject({ status: 400, body: { message: `Parâmetro inválido: ${param}`, success: false } });
  });
});

// Keeps the module's record date shape honest in every answer above.
describe("timestamps", () => {
  it("are ISO 8601 UTC with milliseconds", async () => {
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    expect(training.createdAt).toMatch(ISO);
    expect(training.updatedAt).toMatch(ISO);
  });
});
