import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { ACCESS_DENIED, EXERCISE_KEYS, LIST_ITEM_KEYS, NOT_FOUND, UNAUTHORIZED, pngPart } from "./support.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });

const CATEGORIES = ["PEITO", "COSTAS", "OMBRO", "BICEPS", "TRICEPS", "PERNAS", "ABDOMEN", "GLUTEOS", "CARDIO", "OUTRO"];

const getOne = (user: MadeUser | null, id: number | string) => t.get(`/api/exercises/${id}`, { token: user?.token });
const list = (user: MadeUser | null, query = "") => t.get(`/api/exercises${query}`, { token: user?.token });
const namesOf = (page: { content: Array<{ name: string }> }) => page.content.map((item) => item.name);
const idsOf = (page: { content: Array<{ id: number }> }) => page.content.map((item) => item.id).sort((a, b) => a - b);
const makeAdmin = () => makeTrainer(t, { email: "boss@example.com" });

/** A trainer's private exercise given to `student` through training → plan → PENDING assignment. */
async function assignedExercise(trainer: MadeUser, student: MadeUser) {
  await linkTrainerAndStudent(t, trainer, student);
  const exercise = await createExercise(t, trainer.token, { name: "Agachamento búlgaro", category: "PERNAS" });
  const training = await createTraining(t, trainer.token, [exercise.id]);
  const plan = await createPlan(t, trainer.token, [training.id]);
  const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  expect(assignment.status).toBe("PENDING");
  return { exercise, assignment };
}

describe("GET /api/exercises/categories", () => {
  it("answers the ten categories in order without a token", async () => {
    const res = await t.get("/api/exercises/categories");
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CATEGORIES);
  });

  it("answers the same list to a signed-in caller", async () => {
    const student = await makeStudent(t);
    const res = await t.get("/api/exercises/categories", { token: student.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(CATEGORIES);
  });
});

describe("GET /api/exercises/{id}", () => {
  it("answers a public exercise without a token with the full Exercise", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(
      t,
      trainer.token,
      { isPublic: true, videoUrl: "https://v.example.com/a", instructions: ["Um"], muscleGroups: ["OMBRO"] },
      pngPart(),
    );
    const res = await getOne(null, created.id);
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created);
    expect(Object.keys(res.body).sort()).toEqual(EXERCISE_KEYS);
  });

  it("answers a public exercise to any signed-in user", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, { isPublic: true });
    for (const user of [await makeStudent(t), await makeTrainer(t)]) {
      const res = await getOne(user, created.id);
      expect(res.status).toBe(200);
      expect(res.body).toEqual(created);
    }
  });

  it("answers 401 for a private exercise without a token", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token);
    const res = await getOne(null, created.id);
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("answers 401 to an invalid token, even for a public exercise", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(t, trainer.token, { isPublic: true });
    const res = await t.get(`/api/exercises/${created.id}`, { token: "not-a-jwt" });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });

  it("shows a private exercise to its creator and to an administrator", async () => {
    const student = await makeStudent(t);
    const created = await createExercise(t, student.token);
    const own = await getOne(student, created.id);
    expect(own.status).toBe(200);
    expect(own.body).toEqual(created);
    const admin = await makeAdmin();
    const asAdmin = await getOne(admin, created.id);
    expect(asAdmin.status).toBe(200);
    expect(asAdmin.body).toEqual(created);
  });

  it("shows a student's private exercise to the trainer ACTIVE-linked to the student, and to no other trainer", async () => {
    const trainer = await makeTrainer(t);
    const otherTrainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const created = await createExercise(t, student.token);
    const linked = await getOne(trainer, created.id);
    expect(linked.status).toBe(200);
    expect(linked.body).toEqual(created);
    const other = await getOne(otherTrainer, created.id);
    expect(other.status).toBe(403);
    expect(other.body).toEqual(ACCESS_DENIED);
  });

  it("does not show a trainer's private exercise to a linked student without an assignment", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const created = await createExercise(t, trainer.token);
    const res = await getOne(student, created.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
  });

  it("hides the student's exercise from the trainer once the link is removed", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    const created = await createExercise(t, student.token);
    expect((await getOne(trainer, created.id)).status).toBe(200);
    expect((await t.delete(`/api/personal/students/${linkId}`, { token: trainer.token })).status).toBe(204);
    const res = await getOne(trainer, created.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
  });

  it("hides the student's exercise from the trainer when the student ends the link", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, student);
    const created = await createExercise(t, student.token);
    expect((await t.delete(`/api/students/personals/${linkId}`, { token: student.token })).status).toBe(204);
    expect((await getOne(trainer, created.id)).status).toBe(403);
  });

  it("shows a trainer's private exercise to a student whose PENDING, then ACTIVE, assignment uses it", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const { exercise, assignment } = await assignedExercise(trainer, student);
    const pending = await getOne(student, exercise.id);
    expect(pending.status).toBe(200);
    expect(pending.body).toEqual(exercise);

    const accepted = await t.post(`/api/training-plans/assignments/${assignment.id}/accept`, { token: student.token });
    expect(accepted.body.status).toBe("ACTIVE");
    expect((await getOne(student, exercise.id)).status).toBe(200);
  });

  it("hides the exercise from the student once the assignment is CANCELED", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const { exercise, assignment } = await assignedExercise(trainer, student);
    expect((await getOne(student, exercise.id)).status).toBe(200);
    const canceled = await t.post(`/api/training-plans/assignments/${assignment.id}/cancel`, { token: trainer.token });
    expect(canceled.status).toBe(200);
    expect(canceled.body.status).toBe("CANCELED");
    const res = await getOne(student, exercise.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
  });

  it("hides the exercise from the student once the assignment is COMPLETED", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const { exercise, assignment } = await assignedExercise(trainer, student);
    await t.post(`/api/training-plans/assignments/${assignment.id}/accept`, { token: student.token });
    const completed = await t.post(`/api/training-plans/assignments/${assignment.id}/complete`, { token: trainer.token });
    expect(completed.body.status).toBe("COMPLETED");
    expect((await getOne(student, exercise.id)).status).toBe(403);
  });

  it("does not show the assigned exercise to another student", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const { exercise } = await assignedExercise(trainer, student);
    const res = await getOne(await makeStudent(t), exercise.id);
    expect(res.status).toBe(403);
    expect(res.body).toEqual(ACCESS_DENIED);
  });

  it("answers 403 Acesso negado to strangers: another trainer, an unlinked student", async () => {
    const owner = await makeTrainer(t);
    const created = await createExercise(t, owner.token);
    for (const stranger of [await makeTrainer(t), await makeStudent(t)]) {
      const res = await getOne(stranger, created.id);
      expect(res.status).toBe(403);
      expect(res.body).toEqual(ACCESS_DENIED);
    }
  });

  it("answers 404 Exercício não encontrado for an unknown id, with or without a token", async () => {
    const trainer = await makeTrainer(t);
    for (const user of [trainer, null]) {
      const res = await getOne(user, 999_999);
      expect(res.status).toBe(404);
      expect(res.body).toEqual(NOT_FOUND);
    }
  });

  it.each(["abc", "0", "1.5", "99999999999"])("answers 400 Parâmetro inválido: id for the id %s", async (id) => {
    const res = await t.withInvalidRequests(() => getOne(null, id));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });
});

describe("GET /api/exercises", () => {
  /** A trainer linked to a student, each with a private exercise, a public one by the trainer, and a stranger's private one. */
  async function library() {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const stranger = await makeTrainer(t);
    await linkTrainerAndStudent(t, trainer, student);
    const publicOne = await createExercise(t, trainer.token, { name: "Público", isPublic: true });
    const trainerPrivate = await createExercise(t, trainer.token, { name: "Privado do personal" });
    const studentPrivate = await createExercise(t, student.token, { name: "Privado do aluno" });
    const strangerPrivate = await createExercise(t, stranger.token, { name: "Privado de outro" });
    const strangerPublic = await createExercise(t, stranger.token, { name: "Público de outro", isPublic: true });
    return { trainer, student, stranger, publicOne, trainerPrivate, studentPrivate, strangerPrivate, strangerPublic };
  }

  it("lists only public exercises without a token", async () => {
    const lib = await library();
    const res = await list(null);
    expect(res.status).toBe(200);
    expect(idsOf(res.body)).toEqual([lib.publicOne.id, lib.strangerPublic.id]);
    expect(res.body.totalElements).toBe(2);
  });

  it("lists public exercises plus those visible to the caller with a token", async () => {
    const lib = await library();
    const asTrainer = await list(lib.trainer);
    expect(idsOf(asTrainer.body)).toEqual([lib.publicOne.id, lib.trainerPrivate.id, lib.studentPrivate.id, lib.strangerPublic.id]);
    const asStudent = await list(lib.student);
    expect(idsOf(asStudent.body)).toEqual([lib.publicOne.id, lib.studentPrivate.id, lib.strangerPublic.id]);
    const asStranger = await list(lib.stranger);
    expect(idsOf(asStranger.body)).toEqual([lib.publicOne.id, lib.strangerPrivate.id, lib.strangerPublic.id]);
    expect(asStranger.body.totalElements).toBe(3);
  });

  it("lists everything to an administrator", async () => {
    const lib = await library();
    const res = await list(await makeAdmin());
    expect(res.body.totalElements).toBe(5);
    expect(idsOf(res.body)).toContain(lib.strangerPrivate.id);
  });

  it("lists an exercise of a PENDING assignment to the student, and no longer once it is CANCELED", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const { exercise, assignment } = await assignedExercise(trainer, student);
    expect(idsOf((await list(student)).body)).toEqual([exercise.id]);
    await t.post(`/api/training-plans/assignments/${assignment.id}/cancel`, { token: student.token });
    expect(idsOf((await list(student)).body)).toEqual([]);
  });

  it("gives list items without videoUrl, instructions and muscleGroups", async () => {
    const trainer = await makeTrainer(t);
    const created = await createExercise(
      t,
      trainer.token,
      { isPublic: true, difficulty: "AVANCADO", equipment: "CABO", videoUrl: "https://v.example.com/x", instructions: ["a"], muscleGroups: ["OMBRO"] },
      pngPart(),
    );
    const res = await list(null);
    expect(res.body.content).toHaveLength(1);
    const [item] = res.body.content;
    expect(Object.keys(item).sort()).toEqual(LIST_ITEM_KEYS);
    const { videoUrl: _v, instructions: _i, muscleGroups: _m, ...expected } = created;
    expect(item).toEqual(expected);
  });

  it("answers the page object of api-spec.md with the defaults page 0 and size 20", async () => {
    const trainer = await makeTrainer(t);
    await createExercise(t, trainer.token, { isPublic: true });
    const res = await list(null);
    expect(res.body).toEqual({
      content: [expect.any(Object)],
      pageable: { sort: { sorted: true, unsorted: false, empty: false }, pageNumber: 0, pageSize: 20, offset: 0, paged: true, unpaged: false },
      totalPages: 1,
      totalElements: 1,
      last: true,
      first: true,
      sort: { sorted: true, unsorted: false, empty: false },
      number: 0,
      numberOfElements: 1,
      size: 20,
      empty: false,
    });
  });

  describe("filters", () => {
    async function variety() {
      const trainer = await makeTrainer(t);
      const other = await makeTrainer(t);
      const made = {
        supino: await createExercise(t, trainer.token, { name: "Supino reto", category: "PEITO", isPublic: true, difficulty: "INICIANTE", equipment: "BARRA" }),
        inclinado: await createExercise(t, trainer.token, {
          name: "SUPINO inclinado",
          category: "PEITO",
          isPublic: false,
          difficulty: "AVANCADO",
          equipment: "HALTERES",
        }),
        remada: await createExercise(t, trainer.token, {
          name: "Remada baixa",
          category: "COSTAS",
          isPublic: true,
          difficulty: "INTERMEDIARIO",
          equipment: "CABO",
        }),
        percent: await createExercise(t, other.token, { name: "Carga 100% máxima", category: "PERNAS", isPublic: true }),
        underscore: await createExercise(t, other.token, { name: "remada_unilateral", category: "COSTAS", isPublic: true }),
        plain: await createExercise(t, other.token, { name: "Remadaxunilateral", category: "COSTAS", isPublic: true, equipment: "HALTERES" }),
      };
      return { trainer, other, made };
    }

    it("filters by category", async () => {
      const { trainer, made } = await variety();
      const res = await list(trainer, "?category=PEITO");
      expect(res.status).toBe(200);
      expect(idsOf(res.body)).toEqual([made.supino.id, made.inclinado.id]);
    });

    it("filters by a partial name, ignoring case", async () => {
      const { trainer, made } = await variety();
      expect(idsOf((await list(trainer, "?name=supino")).body)).toEqual([made.supino.id, made.inclinado.id]);
      expect(idsOf((await list(trainer, "?name=INCLIN")).body)).toEqual([made.inclinado.id]);
      expect(idsOf((await list(trainer, "?name=nada-assim")).body)).toEqual([]);
    });

    it("takes % and _ in the name filter literally", async () => {
      const { trainer, made } = await variety();
      expect(idsOf((await list(trainer, `?name=${encodeURIComponent("%")}`)).body)).toEqual([made.percent.id]);
      expect(idsOf((await list(trainer, "?name=remada_")).body)).toEqual([made.underscore.id]);
      expect(idsOf((await list(trainer, "?name=_")).body)).toEqual([made.underscore.id]);
      expect(idsOf((await list(trainer, `?name=${encodeURIComponent("\\")}`)).body)).toEqual([]);
    });

    it("filters by creator, visibility flag, difficulty and equipment, and combines them", async () => {
      const { trainer, other, made } = await variety();
      expect(idsOf((await list(trainer, `?createdBy=${other.id}`)).body)).toEqual([made.percent.id, made.underscore.id, made.plain.id]);
      expect(idsOf((await list(trainer, "?isPublic=false")).body)).toEqual([made.inclinado.id]);
      expect(idsOf((await list(trainer, "?isPublic=true")).body)).toHaveLength(5);
      expect(idsOf((await list(trainer, "?difficulty=INTERMEDIARIO")).body)).toEqual([made.remada.id]);
      expect(idsOf((await list(trainer, "?equipment=HALTERES")).body)).toEqual([made.inclinado.id, made.plain.id]);
      expect(idsOf((await list(trainer, `?category=COSTAS&createdBy=${other.id}&equipment=HALTERES`)).body)).toEqual([made.plain.id]);
    });

    it("does not reveal private exercises through the filters", async () => {
      const { other, made } = await variety();
      expect(idsOf((await list(null, "?isPublic=false")).body)).toEqual([]);
      expect(idsOf((await list(other, "?name=supino")).body)).toEqual([made.supino.id]);
    });

    it.each([
      ["category", "?category=PERNA"],
      ["category", "?category=peito"],
      ["isPublic", "?isPublic=yes"],
      ["createdBy", "?createdBy=abc"],
      ["difficulty", "?difficulty=FACIL"],
      ["equipment", "?equipment=KETTLEBELL"],
    ])("answers 400 Parâmetro inválido: %s for %s", async (param, query) => {
      const res = await t.withInvalidRequests(() => list(null, query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
    });
  });

  describe("paging and sorting", () => {
    async function manyPublic(count: number) {
      const trainer = await makeTrainer(t);
      const names: string[] = [];
      for (let i = 0; i < count; i += 1) {
        const name = `Exercício ${String(i).padStart(2, "0")}`;
        names.push(name);
        await createExercise(t, trainer.token, { name, isPublic: true, category: i % 2 === 0 ? "PEITO" : "COSTAS" });
      }
      return names;
    }

    it("pages 25 exercises by 10, sorted by name by default", async () => {
      const names = await manyPublic(25);
      const first = await list(null, "?size=10");
      expect(first.body).toMatchObject({ totalElements: 25, totalPages: 3, number: 0, size: 10, numberOfElements: 10, first: true, last: false, empty: false });
      expect(namesOf(first.body)).toEqual(names.slice(0, 10));
      const middle = await list(null, "?size=10&page=1");
      expect(middle.body).toMatchObject({ number: 1, numberOfElements: 10, first: false, last: false, pageable: { pageNumber: 1, pageSize: 10, offset: 10 } });
      expect(namesOf(middle.body)).toEqual(names.slice(10, 20));
      const last = await list(null, "?size=10&page=2");
      expect(last.body).toMatchObject({ number: 2, numberOfElements: 5, first: false, last: true });
      expect(namesOf(last.body)).toEqual(names.slice(20));
      const beyond = await list(null, "?size=10&page=3");
      expect(beyond.body).toMatchObject({ content: [], numberOfElements: 0, empty: true, totalElements: 25 });
    });

    it("clamps size=500 to 100", async () => {
      await manyPublic(3);
      const res = await list(null, "?size=500");
      expect(res.status).toBe(200);
      expect(res.body.size).toBe(100);
      expect(res.body.pageable.pageSize).toBe(100);
      expect(res.body.numberOfElements).toBe(3);
    });

    it("sorts by name descending, and by repeated sort parameters in order", async () => {
      const names = await manyPublic(6);
      const desc = await list(null, "?sort=name,desc");
      expect(namesOf(desc.body)).toEqual([...names].reverse());
      const byCategoryThenName = await list(null, "?sort=category,asc&sort=name,desc");
      // COSTAS (odd indexes) before PEITO (even indexes), each group by name descending.
      expect(namesOf(byCategoryThenName.body)).toEqual([names[5], names[3], names[1], names[4], names[2], names[0]]);
    });

    it.each([
      ["page", "?page=-1"],
      ["page", "?page=abc"],
      ["size", "?size=0"],
      ["size", "?size=-5"],
      ["sort", "?sort=password,asc"],
      ["sort", "?sort=name,sideways"],
      ["sort", "?sort=name,asc&sort=nope"],
    ])("answers 400 Parâmetro inválido: %s for %s", async (param, query) => {
      const res = await t.withInvalidRequests(() => list(null, query));
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
    });
  });
});

describe("GET /api/exercises/my-exercises", () => {
  it("lists only the caller's exercises, public and private, paged", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    await linkTrainerAndStudent(t, trainer, student);
    const mine = [
      await createExercise(t, trainer.token, { name: "B meu público", isPublic: true }),
      await createExercise(t, trainer.token, { name: "A meu privado" }),
    ];
    await createExercise(t, student.token, { name: "Do aluno" });
    await createExercise(t, (await makeTrainer(t)).token, { name: "De outro", isPublic: true });

    const res = await t.get("/api/exercises/my-exercises", { token: trainer.token });
    expect(res.status).toBe(200);
    expect(namesOf(res.body)).toEqual(["A meu privado", "B meu público"]);
    expect(res.body).toMatchObject({ totalElements: 2, number: 0, size: 20 });
    expect(Object.keys(res.body.content[0]).sort()).toEqual(LIST_ITEM_KEYS);
    expect(idsOf(res.body)).toEqual(mine.map((e) => e.id).sort((a, b) => a - b));

    const paged = await t.get("/api/exercises/my-exercises?size=1&page=1&sort=name,asc", { token: trainer.token });
    expect(namesOf(paged.body)).toEqual(["B meu público"]);
    expect(paged.body).toMatchObject({ totalPages: 2, last: true });
  });

  it("answers 400 for a bad paging parameter", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.get("/api/exercises/my-exercises?sort=unknown", { invalidRequest: true, token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: sort", success: false });
  });

  it("answers 401 without a token", async () => {
    const res = await t.get("/api/exercises/my-exercises");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(UNAUTHORIZED);
  });
});
