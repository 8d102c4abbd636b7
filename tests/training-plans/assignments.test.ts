import { eq, sql } from "drizzle-orm";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { trainingPlanRepository } from "../../src/modules/training-plans/training-plan.repository.js";
import { planAssignments, trainingPlans } from "../../src/tables/training-plan.table.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser, relogin } from "../factories/users.js";

const t = useTestApp({ ADMIN_EMAILS: "admin@example.com", FREE_TRAINER_MAX_STUDENTS: "10" });

const HOUR_MS = 60 * 60 * 1000;
const DENIED = { message: "Acesso negado", success: false };
const INVALID_TRANSITION = { message: "Transição de status inválida", success: false };
const STUDENT_NOT_FOUND = { message: "Aluno não encontrado", success: false };
const ASSIGNMENT_KEYS = [
  "assignedAt",
  "endDate",
  "id",
  "notes",
  "personalId",
  "personalName",
  "planId",
  "planName",
  "startDate",
  "status",
  "studentId",
  "studentName",
];
/** The test day: assignments start here unless told otherwise. */
const TODAY = new Date("2026-12-01T10:00:00.000Z");

async function assignmentCount() {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from plan_assignments`));
  return row.n;
}

async function statusOf(id: number) {
  const [row] = await t.db.select({ status: planAssignments.status }).from(planAssignments).where(eq(planAssignments.id, id));
  return row.status;
}

const idsOf = (body: { content: { id: number }[] }) => body.content.map((item) => item.id);

let trainer: MadeUser;
let student: MadeUser;
/** A private 4-week plan of `trainer`, and one without a duration. */
let plan: Record<string, any>;
let openEnded: Record<string, any>;

beforeEach(async () => {
  t.clock.set(TODAY);
  trainer = await makeTrainer(t, { name: "Bruno Personal" });
  student = await makeStudent(t, { name: "Ana Aluna" });
  const exercise = await createExercise(t, trainer.token);
  const training = await createTraining(t, trainer.token, [exercise.id]);
  plan = await createPlan(t, trainer.token, [training.id], { name: "Hipertrofia", duration: 4 });
  openEnded = await createPlan(t, trainer.token, [training.id], { name: "Livre" });
  await linkTrainerAndStudent(t, trainer, student);
});

describe("POST /api/training-plans/{id}/assign", () => {
  it("assigns a plan to a linked student: 201 PENDING, from today, ending after the plan's weeks", async () => {
    const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: student.id, notes: "  Foco na técnica  " } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      planId: plan.id,
      planName: "Hipertrofia",
      studentId: student.id,
      studentName: "Ana Aluna",
      personalId: trainer.id,
      personalName: "Bruno Personal",
      assignedAt: TODAY.toISOString(),
      startDate: "2026-12-01",
      endDate: "2026-12-28",
      status: "PENDING",
      notes: "Foco na técnica",
    });
    const [row] = await t.db.select().from(planAssignments).where(eq(planAssignments.id, res.body.id));
    expect(row).toMatchObject({
      planId: plan.id,
      studentId: student.id,
      personalId: trainer.id,
      status: "PENDING",
      startDate: "2026-12-01",
      endDate: "2026-12-28",
    });
  });

  it("starts on the given date; a 1-week plan ends six days later; no duration means no endDate", async () => {
    const oneWeek = await createPlan(
      t,
      trainer.token,
      plan.trainings.map((item: { trainingId: number }) => item.trainingId),
      { duration: 1 },
    );
    const given = await assignPlan(t, trainer.token, oneWeek.id, student.id, { startDate: "2027-02-25" });
    expect(given).toMatchObject({ startDate: "2027-02-25", endDate: "2027-03-03", notes: null });
    const long = await assignPlan(t, trainer.token, plan.id, student.id, { startDate: "2028-02-01" });
    expect(long).toMatchObject({ startDate: "2028-02-01", endDate: "2028-02-28" });
    const free = await assignPlan(t, trainer.token, openEnded.id, student.id);
    expect(free).toMatchObject({ startDate: "2026-12-01", endDate: null, status: "PENDING" });
  });

  it("takes today as the UTC day of the service clock", async () => {
    t.clock.set(new Date("2026-12-31T23:59:59.000Z"));
    await relogin(t, trainer);
    const late = await assignPlan(t, trainer.token, plan.id, student.id);
    expect(late).toMatchObject({ startDate: "2026-12-31", endDate: "2027-01-27" });
  });

  it("refuses a student with 403 and an anonymous caller with 401", async () => {
    const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: student.token, body: { studentId: student.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Apenas personal trainers podem criar planos de treino", success: false });
    const anonymous = await t.post(`/api/training-plans/${plan.id}/assign`, { body: { studentId: student.id } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect(await assignmentCount()).toBe(0);
  });

  it("answers 404 for an unknown plan and 403 for another trainer's private plan", async () => {
    const missing = await t.post("/api/training-plans/424242/assign", { token: trainer.token, body: { studentId: student.id } });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Plano de treino não encontrado", success: false });
    const other = await makeTrainer(t);
    await linkTrainerAndStudent(t, other, student);
    const foreign = await t.post(`/api/training-plans/${plan.id}/assign`, { token: other.token, body: { studentId: student.id } });
    expect(foreign.status).toBe(403);
    expect(foreign.body).toEqual(DENIED);
    expect(await assignmentCount()).toBe(0);
  });

  it("answers 404 Aluno não encontrado for an unknown user or one who is not a student, before the link check", async () => {
    const otherTrainer = await makeTrainer(t);
    for (const studentId of [999_999, otherTrainer.id, trainer.id]) {
      const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual(STUDENT_NOT_FOUND);
    }
    expect(await assignmentCount()).toBe(0);
  });

  it("answers 403 for a student not linked to the trainer, or no longer linked", async () => {
    const stranger = await makeStudent(t);
    const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: stranger.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Aluno não vinculado a este personal", success: false });

    const former = await makeStudent(t);
    const linkId = await linkTrainerAndStudent(t, trainer, former);
    expect((await t.delete(`/api/students/personals/${linkId}`, { token: former.token })).status).toBe(204);
    const unlinked = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: former.id } });
    expect(unlinked.status).toBe(403);
    expect(unlinked.body).toEqual({ message: "Aluno não vinculado a este personal", success: false });
    expect(await assignmentCount()).toBe(0);
  });

  it.each([
    ["a missing studentId", { studentId: undefined }, "studentId"],
    ["a studentId as text", { studentId: "7" }, "studentId"],
    ["an impossible startDate", { startDate: "2026-02-30" }, "startDate"],
    ["a startDate in year 0000, which PostgreSQL has not", { startDate: "0000-01-01" }, "startDate"],
    ["a startDate past 2999-12-31, the last day the service takes", { startDate: "9999-12-31" }, "startDate"],
    ["a startDate with a time", { startDate: "2026-12-01T00:00:00Z" }, "startDate"],
    ["notes over 2000 characters", { notes: "x".repeat(2001) }, "notes"],
  ])("refuses %s with 400 on that field", async (_label, change, field) => {
    // JSON drops an undefined studentId: the field is then missing.
    const body = { studentId: student.id, ...change };
    const res = await t.post(`/api/training-plans/${plan.id}/assign`, { invalidRequest: true, token: trainer.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.errors.map((error: { field: string }) => error.field)).toEqual([field]);
    expect(await assignmentCount()).toBe(0);
  });

  it("takes a null startDate as today, and 2999-12-31 (the last day the service takes) for a plan without a duration", async () => {
    const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: student.id, startDate: null } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ startDate: "2026-12-01", endDate: "2026-12-28" });
    const last = await assignPlan(t, trainer.token, openEnded.id, student.id, { startDate: "2999-12-31" });
    expect(last).toMatchObject({ startDate: "2999-12-31", endDate: null });
    expect(await assignmentCount()).toBe(2);
  });

  it("answers 404 when the plan is deleted between its checks and the write, writing nothing", async () => {
    const lock = trainingPlanRepository.lock;
    // The plan row is gone when the assignment's transaction locks it (a DELETE committed in between).
    const spy = vi.spyOn(trainingPlanRepository, "lock").mockImplementationOnce(async (db, id) => {
      await db.delete(trainingPlans).where(eq(trainingPlans.id, id));
      return lock(db, id);
    });
    try {
      const res = await t.post(`/api/training-plans/${plan.id}/assign`, { token: trainer.token, body: { studentId: student.id } });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ message: "Plano de treino não encontrado", success: false });
      expect(spy).toHaveBeenCalledTimes(1);
    } finally {
      spy.mockRestore();
    }
    expect(await assignmentCount()).toBe(0);
  });
});

describe("assignment transitions", () => {
  let assignment: Record<string, any>;
  beforeEach(async () => {
    assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  });
  const post = (action: string, user: MadeUser, id = assignment.id) => t.post(`/api/training-plans/assignments/${id}/${action}`, { token: user.token });

  it("lets the student accept a PENDING assignment: 200 ACTIVE with the assignment", async () => {
    t.clock.advance(HOUR_MS);
    const res = await post("accept", student);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...assignment, status: "ACTIVE" });
    expect(await statusOf(assignment.id)).toBe("ACTIVE");
  });

  it("lets the trainer complete an ACTIVE assignment: 200 COMPLETED", async () => {
    await moveAssignment(t, student.token, assignment.id, "accept");
    const res = await post("complete", trainer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...assignment, status: "COMPLETED" });
    expect(await statusOf(assignment.id)).toBe("COMPLETED");
  });

  it("lets the trainer cancel a PENDING assignment and the student cancel an ACTIVE one", async () => {
    const res = await post("cancel", trainer);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...assignment, status: "CANCELED" });

    const second = await assignPlan(t, trainer.token, plan.id, student.id);
    await moveAssignment(t, student.token, second.id, "accept");
    const byStudent = await post("cancel", student, second.id);
    expect(byStudent.status).toBe(200);
    expect(byStudent.body).toEqual({ ...second, status: "CANCELED" });
    expect(await statusOf(second.id)).toBe("CANCELED");
  });

  it("answers 403 Acesso negado to the wrong party, whatever the state, and changes nothing", async () => {
    const stranger = await makeStudent(t);
    const otherTrainer = await makeTrainer(t);
    for (const [action, user] of [
      ["accept", trainer],
      ["accept", stranger],
      ["complete", student],
      ["complete", otherTrainer],
      ["cancel", stranger],
      ["cancel", otherTrainer],
    ] as const) {
      const res = await post(action, user);
      expect(res.status, `${action} by ${user.email}`).toBe(403);
      expect(res.body).toEqual(DENIED);
    }
    expect(await statusOf(assignment.id)).toBe("PENDING");
  });

  it("answers 409 from a state that does not allow the transition", async () => {
    const completeWhilePending = await post("complete", trainer);
    expect(completeWhilePending.status).toBe(409);
    expect(completeWhilePending.body).toEqual(INVALID_TRANSITION);

    await moveAssignment(t, student.token, assignment.id, "accept");
    const acceptTwice = await post("accept", student);
    expect(acceptTwice.status).toBe(409);
    expect(acceptTwice.body).toEqual(INVALID_TRANSITION);

    await moveAssignment(t, trainer.token, assignment.id, "complete");
    for (const [action, user] of [
      ["cancel", trainer],
      ["cancel", student],
      ["complete", trainer],
      ["accept", student],
    ] as const) {
      const res = await post(action, user);
      expect(res.status, `${action} after COMPLETED`).toBe(409);
      expect(res.body).toEqual(INVALID_TRANSITION);
    }
    expect(await statusOf(assignment.id)).toBe("COMPLETED");

    const canceled = await assignPlan(t, trainer.token, plan.id, student.id);
    await moveAssignment(t, student.token, canceled.id, "cancel");
    for (const [action, user] of [
      ["accept", student],
      ["cancel", trainer],
      ["complete", trainer],
    ] as const) {
      expect((await post(action, user, canceled.id)).body).toEqual(INVALID_TRANSITION);
    }
    expect(await statusOf(canceled.id)).toBe("CANCELED");
  });

  it("lets exactly one of two simultaneous accepts through", async () => {
    const results = await Promise.all([post("accept", student), post("accept", student)]);
    expect(results.map((res) => res.status).sort()).toEqual([200, 409]);
    expect(results.find((res) => res.status === 409)!.body).toEqual(INVALID_TRANSITION);
    expect(await statusOf(assignment.id)).toBe("ACTIVE");
  });

  it.each([
    ["accept", () => student],
    ["cancel", () => trainer],
    ["complete", () => trainer],
  ] as const)("%s: answers 404 for an unknown assignment, 400 for a non-numeric id, 401 without a token", async (action, user) => {
    const missing = await post(action, user(), 424_242);
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ message: "Atribuição não encontrada", success: false });
    const malformed = await t.post(`/api/training-plans/assignments/abc/${action}`, { invalidRequest: true, token: user().token });
    expect(malformed).toMatchObject({ status: 400, body: { message: "Parâmetro inválido: id", success: false } });
    expect((await t.post(`/api/training-plans/assignments/${assignment.id}/${action}`)).status).toBe(401);
    expect(await statusOf(assignment.id)).toBe("PENDING");
  });
});

describe("the daily completion job", () => {
  it("completes ACTIVE assignments once their endDate has passed, not before, and leaves the others", async () => {
    const [active, pending, canceled, endless] = [
      await assignPlan(t, trainer.token, plan.id, student.id),
      await assignPlan(t, trainer.token, plan.id, student.id),
      await assignPlan(t, trainer.token, plan.id, student.id),
      await assignPlan(t, trainer.token, openEnded.id, student.id),
    ];
    await moveAssignment(t, student.token, active.id, "accept");
    await moveAssignment(t, student.token, canceled.id, "accept");
    await moveAssignment(t, trainer.token, canceled.id, "cancel");
    await moveAssignment(t, student.token, endless.id, "accept");
    expect(active.endDate).toBe("2026-12-28");
    const statuses = async () => Promise.all([active, pending, canceled, endless].map((a) => statusOf(a.id)));

    // The whole last day still belongs to the plan.
    t.clock.set(new Date("2026-12-28T23:59:59.999Z"));
    expect(await t.app.services.planAssignments.completeEnded()).toBe(0);
    expect(await statuses()).toEqual(["ACTIVE", "PENDING", "CANCELED", "ACTIVE"]);

    t.clock.set(new Date("2026-12-29T00:00:00.000Z"));
    expect(await t.app.services.planAssignments.completeEnded()).toBe(1);
    expect(await statuses()).toEqual(["COMPLETED", "PENDING", "CANCELED", "ACTIVE"]);

    // Running again changes nothing.
    t.clock.set(new Date("2027-06-01T00:00:00.000Z"));
    expect(await t.app.services.planAssignments.completeEnded()).toBe(0);
    expect(await statuses()).toEqual(["COMPLETED", "PENDING", "CANCELED", "ACTIVE"]);
  });

  it("shows the job's result through the API", async () => {
    const assignment = await assignPlan(t, trainer.token, plan.id, student.id, { startDate: "2026-11-01" });
    await moveAssignment(t, student.token, assignment.id, "accept");
    expect(await t.app.services.planAssignments.completeEnded()).toBe(1);
    const res = await t.get(`/api/training-plans/assignments?planId=${plan.id}`, { token: student.token });
    expect(res.body.content).toEqual([{ ...assignment, status: "COMPLETED" }]);
  });
});

describe("GET /api/training-plans/assignments", () => {
  let other: MadeUser;
  let second: MadeUser;
  let a: Record<string, any>[];

  beforeEach(async () => {
    other = await makeTrainer(t, { name: "Carla Personal" });
    second = await makeStudent(t, { name: "Davi Aluno" });
    await linkTrainerAndStudent(t, trainer, second);
    await linkTrainerAndStudent(t, other, student);
    const exercise = await createExercise(t, other.token);
    const otherPlan = await createPlan(t, other.token, [(await createTraining(t, other.token, [exercise.id])).id], { name: "Da Carla", duration: 2 });
    a = [];
    a.push(await assignPlan(t, trainer.token, plan.id, student.id, { startDate: "2027-01-01" })); // to 2027-01-28
    t.clock.advance(1000);
    a.push(await assignPlan(t, trainer.token, plan.id, second.id, { startDate: "2027-03-01" })); // to 2027-03-28
    t.clock.advance(1000);
    a.push(await assignPlan(t, trainer.token, openEnded.id, second.id, { startDate: "2027-05-01" })); // open-ended
    t.clock.advance(1000);
    a.push(await assignPlan(t, other.token, otherPlan.id, student.id, { startDate: "2027-02-01" })); // to 2027-02-14
    await moveAssignment(t, student.token, a[0].id, "accept");
    await moveAssignment(t, second.token, a[1].id, "cancel");
  });

  it("shows a trainer the assignments it made, a student its own, an administrator all; newest first", async () => {
    const list = async (user: MadeUser, query = "") => {
      const res = await t.get(`/api/training-plans/assignments${query}`, { token: user.token });
      expect(res.status).toBe(200);
      return res.body;
    };
    const ofTrainer = await list(trainer);
    expect(idsOf(ofTrainer)).toEqual([a[2].id, a[1].id, a[0].id]);
    expect(ofTrainer.totalElements).toBe(3);
    for (const item of ofTrainer.content) expect(Object.keys(item).sort()).toEqual(ASSIGNMENT_KEYS);
    expect(ofTrainer.content[2]).toEqual({ ...a[0], status: "ACTIVE" });

    expect(idsOf(await list(other))).toEqual([a[3].id]);
    expect(idsOf(await list(student))).toEqual([a[3].id, a[0].id]);
    expect(idsOf(await list(second))).toEqual([a[2].id, a[1].id]);
    const admin = await makeUser(t, { email: "admin@example.com" });
    expect(idsOf(await list(admin))).toEqual([a[3].id, a[2].id, a[1].id, a[0].id]);

    // A filter narrows the caller's scope but never widens it.
    expect(idsOf(await list(student, `?studentId=${second.id}`))).toEqual([]);
    expect(idsOf(await list(other, `?planId=${plan.id}`))).toEqual([]);
    expect((await t.get("/api/training-plans/assignments")).status).toBe(401);
  });

  it("filters by studentId, planId and status", async () => {
    const ids = async (query: string, user = trainer) => idsOf((await t.get(`/api/training-plans/assignments?${query}`, { token: user.token })).body);
    expect(await ids(`studentId=${second.id}`)).toEqual([a[2].id, a[1].id]);
    expect(await ids(`planId=${plan.id}`)).toEqual([a[1].id, a[0].id]);
    expect(await ids("status=ACTIVE")).toEqual([a[0].id]);
    expect(await ids("status=CANCELED")).toEqual([a[1].id]);
    expect(await ids("status=PENDING")).toEqual([a[2].id]);
    expect(await ids("status=COMPLETED")).toEqual([]);
    expect(await ids(`status=PENDING&studentId=${second.id}&planId=${openEnded.id}`)).toEqual([a[2].id]);
    expect(await ids("status=PENDING", student)).toEqual([a[3].id]);
  });

  it("filters by startDate and endDate as inclusive days of the assignment period", async () => {
    const admin = await makeUser(t, { email: "admin@example.com" });
    const ids = async (query: string) => idsOf((await t.get(`/api/training-plans/assignments?sort=startDate,asc&${query}`, { token: admin.token })).body);
    // Periods: a0 01-01..01-28, a3 02-01..02-14, a1 03-01..03-28, a2 05-01.. (open-ended), all in 2027.
    expect(await ids("startDate=2027-02-15")).toEqual([a[1].id, a[2].id]);
    expect(await ids("startDate=2027-02-14")).toEqual([a[3].id, a[1].id, a[2].id]);
    expect(await ids("endDate=2027-01-31")).toEqual([a[0].id]);
    expect(await ids("endDate=2027-02-01")).toEqual([a[0].id, a[3].id]);
    expect(await ids("startDate=2027-02-15&endDate=2027-04-30")).toEqual([a[1].id]);
    expect(await ids("startDate=2027-06-01")).toEqual([a[2].id]);
  });

  it.each([
    ["status=DONE", "status"],
    ["status=active", "status"],
    ["startDate=2027-13-01", "startDate"],
    ["startDate=0000-01-01", "startDate"],
    ["endDate=0000-12-31", "endDate"],
    ["endDate=amanha", "endDate"],
    ["studentId=x", "studentId"],
    ["planId=1.5", "planId"],
    ["sort=notes,asc", "sort"],
  ])("refuses %s with 400 naming the parameter", async (query, param) => {
    const res = await t.get(`/api/training-plans/assignments?${query}`, { invalidRequest: true, token: trainer.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("pages through more assignments than a page holds", async () => {
    for (let i = 0; i < 22; i += 1) {
      t.clock.advance(1000);
      await assignPlan(t, trainer.token, openEnded.id, student.id);
    }
    const first = await t.get("/api/training-plans/assignments", { token: trainer.token });
    expect(first.body).toMatchObject({ totalElements: 25, totalPages: 2, numberOfElements: 20, size: 20, first: true, last: false });
    const second = await t.get("/api/training-plans/assignments?page=1", { token: trainer.token });
    expect(second.body).toMatchObject({ number: 1, numberOfElements: 5, last: true });
    expect(idsOf(second.body).slice(-3)).toEqual([a[2].id, a[1].id, a[0].id]);
    const all = await t.get("/api/training-plans/assignments?size=100&sort=id,asc", { token: trainer.token });
    const ordered = idsOf(all.body);
    expect(ordered).toEqual([...ordered].sort((x, y) => x - y));
    expect(ordered).toHaveLength(25);
    const byStart = await t.get("/api/training-plans/assignments?size=3&page=1&sort=startDate,desc&sort=id,asc", { token: trainer.token });
    expect(byStart.body).toMatchObject({ totalPages: 9, number: 1, numberOfElements: 3 });
  });
});
