import { and, eq, inArray } from "drizzle-orm";
import type { PgColumn, PgTable } from "drizzle-orm/pg-core";
import { describe, expect, it } from "vitest";
import { subscriptions } from "../../src/tables/billing.table.js";
import { exerciseExecutions, trainingExecutions } from "../../src/tables/execution.table.js";
import { exercises } from "../../src/tables/exercise.table.js";
import { trainings } from "../../src/tables/training.table.js";
import { users, weightHistory } from "../../src/tables/user.table.js";
import { webhookEndpoints } from "../../src/tables/webhook.table.js";
import { planId } from "../factories/billing.js";
import { createExercise, createTraining, exerciseBody, exerciseForm } from "../factories/content.js";
import { makeStudent, type MadeUser } from "../factories/users.js";
import { useSecondInstance, useTestApp, type ApiResponse, type TestApp } from "../helpers/test-app.js";

// Contract §15: an erasure wins against every write of its user, on every instance. While the user's writes of every
// kind run on two instances of one database, DELETE /users/me answers 204 and leaves nothing of theirs but what the
// law keeps; each write either committed before the erasure (and was erased with the rest) or answers a 4xx, never a
// 500; and no write that starts after the erasure's answer succeeds. On PGlite (one connection) the same path runs.
const t = useTestApp();
const other = useSecondInstance(t);

const ROUNDS = 12;
/** The writes each writer has answered before the erasure starts: they are in flight on both instances by then. */
const WRITES_BEFORE_ERASURE = 2;

interface Answer {
  write: string;
  status: number;
  text: string;
  /** Sent once the erasure had answered. */
  afterErasure: boolean;
}

/** The user's writes of every kind, each sent by `on` (one of the two instances) with the user's token. */
function writesOf(user: MadeUser, own: { exercise: number; training: number }, plan: number) {
  let n = 0;
  const past = () => new Date(t.clock.now().getTime() - ++n * 3_600_000);
  return {
    profile: (on: TestApp) =>
      on.put("/api/users/profile", {
        token: user.token,
        body: { name: `Ana ${++n}`, phone: "+55 11 98888-7777", birthDate: "1991-04-12", gender: "FEMININO", height: 165, weight: 60 + (n % 10) },
      }),
    weight: (on: TestApp) => on.put("/api/users/profile", { token: user.token, body: { weight: 70 + (++n % 10) } }),
    exercise: (on: TestApp) => on.post("/api/exercises", { token: user.token, raw: exerciseForm(exerciseBody()) }),
    training: (on: TestApp) =>
      on.post("/api/trainings", { token: user.token, body: { name: `Treino ${++n}`, exercises: [{ exerciseId: own.exercise, sets: 3 }] } }),
    trainingLog: (on: TestApp) => {
      const start = past();
      return on.post(`/api/trainings/${own.training}/execution`, {
        token: user.token,
        body: {
          startTime: start.toISOString(),
          endTime: new Date(start.getTime() + 1_800_000).toISOString(),
          completed: true,
          exerciseExecutions: [{ exerciseId: own.exercise, sets: [{ repetitions: 8, weight: 40 + (n % 20), completed: true }] }],
        },
      });
    },
    exerciseLog: (on: TestApp) =>
      on.post(`/api/exercises/${own.exercise}/execution`, {
        token: user.token,
        body: { trainingId: own.training, sets: [{ repetitions: 5, weight: 50 + (++n % 20), completed: true }] },
      }),
    webhookEndpoint: (on: TestApp) =>
      on.post("/api/webhook-endpoints", {
        token: user.token,
        body: { url: `https://hooks.example.com/ana/${++n}`, events: ["training_execution.created"] },
      }),
    checkout: (on: TestApp) => on.post("/api/payments/subscribe", { token: user.token, body: { planId: plan, paymentMethod: "PIX" } }),
  } satisfies Record<string, (on: TestApp) => Promise<ApiResponse>>;
}

const countOf = async (table: PgTable, column: PgColumn, id: number) => (await t.db.select().from(table).where(eq(column, id))).length;

/**
 * One round: a new student's writes, each kind in a loop on one of the two instances; once each loop has had
 * WRITES_BEFORE_ERASURE answers, the erasure on one of them; each loop sends one more write after its answer, then stops.
 */
async function eraseWhileWriting(round: number): Promise<{ erasure: ApiResponse; answers: Answer[]; user: MadeUser; kinds: string[] }> {
  const user = await makeStudent(t);
  const own = { exercise: (await createExercise(t, user.token)).id, training: 0 };
  own.training = (await createTraining(t, user.token, [own.exercise])).id;
  const writes = Object.entries(writesOf(user, own, await planId(t)));
  const answers: Answer[] = [];
  let erased = false;
  let started = 0;
  let startErasure!: () => void;
  const allWriting = new Promise<void>((resolve) => (startErasure = resolve));
  // Each kind of write on one instance, half of them on each, the other half next round.
  const loops = writes.map(async ([write, send], i) => {
    const on = (i + round) % 2 ? other : t;
    for (let sent = 0; ; sent++) {
      const afterErasure = erased;
      const res = await send(on);
      answers.push({ write, status: res.status, text: res.text, afterErasure });
      if (sent + 1 === WRITES_BEFORE_ERASURE && ++started === writes.length) startErasure();
      if (afterErasure) return;
    }
  });
  await allWriting;
  const erasure = await (round % 2 ? other : t).delete("/api/users/me", { token: user.token, body: { password: user.password } });
  erased = true;
  await Promise.all(loops);
  return { erasure, answers, user, kinds: writes.map(([write]) => write) };
}

describe("an erasure racing its user's writes on two instances", () => {
  it(`answers 204, leaves nothing of theirs, and each write 2xx before it or 4xx, never 500 (${ROUNDS} rounds)`, async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { erasure, answers, user, kinds } = await eraseWhileWriting(round);
      const failures = answers.filter((answer) => answer.status >= 500).map(({ write, status, text }) => `${write} ${status} ${text}`);
      expect({ round, erasure: erasure.status, failures }).toEqual({ round, erasure: 204, failures: [] });
      // Writes sent after the erasure answered are refused (the token is revoked): none of them succeeded.
      const late = answers.filter((answer) => answer.afterErasure);
      expect(late.map((answer) => answer.write).sort()).toEqual([...kinds].sort());
      expect(late.filter((answer) => answer.status < 400).map(({ write, status }) => `${write} ${status}`)).toEqual([]);

      const id = user.id;
      const [row] = await t.db.select().from(users).where(eq(users.id, id));
      expect(row).toMatchObject({
        name: "Usuário removido",
        email: `deleted-${id}@invalid`,
        phone: null,
        birthDate: null,
        gender: null,
        heightCm: null,
        weightKg: null,
      });
      expect({
        weights: await countOf(weightHistory, weightHistory.userId, id),
        exercises: await countOf(exercises, exercises.createdBy, id),
        trainings: await countOf(trainings, trainings.createdBy, id),
        trainingLogs: await countOf(trainingExecutions, trainingExecutions.userId, id),
        exerciseLogs: await countOf(exerciseExecutions, exerciseExecutions.userId, id),
        webhookEndpoints: await countOf(webhookEndpoints, webhookEndpoints.userId, id),
        livingSubscriptions: (
          await t.db
            .select()
            .from(subscriptions)
            .where(and(eq(subscriptions.userId, id), inArray(subscriptions.status, ["PENDING", "ACTIVE"])))
        ).length,
      }).toEqual({ weights: 0, exercises: 0, trainings: 0, trainingLogs: 0, exerciseLogs: 0, webhookEndpoints: 0, livingSubscriptions: 0 });
    }
  }, 120_000);
});
