import { eq, sql, type SQL } from "drizzle-orm";
import type { PgTable } from "drizzle-orm/pg-core";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { invoices, payments, subscriptions } from "../../src/tables/billing.table.js";
import { invites, personalStudentLinks } from "../../src/tables/coaching.table.js";
import { completedTrainingWeeks, executionSets, exerciseExecutions, trainingExecutions, trainingExerciseMonths } from "../../src/tables/execution.table.js";
import { exercises } from "../../src/tables/exercise.table.js";
import { exerciseRecords, personalRecordHolders } from "../../src/tables/records.table.js";
import { syncChanges } from "../../src/tables/sync-change.table.js";
import { planAssignments, trainingPlans } from "../../src/tables/training-plan.table.js";
import { trainings } from "../../src/tables/training.table.js";
import { oneTimeTokens, users, weightHistory } from "../../src/tables/user.table.js";
import { mailOutbox } from "../../src/platform/mail/outbox.table.js";
import { webhookEndpoints } from "../../src/tables/webhook.table.js";
import { planId } from "../factories/billing.js";
import { makeStudent, makeTrainer, makeUser, type MadeUser } from "../factories/users.js";
import { startFakeStripe } from "../helpers/fake-stripe.js";
import { startJwksServer } from "../helpers/jwks-server.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeWorld, storedFiles, type World } from "./support.js";

// The card gateway is Stripe's API on a local fake, and the identity provider a local key server (both up before the app reads its configuration).
const stripe = await startFakeStripe();
const PROJECT = "fitness-test";
const jwks = await startJwksServer(PROJECT);
const t = useTestApp({
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_API_BASE: stripe.url,
  WEBHOOK_SECRET: "privacy-secret",
  FIREBASE_PROJECT_ID: PROJECT,
  FIREBASE_JWKS_URL: jwks.url,
  ADMIN_EMAILS: "chefe@example.com",
});
beforeEach(() => stripe.reset());
afterAll(async () => {
  await stripe.stop();
  await jwks.stop();
});

const ERASED = "Usuário removido";
const INVALID_CREDENTIALS = { message: "Credenciais inválidas", success: false };

/** The student's recurring subscription at the gateway (Stripe): the payment flow's checkout by card. */
async function subscribe(student: MadeUser) {
  const res = await t.post("/api/payments/subscribe", {
    token: student.token,
    body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
  });
  expect(res.status).toBe(201);
}

const deleteMe = (user: MadeUser, body: unknown) => t.delete("/api/users/me", { token: user.token, body });

const userRow = async (id: number) => (await t.db.select().from(users).where(eq(users.id, id)))[0];
const countOf = async (table: PgTable, where: SQL) =>
  (
    await t.db
      .select({ n: sql<number>`count(*)::int` })
      .from(table)
      .where(where)
  )[0].n;

/** Mails the outbox holds for `email` (after delivering it), by subject. */
async function subjectsTo(email: string) {
  await t.deliverMail();
  return t.smtp.to(email).map((mail) => mail.subject);
}

/** The change feed's cursor now, for `user`. */
async function cursorOf(user: MadeUser) {
  let res = await t.get("/api/sync/changes?limit=500", { token: user.token });
  while (res.body.hasMore) res = await t.get(`/api/sync/changes?limit=500&since=${encodeURIComponent(res.body.cursor)}`, { token: user.token });
  return res.body.cursor as string;
}

async function changesSince(user: MadeUser, cursor: string) {
  const res = await t.get(`/api/sync/changes?limit=500&since=${encodeURIComponent(cursor)}`, { token: user.token });
  expect(res.status).toBe(200);
  return (res.body.changes as { entity: string; id: number; op: string }[]).map(({ entity, id, op }) => ({ entity, id, op }));
}

describe("DELETE /api/users/me (a student)", () => {
  let w: World;
  beforeEach(async () => {
    w = await makeWorld(t, subscribe);
  });

  it("answers 204 and leaves each table as contract §15 says", async () => {
    const before = await userRow(w.student.id);
    expect(storedFiles(t)).toHaveLength(1);
    expect(await countOf(exerciseRecords, eq(exerciseRecords.userId, w.student.id))).toBeGreaterThan(0);
    expect(await countOf(personalRecordHolders, eq(personalRecordHolders.userId, w.student.id))).toBeGreaterThan(0);
    expect(await countOf(completedTrainingWeeks, eq(completedTrainingWeeks.userId, w.student.id))).toBeGreaterThan(0);

    const res = await deleteMe(w.student, { password: w.student.password });
    expect(res.status).toBe(204);
    expect(res.text).toBe("");

    const id = w.student.id;
    expect(await userRow(id)).toMatchObject({
      name: ERASED,
      email: `deleted-${id}@invalid`,
      passwordHash: "",
      phone: null,
      birthDate: null,
      gender: null,
      heightCm: null,
      weightKg: null,
      profilePicture: null,
      subscriptionType: "FREEMIUM",
      subscriptionExpiresAt: null,
      isAdmin: false,
      sessionVersion: before.sessionVersion + 1,
    });
    expect(storedFiles(t)).toEqual([]);
    expect(await countOf(weightHistory, eq(weightHistory.userId, id))).toBe(0);
    expect(await countOf(oneTimeTokens, eq(oneTimeTokens.userId, id))).toBe(0);
    expect(await countOf(trainingExecutions, eq(trainingExecutions.userId, id))).toBe(0);
    expect(await countOf(exerciseExecutions, eq(exerciseExecutions.userId, id))).toBe(0);
    expect(await countOf(executionSets, eq(executionSets.userId, id))).toBe(0);
    expect(await countOf(trainingExerciseMonths, eq(trainingExerciseMonths.userId, id))).toBe(0);
    expect(await countOf(completedTrainingWeeks, eq(completedTrainingWeeks.userId, id))).toBe(0);
    expect(await countOf(exerciseRecords, eq(exerciseRecords.userId, id))).toBe(0);
    expect(await countOf(personalRecordHolders, eq(personalRecordHolders.userId, id))).toBe(0);
    expect(await countOf(syncChanges, eq(syncChanges.userId, id))).toBe(0);
    expect(await countOf(webhookEndpoints, eq(webhookEndpoints.userId, id))).toBe(0);
    // Private content: the student's own exercise and training are gone.
    expect(await countOf(exercises, eq(exercises.createdBy, id))).toBe(0);
    expect(await countOf(trainings, eq(trainings.createdBy, id))).toBe(0);

    const links = await t.db.select().from(personalStudentLinks).where(eq(personalStudentLinks.studentId, id));
    expect(links.map((link) => link.status)).toEqual(["INACTIVE"]);
    const sent = await t.db.select().from(invites).where(eq(invites.studentId, id)).orderBy(invites.id);
    expect(sent.map((invite) => [invite.personalId, invite.status, invite.studentEmail])).toEqual([
      [w.trainer.id, "ACCEPTED", `deleted-${id}@invalid`],
      [w.otherTrainer.id, "CANCELED", `deleted-${id}@invalid`],
    ]);
    const assignments = await t.db.select().from(planAssignments).where(eq(planAssignments.studentId, id)).orderBy(planAssignments.id);
    expect(assignments.map((row) => [row.id, row.status])).toEqual([
      [w.assignmentId, "CANCELED"],
      [w.publicAssignmentId, "CANCELED"],
    ]);

    // Billing: the subscription canceled at once, payments and invoices kept.
    expect((await t.db.select().from(subscriptions).where(eq(subscriptions.userId, id))).map((row) => row.status)).toEqual(["CANCELED"]);
    expect((await t.db.select().from(payments).where(eq(payments.userId, id))).map((row) => row.status)).toEqual(["COMPLETED"]);
    expect((await t.db.select().from(invoices).where(eq(invoices.userId, id))).map((row) => row.status)).toEqual(["PAID"]);
    // The trainer's rows are the trainer's.
    expect(await countOf(exercises, eq(exercises.createdBy, w.trainer.id))).toBe(2);
  });

  it("cancels the subscription at the gateway after the commit", async () => {
    const [gatewaySubscription] = [...stripe.subscriptions.values()];
    expect(gatewaySubscription.status).toBe("active");

    expect((await deleteMe(w.student, { password: w.student.password })).status).toBe(204);
    expect(stripe.requestsTo("DELETE", `/v1/subscriptions/${gatewaySubscription.id}`)).toHaveLength(1);
    expect(stripe.subscriptions.get(String(gatewaySubscription.id))!.status).toBe("canceled");
  });

  it("e-mails the confirmation to the old address, forgets the e-mails sent to it before, and refuses every old token with 401", async () => {
    const other = await t.post("/api/users/login", { body: { email: w.student.email, password: w.student.password } });
    expect(await subjectsTo(w.student.email)).toContain("Pagamento confirmado");
    expect((await deleteMe(w.student, { password: w.student.password })).status).toBe(204);

    const kept = await t.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, w.student.email));
    expect(kept.map((row) => row.status)).toEqual(kept.map(() => "PENDING"));
    expect(kept.map((row) => row.subject)).toContain("Sua conta foi removida");

    expect(await subjectsTo(w.student.email)).toContain("Sua conta foi removida");
    for (const token of [w.student.token, other.body.token]) {
      const res = await t.get("/api/users/profile", { token });
      expect(res.status).toBe(401);
    }
    expect((await t.post("/api/users/login", { body: { email: w.student.email, password: w.student.password } })).status).toBe(404);
  });

  it("frees the e-mail address: it registers again, as a new account", async () => {
    expect((await deleteMe(w.student, { password: w.student.password })).status).toBe(204);
    const again = await makeStudent(t, { email: w.student.email });
    expect(again.id).not.toBe(w.student.id);
    expect((await t.get("/api/users/profile", { token: again.token })).body).toMatchObject({ email: w.student.email, phone: null });
  });

  it("tells the other parties through the change feed: the link, the invites, the assignments", async () => {
    const trainerCursor = await cursorOf(w.trainer);
    const otherTrainerCursor = await cursorOf(w.otherTrainer);
    expect((await deleteMe(w.student, { password: w.student.password })).status).toBe(204);

    const trainerHeard = await changesSince(w.trainer, trainerCursor);
    expect(trainerHeard).toEqual(
      expect.arrayContaining([
        { entity: "link", id: w.linkId, op: "DELETE" },
        { entity: "planAssignment", id: w.assignmentId, op: "UPSERT" },
        { entity: "planAssignment", id: w.publicAssignmentId, op: "UPSERT" },
      ]),
    );
    expect(await changesSince(w.otherTrainer, otherTrainerCursor)).toContainEqual({ entity: "invite", id: w.pendingInviteToStudent, op: "UPSERT" });
    const invite = await t.get("/api/personal/invites", { token: w.otherTrainer.token });
    expect(invite.body.content).toMatchObject([{ id: w.pendingInviteToStudent, status: "CANCELED" }]);
  });

  it("answers 400 Credenciais inválidas to a wrong password, and erases nothing", async () => {
    const res = await deleteMe(w.student, { password: "nao-e-a-senha" });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_CREDENTIALS);
    expect(await userRow(w.student.id)).toMatchObject({ name: "Ana Aluna", email: w.student.email });
    expect((await t.get("/api/users/profile", { token: w.student.token })).status).toBe(200);
  });
});

describe("DELETE /api/users/me (a trainer)", () => {
  it("keeps public content, credited to Usuário removido; deletes private content; ends links, invites and assignments", async () => {
    const w = await makeWorld(t, async () => undefined);
    const { publicExercise, privateExercise, publicTraining, privateTraining, publicPlan, privatePlan } = w.trainerContent;

    expect((await deleteMe(w.trainer, { password: w.trainer.password })).status).toBe(204);

    const id = w.trainer.id;
    expect((await t.db.select({ id: exercises.id }).from(exercises).where(eq(exercises.createdBy, id))).map((row) => row.id)).toEqual([publicExercise]);
    expect((await t.db.select({ id: trainings.id }).from(trainings).where(eq(trainings.createdBy, id))).map((row) => row.id)).toEqual([publicTraining]);
    expect((await t.db.select({ id: trainingPlans.id }).from(trainingPlans).where(eq(trainingPlans.createdBy, id))).map((row) => row.id)).toEqual([publicPlan]);
    expect(await countOf(exercises, eq(exercises.id, privateExercise))).toBe(0);
    expect(await countOf(trainings, eq(trainings.id, privateTraining))).toBe(0);
    expect(await countOf(trainingPlans, eq(trainingPlans.id, privatePlan))).toBe(0);

    // The public exercise, read by its former student: credited to the anonymized account, on both surfaces.
    const rest = await t.get(`/api/exercises/${publicExercise}`, { token: w.student.token });
    expect(rest.status).toBe(200);
    const graphql = await t.graphql(`query ($id: Int!) { exercise(id: $id) { creator { name profilePicture } } }`, { id: publicExercise }, w.student.token);
    expect(graphql.data.exercise.creator).toEqual({ name: ERASED, profilePicture: null });

    // The student keeps their history: the execution of the deleted private training stays, by name.
    expect(await countOf(trainingExecutions, eq(trainingExecutions.userId, w.student.id))).toBe(1);

    expect((await t.db.select().from(personalStudentLinks).where(eq(personalStudentLinks.personalId, id))).map((link) => link.status)).toEqual(["INACTIVE"]);
    const sent = await t.db.select().from(invites).where(eq(invites.personalId, id)).orderBy(invites.id);
    expect(sent.map((invite) => [invite.studentId, invite.status])).toEqual([
      [w.student.id, "ACCEPTED"],
      [w.otherStudent.id, "CANCELED"],
    ]);
    // The private plan's assignment went with its plan; the public plan's is CANCELED.
    const assignments = await t.db.select().from(planAssignments).where(eq(planAssignments.personalId, id));
    expect(assignments.map((row) => [row.id, row.status])).toEqual([[w.publicAssignmentId, "CANCELED"]]);
    const personals = await t.get("/api/students/personals", { token: w.student.token });
    expect(personals.status).toBe(200);
    expect(personals.body.content).toEqual([]);
  });
});

describe("DELETE /api/users/me with an identity provider's ID token", () => {
  it("answers 204 to a valid ID token of the account's e-mail, 400 Credenciais inválidas to another's", async () => {
    const ana = await makeStudent(t, { email: "ana.firebase@example.com" });
    const wrong = await deleteMe(ana, { firebaseToken: await jwks.idToken("outra@example.com") });
    expect(wrong.status).toBe(400);
    expect(wrong.body).toEqual(INVALID_CREDENTIALS);

    expect((await deleteMe(ana, { firebaseToken: await jwks.idToken("ana.firebase@example.com") })).status).toBe(204);
    expect(await userRow(ana.id)).toMatchObject({ name: ERASED, email: `deleted-${ana.id}@invalid` });
  });

  it("answers 400 Validation failed without a password or a token", async () => {
    const ana = await makeStudent(t);
    const res = await deleteMe(ana, {});
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "Validation failed", success: false, errors: [{ field: "password" }] });
  });
});

describe("DELETE /api/users/{id} (administrators)", () => {
  it("erases any account: 204, then 404 for it; 404 for an unknown id", async () => {
    const admin = await makeUser(t, { email: "chefe@example.com" });
    const ana = await makeStudent(t);

    expect((await t.delete(`/api/users/${ana.id}`, { token: admin.token })).status).toBe(204);
    expect(await userRow(ana.id)).toMatchObject({ name: ERASED, email: `deleted-${ana.id}@invalid` });
    expect(await subjectsTo(ana.email)).toContain("Sua conta foi removida");
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(401);

    const again = await t.delete(`/api/users/${ana.id}`, { token: admin.token });
    expect(again.status).toBe(404);
    expect(again.body).toEqual({ message: "Usuário não encontrado", success: false });
    expect((await t.delete("/api/users/999999", { token: admin.token })).status).toBe(404);
    // A path the document refuses, on purpose.
    const notAnId = await t.withInvalidRequests(() => t.delete("/api/users/abc", { token: admin.token }));
    expect(notAnId.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("answers 403 Acesso negado to anyone else, even for their own id", async () => {
    const bruno = await makeTrainer(t);
    const ana = await makeStudent(t);
    for (const id of [ana.id, bruno.id]) {
      const res = await t.delete(`/api/users/${id}`, { token: bruno.token });
      expect(res.status).toBe(403);
      expect(res.body).toEqual({ message: "Acesso negado", success: false });
    }
    expect(await userRow(ana.id)).toMatchObject({ email: ana.email });
  });
});

describe("GraphQL deleteMyAccount and deleteUser", () => {
  const DELETE_ME = `mutation ($password: String, $firebaseToken: String) { deleteMyAccount(password: $password, firebaseToken: $firebaseToken) }`;
  const DELETE_USER = `mutation ($id: Int!) { deleteUser(id: $id) }`;

  it("erases the caller's account with the password; a wrong one is Credenciais inválidas (400)", async () => {
    const ana = await makeStudent(t);
    const wrong = await t.graphql(DELETE_ME, { password: "errada-123" }, ana.token);
    expect(wrong.errors?.[0]).toMatchObject({ message: "Credenciais inválidas", extensions: { status: 400 } });

    const res = await t.graphql(DELETE_ME, { password: ana.password }, ana.token);
    expect(res).toEqual({ data: { deleteMyAccount: true } });
    expect(await userRow(ana.id)).toMatchObject({ name: ERASED });
    expect((await t.graphql("{ me { id } }", {}, ana.token)).errors?.[0].extensions).toMatchObject({ status: 401 });
  });

  it("lets an administrator erase a user; 403 to others, 404 for an unknown id", async () => {
    const admin = await makeUser(t, { email: "chefe@example.com" });
    const ana = await makeStudent(t);
    const bruno = await makeStudent(t);

    expect((await t.graphql(DELETE_USER, { id: ana.id }, bruno.token)).errors?.[0]).toMatchObject({ message: "Acesso negado", extensions: { status: 403 } });
    expect(await t.graphql(DELETE_USER, { id: ana.id }, admin.token)).toEqual({ data: { deleteUser: true } });
    expect(await userRow(ana.id)).toMatchObject({ name: ERASED });
    expect((await t.graphql(DELETE_USER, { id: 999999 }, admin.token)).errors?.[0]).toMatchObject({
      message: "Usuário não encontrado",
      extensions: { status: 404 },
    });
  });
});
