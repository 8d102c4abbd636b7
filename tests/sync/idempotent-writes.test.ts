import { sql } from "drizzle-orm";
import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { FakeStripe, startFakeStripe } from "../helpers/fake-stripe.js";
import { exerciseBody, exerciseForm } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { cardBody, planId } from "../billing/support.js";
import { executionCounts, makeScene } from "../executions/support.js";
import { emptyUploadsBeforeEach, GIF, pngPart, storedFiles } from "../exercises/support.js";
import {
  IN_FLIGHT,
  REUSED,
  countOf,
  expectFresh,
  expectReplay,
  heldUpload,
  keyRows,
  keyed,
  multipartBytes,
  until,
  untilKeyState,
} from "./idempotency-support.js";

// Contract §13.1 on writes with effects beyond a row: an upload, a card charge, an e-mail; and GraphQL.
const stripe: FakeStripe = await startFakeStripe();
const t = useTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url, FREE_TRAINER_MAX_STUDENTS: "10" });
emptyUploadsBeforeEach(t);
beforeEach(() => stripe.reset());
afterAll(() => stripe.stop());

/** Charges made at the gateway: payment intents that succeeded. */
const charges = () => [...stripe.paymentIntents.values()].filter((intent) => intent.status === "succeeded").length;

describe("POST /exercises with an image (multipart)", () => {
  /** The bytes of one request: a retry sends them again (the same boundary). */
  const upload = async (image = pngPart()) => multipartBytes(exerciseForm(exerciseBody({ name: "Supino com foto" }), image));
  const send = (token: string, form: { bytes: Buffer; contentType: string }, key: string) =>
    t.post("/api/exercises", { token, raw: form.bytes, headers: keyed(key, { "content-type": form.contentType }) });

  it("replays the created exercise byte for byte and stores one exercise and one image", async () => {
    const trainer = await makeTrainer(t);
    const form = await upload();
    const first = await send(trainer.token, form, "photo-1");
    expect(first.status).toBe(201);
    expect(first.body.imageUrl).toMatch(/^http/);
    expectReplay(await send(trainer.token, form, "photo-1"), first);
    expect(await countOf(t, "exercises")).toBe(1);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it("answers 422 to the key with another image (its bytes are part of the request), storing nothing", async () => {
    const trainer = await makeTrainer(t);
    expect((await send(trainer.token, await upload(), "photo-2")).status).toBe(201);
    const other = await send(trainer.token, await upload({ bytes: GIF, filename: "foto.gif", type: "image/gif" }), "photo-2");
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect(await countOf(t, "exercises")).toBe(1);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it("answers 409 while the first upload is still arriving, then replays its answer", async () => {
    const trainer = await makeTrainer(t);
    const form = await upload();
    const slow = heldUpload(
      t,
      "/api/exercises",
      { authorization: `Bearer ${trainer.token}`, "content-type": form.contentType, "idempotency-key": "photo-3" },
      form.bytes,
    );
    await untilKeyState(t, "photo-3", "RUNNING");
    const busy = await send(trainer.token, form, "photo-3");
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual(IN_FLIGHT);

    slow.sendRest();
    const first = await slow.answer;
    expect(first.status).toBe(201);
    const again = await send(trainer.token, form, "photo-3");
    expect(again.headers.get("idempotent-replayed")).toBe("true");
    expect(again.text).toBe(first.text);
    expect(await countOf(t, "exercises")).toBe(1);
  });

  it("keeps nothing of an upload cut off half way: the retry runs", async () => {
    const trainer = await makeTrainer(t);
    const form = await upload();
    const cut = heldUpload(
      t,
      "/api/exercises",
      { authorization: `Bearer ${trainer.token}`, "content-type": form.contentType, "idempotency-key": "photo-4" },
      form.bytes,
    );
    cut.answer.catch(() => undefined);
    await untilKeyState(t, "photo-4", "RUNNING");
    cut.cut();
    await until(async () => (await keyRows(t)).length === 0, "the claim let go");

    const retried = await send(trainer.token, form, "photo-4");
    expect(retried.status).toBe(201);
    expectFresh(retried);
    expect(await countOf(t, "exercises")).toBe(1);
    expect(storedFiles(t)).toHaveLength(1);
  });
});

describe("POST /subscriptions by card", () => {
  const subscribe = async (token: string, key: string, plan?: number) =>
    t.post("/api/subscriptions", { token, body: cardBody(plan ?? (await planId(t))), headers: keyed(key) });

  it("charges once: a retry gets the first answer and the gateway no second charge", async () => {
    const ana = await makeStudent(t);
    const first = await subscribe(ana.token, "sub-1");
    expect(first.status).toBe(201);
    expect(charges()).toBe(1);
    const calls = stripe.requests.length;
    expectReplay(await subscribe(ana.token, "sub-1"), first);
    expect(stripe.requests).toHaveLength(calls);
    expect(charges()).toBe(1);
    expect(await countOf(t, "payments")).toBe(1);
  });

  it("answers 409 to a retry while the card is being charged, then the charge's answer", async () => {
    const ana = await makeStudent(t);
    const hold = stripe.hold();
    const pending = subscribe(ana.token, "sub-2");
    await stripe.waitForRequests("POST /v1/payment_intents", 1);
    const busy = await subscribe(ana.token, "sub-2");
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual(IN_FLIGHT);
    hold.release();
    const first = await pending;
    expect(first.status).toBe(201);
    expectReplay(await subscribe(ana.token, "sub-2"), first);
    expect(charges()).toBe(1);
    expect(stripe.requestsTo("POST", "/v1/payment_intents")).toHaveLength(1);
  });

  it("answers 422 to the key with another plan, charging nothing more", async () => {
    const ana = await makeStudent(t);
    expect((await subscribe(ana.token, "sub-3")).status).toBe(201);
    const other = await subscribe(ana.token, "sub-3", await planId(t, "Trimestral"));
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect(stripe.requestsTo("POST", "/v1/payment_intents")).toHaveLength(1);
  });

  it("keeps no 502 (the gateway down): the retry with the key charges, once", async () => {
    const ana = await makeStudent(t);
    stripe.failNext(500, 3); // the first gateway call, and the SDK's 2 retries of it
    const failed = await subscribe(ana.token, "sub-4");
    expect(failed.status).toBe(502);
    expect(await keyRows(t)).toEqual([]);
    const retried = await subscribe(ana.token, "sub-4");
    expect(retried.status).toBe(201);
    expectFresh(retried);
    expect(charges()).toBe(1);
    expectReplay(await subscribe(ana.token, "sub-4"), retried);
  });
});

describe("POST /personal/students/invite", () => {
  const invite = (token: string, studentEmail: string, key: string) =>
    t.post("/api/personal/students/invite", { token, body: { studentEmail, message: "Vamos treinar" }, headers: keyed(key) });

  it("sends one e-mail: a retry gets the first invite, and no second message goes out", async () => {
    const trainer = await makeTrainer(t);
    await makeStudent(t, { email: "aluna@example.com" });
    await makeStudent(t, { email: "outra@example.com" });
    const first = await invite(trainer.token, "aluna@example.com", "inv-1");
    expect(first.status).toBe(201);
    expectReplay(await invite(trainer.token, "aluna@example.com", "inv-1"), first);
    await t.deliverMail();
    expect(t.smtp.to("aluna@example.com")).toHaveLength(1);
    expect(await countOf(t, "invites")).toBe(1);

    const other = await invite(trainer.token, "outra@example.com", "inv-1");
    expect(other.status).toBe(422);
    await t.deliverMail();
    expect(t.smtp.to("outra@example.com")).toHaveLength(0);
    expect(await countOf(t, "mail_outbox")).toBe(1);
  });
});

describe("POST /graphql with Idempotency-Key", () => {
  const LOG = `mutation ($exerciseId: Int!, $input: ExerciseExecutionInput!) {
    logExerciseExecution(exerciseId: $exerciseId, input: $input) { id sets { repetitions weight } newRecords { kind value } }
  }`;
  const mutate = (token: string, variables: Record<string, unknown>, key: string) =>
    t.post("/graphql", { token, body: { query: LOG, variables }, headers: keyed(key) });

  it("runs a mutation once: a retry gets its answer byte for byte, marked, and another document with the key 422", async () => {
    const s = await makeScene(t, { accept: true });
    const variables = { exerciseId: s.supino.id, input: { trainingId: s.trainingA.id, sets: [{ repetitions: 5, weight: 60, completed: true }] } };
    const first = await mutate(s.student.token, variables, "gql-1");
    expect(first.status).toBe(200);
    expect(first.body.errors).toBeUndefined();
    expectReplay(await mutate(s.student.token, variables, "gql-1"), first);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });

    const other = await mutate(s.student.token, { ...variables, input: { ...variables.input, notes: "outra" } }, "gql-1");
    expect(other.status).toBe(422);
    expect(other.body).toEqual(REUSED);
    expect((await executionCounts(t)).exercises).toBe(1);
  });

  it("keeps no answer whose error is the server's (GraphQL answers it 200): a retry runs again", async () => {
    const s = await makeScene(t, { accept: true });
    const variables = { exerciseId: s.supino.id, input: { trainingId: s.trainingA.id, sets: [{ repetitions: 5, weight: 60, completed: true }] } };
    await t.db.execute(
      sql.raw(`create function idempotency_test_outage() returns trigger language plpgsql as $$
      begin raise exception 'test outage'; end $$`),
    );
    await t.db.execute(
      sql.raw("create trigger idempotency_test_outage before insert on exercise_executions for each row execute function idempotency_test_outage()"),
    );
    try {
      const failed = await mutate(s.student.token, variables, "gql-2");
      expect(failed.status).toBe(200);
      expect(failed.body.errors[0].extensions).toEqual({ code: "INTERNAL_SERVER_ERROR", status: 500 });
      expect(await keyRows(t)).toEqual([]);
    } finally {
      await t.db.execute(sql.raw("drop trigger idempotency_test_outage on exercise_executions"));
      await t.db.execute(sql.raw("drop function idempotency_test_outage()"));
    }
    const retried = await mutate(s.student.token, variables, "gql-2");
    expect(retried.body.errors).toBeUndefined();
    expectFresh(retried);
    expect((await executionCounts(t)).exercises).toBe(1);
  });

  it("runs a multipart upload mutation once: the retry (the same bytes) gets its answer, and one image is stored", async () => {
    const ana = await makeStudent(t);
    const form = new FormData();
    form.append(
      "operations",
      JSON.stringify({
        query: "mutation ($userId: Int!, $file: Upload!) { updateProfilePhoto(userId: $userId, file: $file) { id profilePicture } }",
        variables: { userId: ana.id, file: null },
      }),
    );
    form.append("map", JSON.stringify({ 0: ["variables.file"] }));
    form.append("0", new Blob([new Uint8Array(pngPart().bytes)], { type: "image/png" }), "foto.png");
    const sent = await multipartBytes(form);
    const upload = () => t.post("/graphql", { token: ana.token, raw: sent.bytes, headers: keyed("gql-photo", { "content-type": sent.contentType }) });
    const first = await upload();
    expect(first.status).toBe(200);
    expect(first.body.data.updateProfilePhoto.profilePicture).toMatch(/^http/);
    expectReplay(await upload(), first);
    expect(storedFiles(t)).toHaveLength(1);
  });

  it("keeps a GraphQL client error (its 4xx in the answer) like any other answer", async () => {
    const s = await makeScene(t, { accept: true });
    const variables = { exerciseId: s.supino.id, input: { trainingId: s.trainingA.id, sets: [] } };
    const first = await mutate(s.student.token, variables, "gql-3");
    expect(first.body.errors[0].extensions.status).toBe(400);
    expectReplay(await mutate(s.student.token, variables, "gql-3"), first);
  });
});
