import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { anotherConnectionToWorkerDatabase, rowsOf } from "../helpers/database.js";
import { FakeStripe, startFakeStripe } from "../helpers/fake-stripe.js";
import { useSecondInstance, useTestApp, type ApiResponse, type TestApp } from "../helpers/test-app.js";
import { exerciseBody, exerciseForm } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { cardBody, planId } from "../billing/support.js";
import { executionCounts, makeScene, type Scene } from "../executions/support.js";
import { emptyUploadsBeforeEach, pngPart } from "../exercises/support.js";
import {
  IN_FLIGHT,
  countOf,
  expectFresh,
  expectReplay,
  heldUpload,
  keyed,
  multipartBytes,
  sendWithoutReading,
  until,
  untilKeyState,
} from "./idempotency-support.js";

// Contract §13.1 across instances (a key claimed on one is honoured by every other) and over connections that drop.
const stripe: FakeStripe = await startFakeStripe();
const env = { STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url, FREE_TRAINER_MAX_STUDENTS: "10" };
const t = useTestApp(env);
/** A second instance of the service on the same database (its own pool on PostgreSQL), as behind a load balancer. */
const other = useSecondInstance(t, env);
emptyUploadsBeforeEach(t);
beforeEach(() => stripe.reset());
afterAll(() => stripe.stop());

const NOW = new Date("2026-03-18T12:00:00.000Z");
let s: Scene;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
});

const executionBody = (weight = 50) => JSON.stringify({ trainingId: s.trainingA.id, sets: [{ repetitions: 6, weight, completed: true }] });
const log = (app: TestApp, key: string) =>
  app.post(`/api/exercises/${s.supino.id}/execution`, {
    token: s.student.token,
    raw: executionBody(),
    headers: keyed(key, { "content-type": "application/json" }),
  });

async function onlyExerciseExecutionId(): Promise<number> {
  const rows = rowsOf<{ id: number }>(await t.db.execute(sql`select id from exercise_executions`));
  expect(rows).toHaveLength(1);
  return rows[0].id;
}

describe("one key on two instances", () => {
  it("runs one of 10 simultaneous requests with one key, split over two instances; the others answer 409 or its answer", async () => {
    const answers = await Promise.all(Array.from({ length: 10 }, (_, i) => log(i % 2 === 0 ? t : other, "storm")));
    const fresh = answers.filter((res) => res.headers.get("idempotent-replayed") === null && res.status === 201);
    expect(fresh).toHaveLength(1);
    for (const res of answers) {
      if (res === fresh[0]) continue;
      if (res.status === 409) expect(res.body).toEqual(IN_FLIGHT);
      else expectReplay(res, fresh[0]);
    }
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
    // Once the first is done, every instance replays it.
    expectReplay(await log(other, "storm"), fresh[0]);
    expectReplay(await log(t, "storm"), fresh[0]);
  });

  it("answers 409 on one instance while the other runs the key's first request, then replays it there", async () => {
    const trainer = await makeTrainer(t);
    const exercises = await countOf(t, "exercises");
    const form = await multipartBytes(exerciseForm(exerciseBody(), pngPart()));
    const headers = { authorization: `Bearer ${trainer.token}`, "content-type": form.contentType, "idempotency-key": "cross" };
    const slow = heldUpload(t, "/api/exercises", headers, form.bytes);
    await untilKeyState(t, "cross", "RUNNING");
    const busy = await other.post("/api/exercises", { raw: form.bytes, headers });
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual(IN_FLIGHT);
    slow.sendRest();
    const first = await slow.answer;
    expect(first.status).toBe(201);
    const again = await other.post("/api/exercises", { raw: form.bytes, headers });
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await countOf(t, "exercises")).toBe(exercises + 1);
  });
});

describe("an answer lost on the way to the client", () => {
  const headers = () => ({ authorization: `Bearer ${s.student.token}`, "content-type": "application/json", "idempotency-key": "lost" });

  it("is kept though the client never read it: the retry gets it, and one execution exists", async () => {
    const sent = await sendWithoutReading(t, "POST", `/api/exercises/${s.supino.id}/execution`, headers(), executionBody());
    await untilKeyState(t, "lost", "DONE");
    sent.cut();
    const retried = await log(other, "lost");
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.id).toBe(await onlyExerciseExecutionId());
  });

  it("makes one execution when the connection is cut right after the request is sent, whatever the server had read of it", async () => {
    const sent = await sendWithoutReading(t, "POST", `/api/exercises/${s.supino.id}/execution`, headers(), executionBody());
    sent.cut();
    // The app retries until it gets an answer: 409 while the first still runs, else the kept answer or a first run.
    let retried: ApiResponse;
    await until(async () => (retried = await log(other, "lost")).status !== 409, "an answer to the retry");
    expect(retried!.status).toBe(201);
    expect(retried!.body.id).toBe(await onlyExerciseExecutionId());
  });

  // PostgreSQL: the test holds the student's logging lock from a session of its own, so the request is under way
  // (its body read, its key claimed) when its connection is cut; PGlite has one session, which the lock cannot hold.
  it.runIf(process.env.DATABASE_URL)("is kept when the connection is cut while the request runs: the retry gets the stored answer", async () => {
    const connection = await anotherConnectionToWorkerDatabase();
    try {
      await connection.handle.db.transaction(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(8003, ${s.student.id})`);
        const sent = await sendWithoutReading(t, "POST", `/api/exercises/${s.supino.id}/execution`, headers(), executionBody());
        await until(async () => {
          const [row] = rowsOf<{ n: number }>(
            await tx.execute(
              sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and not granted and classid = 8003 and objid = ${s.student.id}`,
            ),
          );
          return row.n === 1;
        }, "the request waiting for the logging lock");
        sent.cut();
      });
    } finally {
      await connection.close();
    }
    await untilKeyState(t, "lost", "DONE");
    const retried = await log(other, "lost");
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body.id).toBe(await onlyExerciseExecutionId());
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
  });

  it("is kept when the connection is cut while the card is being charged: one charge, and the retry gets the subscription", async () => {
    const ana = await makeStudent(t);
    const body = JSON.stringify(cardBody(await planId(t)));
    const hold = stripe.hold();
    const sent = await sendWithoutReading(
      t,
      "POST",
      "/api/subscriptions",
      { authorization: `Bearer ${ana.token}`, "content-type": "application/json", "idempotency-key": "pay" },
      body,
    );
    await stripe.waitForRequests("POST /v1/payment_intents", 1);
    sent.cut();
    hold.release();
    await untilKeyState(t, "pay", "DONE");

    const retried = await other.post("/api/subscriptions", { token: ana.token, raw: body, headers: keyed("pay", { "content-type": "application/json" }) });
    expect(retried.status).toBe(201);
    expect(retried.headers.get("idempotent-replayed")).toBe("true");
    expect(retried.body).toMatchObject({ userId: ana.id, status: "ACTIVE" });
    expect(stripe.requestsTo("POST", "/v1/payment_intents")).toHaveLength(1);
    expect(await countOf(t, "subscriptions")).toBe(1);
    const fresh = await other.post("/api/subscriptions", { token: ana.token, raw: body, headers: keyed("pay-2", { "content-type": "application/json" }) });
    expectFresh(fresh);
    expect(fresh.status).toBe(409);
  });
});
