import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/tables/user.table.js";
import { cardFields, CARD_ACCEPTED, planId } from "../factories/billing.js";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeWorld } from "./support.js";

const t = useTestApp();

const TOO_MANY = { message: "Muitas requisições. Tente novamente mais tarde.", success: false };

/** The student's subscription through the sandbox card gateway. */
const subscribe = async (student: { token: string }) => {
  const res = await t.post("/api/subscriptions", { token: student.token, body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", ...cardFields(t) } });
  expect(res.status).toBe(201);
};

const exportOf = (token: string) => t.get("/api/users/me/export", { token });

describe("GET /api/users/me/export", () => {
  it("answers the student's data in every module as a JSON attachment dados-<id>.json", async () => {
    const w = await makeWorld(t, subscribe);
    const res = await exportOf(w.student.token);

    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="dados-${w.student.id}.json"`);
    expect(res.headers.get("content-type")).toMatch(/^application\/json/);
    const data = res.body;
    expect(data).toMatchObject({ userId: w.student.id, exportedAt: expect.stringMatching(/Z$/) });
    expect(data.profile).toMatchObject({
      id: w.student.id,
      name: "Ana Aluna",
      email: w.student.email,
      phone: "+55 11 98888-7777",
      birthDate: "1991-04-12",
      gender: "FEMININO",
      height: 165,
      weight: 61.5,
      profilePicture: expect.stringContaining("/uploads/"),
    });
    expect(data.weightHistory.map((point: { weight: number }) => point.weight)).toEqual([60, 61.5]);
    expect(data.exercises).toMatchObject([{ id: w.studentContent.exercise, name: "Agachamento da Ana", createdBy: w.student.id }]);
    expect(data.trainings).toMatchObject([{ id: w.studentContent.training, name: "Treino da Ana", exercises: [{ exerciseId: w.studentContent.exercise }] }]);
    expect(data.trainingPlans).toEqual([]);
    expect(data.planAssignments).toMatchObject([
      { id: w.assignmentId, status: "ACTIVE", studentId: w.student.id, personalId: w.trainer.id },
      { id: w.publicAssignmentId, status: "PENDING", studentId: w.student.id, personalId: w.trainer.id },
    ]);
    expect(data.links).toMatchObject([{ id: w.linkId, status: "ACTIVE", personalId: w.trainer.id, studentId: w.student.id }]);
    expect(data.invites.map((invite: { status: string; personalId: number }) => [invite.personalId, invite.status])).toEqual([
      [w.trainer.id, "ACCEPTED"],
      [w.otherTrainer.id, "PENDING"],
    ]);
    expect(data.trainingExecutions).toMatchObject([
      {
        id: w.trainingExecutionId,
        trainingId: w.trainerContent.privateTraining,
        exerciseExecutions: [
          { exerciseId: w.trainerContent.privateExercise, sets: Array(3).fill({ repetitions: 8, weight: 40, completed: true }) },
          { exerciseId: w.trainerContent.publicExercise, sets: Array(3).fill({ repetitions: 8, weight: 40, completed: true }) },
        ],
      },
    ]);
    expect(data.exerciseExecutions).toMatchObject([
      { id: w.exerciseExecutionId, exerciseId: w.studentContent.exercise, sets: Array(2).fill({ repetitions: 5, weight: 80, completed: true }) },
    ]);
    expect(data.records.length).toBeGreaterThan(0);
    expect(data.records).toContainEqual(expect.objectContaining({ exerciseId: w.studentContent.exercise, kind: "MAX_WEIGHT", value: 80 }));
    expect(data.subscriptions).toMatchObject([{ userId: w.student.id, status: "ACTIVE", paymentMethod: "CREDIT_CARD", lastFourDigits: "4242" }]);
    expect(data.payments).toMatchObject([{ userId: w.student.id, status: "COMPLETED", amount: 49.9 }]);
    expect(data.invoices).toMatchObject([{ userId: w.student.id, status: "PAID", amount: 49.9 }]);
    expect(data.webhookEndpoints).toEqual([
      expect.objectContaining({ url: "https://hooks.example.com/ana", events: ["training_execution.created"], description: "Meu painel", enabled: true }),
    ]);
  });

  it("answers the trainer's own content, plans, assignments, links and invites", async () => {
    const w = await makeWorld(t, subscribe);
    const res = await exportOf(w.trainer.token);

    expect(res.status).toBe(200);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="dados-${w.trainer.id}.json"`);
    const data = res.body;
    const { publicExercise, privateExercise, publicTraining, privateTraining, publicPlan, privatePlan } = w.trainerContent;
    expect(data.profile).toMatchObject({ id: w.trainer.id, userType: "PERSONAL", email: w.trainer.email });
    expect(data.exercises.map((e: { id: number; isPublic: boolean }) => [e.id, e.isPublic])).toEqual([
      [publicExercise, true],
      [privateExercise, false],
    ]);
    expect(data.trainings.map((e: { id: number }) => e.id)).toEqual([publicTraining, privateTraining]);
    expect(data.trainingPlans).toMatchObject([
      { id: publicPlan, isPublic: true, trainings: [{ trainingId: publicTraining }] },
      { id: privatePlan, isPublic: false, trainings: [{ trainingId: privateTraining }] },
    ]);
    expect(data.planAssignments).toMatchObject([
      { id: w.assignmentId, studentId: w.student.id, status: "ACTIVE" },
      { id: w.publicAssignmentId, studentId: w.student.id, status: "PENDING" },
    ]);
    expect(data.links).toMatchObject([{ id: w.linkId, studentId: w.student.id, status: "ACTIVE" }]);
    expect(data.invites.map((invite: { studentId: number; status: string }) => [invite.studentId, invite.status])).toEqual([
      [w.student.id, "ACCEPTED"],
      [w.otherStudent.id, "PENDING"],
    ]);
    expect(data).toMatchObject({
      trainingExecutions: [],
      exerciseExecutions: [],
      records: [],
      subscriptions: [],
      payments: [],
      invoices: [],
      webhookEndpoints: [],
    });
  });

  it("holds no secret: no password, password hash, token, card number, CVV or gateway key", async () => {
    const w = await makeWorld(t, subscribe);
    const [row] = await t.db.select({ passwordHash: users.passwordHash }).from(users).where(eq(users.id, w.student.id));
    const text = (await exportOf(w.student.token)).text;

    for (const secret of [row.passwordHash, w.student.password, w.student.token, CARD_ACCEPTED, "4242 4242", w.endpointSecret, "whsec_"]) {
      expect(text).not.toContain(secret);
    }
    for (const field of [
      "secret",
      "passwordHash",
      "password",
      "sessionVersion",
      "token",
      "cvv",
      "idempotencyKey",
      "chargeKey",
      "gatewayCustomerId",
      "gatewayPaymentMethodId",
    ]) {
      expect(text).not.toMatch(new RegExp(`"${field}"`, "i"));
    }
  });

  it("answers 429 with Retry-After to a second export within a minute, and exports again after it", async () => {
    const ana = await makeStudent(t);
    expect((await exportOf(ana.token)).status).toBe(200);

    const again = await exportOf(ana.token);
    expect(again.status).toBe(429);
    expect(again.body).toEqual(TOO_MANY);
    expect(Number(again.headers.get("retry-after"))).toBeGreaterThan(0);
    // The limit is the user's, whichever surface asks.
    const graphql = await t.graphql("{ exportMyData }", {}, ana.token);
    expect(graphql.errors?.[0]).toMatchObject({ message: TOO_MANY.message, extensions: { status: 429 } });

    t.clock.advance(61_000);
    expect((await exportOf(ana.token)).status).toBe(200);
  });

  it("answers 401 without a token", async () => {
    expect((await t.get("/api/users/me/export")).status).toBe(401);
  });
});

describe("GraphQL exportMyData", () => {
  it("answers the same document as REST", async () => {
    const w = await makeWorld(t, subscribe);
    const graphql = await t.graphql("{ exportMyData }", {}, w.student.token);
    expect(graphql.errors).toBeUndefined();
    t.clock.advance(61_000);
    const rest = await exportOf(w.student.token);
    const { exportedAt: _a, ...fromGraphql } = graphql.data.exportMyData;
    const { exportedAt: _b, ...fromRest } = rest.body;
    expect(fromGraphql).toEqual(fromRest);
  });
});
