import { randomUUID } from "node:crypto";
import { sql } from "drizzle-orm";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { IDEMPOTENCY_TTL_MS } from "../../src/modules/sync/idempotency.service.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";
import { relogin } from "../factories/users.js";
import { createExercise } from "../factories/content.js";
import { executionCounts, makeScene, type Scene } from "../executions/support.js";
import { DAY_MS, INVALID_KEY, IN_FLIGHT, REUSED, countOf, expectFresh, expectReplay, keyRows, keyed, rawRequest, until } from "./idempotency-support.js";

// Contract §13.1 on a write that matters most to a gym's bad network: logging an exercise execution.
const t = useTestApp({ FREE_TRAINER_MAX_STUDENTS: "10" });

const NOW = new Date("2026-03-18T12:00:00.000Z");
let s: Scene;

beforeEach(async () => {
  t.clock.set(NOW);
  s = await makeScene(t, { accept: true });
});

const body = (weight = 50) => ({ trainingId: s.trainingA.id, sets: [{ repetitions: 6, weight, completed: true }] });
const log = (key: string | null, sent: unknown = body(), token = s.student.token, query = "") =>
  t.post(`/api/exercises/${s.supino.id}/execution${query}`, { token, body: sent, headers: key === null ? {} : keyed(key) });

describe("Idempotency-Key on POST /exercises/{id}/execution", () => {
  it("runs the first request and answers a retry with its answer byte for byte, marked Idempotent-Replayed, logging nothing more", async () => {
    const first = await log("retry-1");
    expect(first.status).toBe(201);
    expectFresh(first);
    const records = await countOf(t, "exercise_records");

    const again = await log("retry-1");
    expectReplay(again, first);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
    expect(await countOf(t, "exercise_records")).toBe(records);
    expect(await keyRows(t)).toEqual([{ scope: `user:${s.student.id}`, key: "retry-1", state: "DONE", status: 201, user_id: s.student.id }]);
  });

  it("answers 422 to the same key with another body, path or query string, and runs none of them", async () => {
    const first = await log("k");
    expect(first.status).toBe(201);
    const otherBody = await log("k", body(55));
    expect(otherBody.status).toBe(422);
    expect(otherBody.body).toEqual(REUSED);
    const otherQuery = await t.withInvalidRequests(() => log("k", body(), s.student.token, "?via=retry"));
    expect(otherQuery.status).toBe(422);
    const otherPath = await t.post(`/api/trainings/${s.trainingA.id}/execution`, {
      invalidRequest: true,
      token: s.student.token,
      body: { startTime: "2026-03-18T10:00:00Z", endTime: "2026-03-18T11:00:00Z", completed: true, exerciseExecutions: [] },
      headers: keyed("k"),
    });
    expect(otherPath.status).toBe(422);
    expect(otherPath.body).toEqual(REUSED);
    expect(await executionCounts(t)).toEqual({ trainings: 0, exercises: 1, sets: 1 });
  });

  it("keeps and replays an error answer too (a 4xx is the request's outcome)", async () => {
    const first = await t.withInvalidRequests(() => log("bad", { trainingId: s.trainingA.id, sets: [] }));
    expect(first.status).toBe(400);
    expectReplay(await t.withInvalidRequests(() => log("bad", { trainingId: s.trainingA.id, sets: [] })), first);
    expect(await log("bad")).toMatchObject({ status: 422, body: REUSED });
  });

  it("answers 409 while another request holds the key, and runs the retry once that claim is abandoned (its lease over)", async () => {
    // Another instance's claim under way, as it writes it (src/modules/sync/idempotency.repository.ts).
    await t.db.execute(sql`insert into idempotency_keys (scope, key, user_id, state, owner, lease_until, created_at, expires_at)
      values (${`user:${s.student.id}`}, ${t.app.services.idempotency.sealOf(`user:${s.student.id}`, "held").storedKey}, ${s.student.id}, 'RUNNING', ${randomUUID()}, ${new Date(NOW.getTime() + 60_000).toISOString()}::timestamptz,
        ${NOW.toISOString()}::timestamptz, ${new Date(NOW.getTime() + DAY_MS).toISOString()}::timestamptz)`);
    const busy = await log("held");
    expect(busy.status).toBe(409);
    expect(busy.body).toEqual(IN_FLIGHT);
    t.clock.advance(59_999);
    expect((await log("held")).status).toBe(409);
    expect((await executionCounts(t)).exercises).toBe(0);

    // Its process died: once the lease has run out, the key is the next request's.
    t.clock.advance(1);
    const taken = await log("held");
    expect(taken.status).toBe(201);
    expectFresh(taken);
    expectReplay(await log("held"), taken);
    expect((await executionCounts(t)).exercises).toBe(1);
  });

  it("keeps no 5xx answer: the key is let go and a retry runs again", async () => {
    await t.db.execute(
      sql.raw(`create function idempotency_test_outage() returns trigger language plpgsql as $$
      begin raise exception 'test outage'; end $$`),
    );
    await t.db.execute(
      sql.raw("create trigger idempotency_test_outage before insert on exercise_executions for each row execute function idempotency_test_outage()"),
    );
    try {
      const failed = await log("outage");
      expect(failed.status).toBe(500);
      expect(await keyRows(t)).toEqual([]);
    } finally {
      await t.db.execute(sql.raw("drop trigger idempotency_test_outage on exercise_executions"));
      await t.db.execute(sql.raw("drop function idempotency_test_outage()"));
    }
    const retried = await log("outage");
    expect(retried.status).toBe(201);
    expectFresh(retried);
    expect((await executionCounts(t)).exercises).toBe(1);
  });

  it("keeps the answer 24 hours: a retry then runs again, even with another body", async () => {
    const first = await log("daily");
    t.clock.advance(IDEMPOTENCY_TTL_MS - 1);
    expectReplay(await log("daily"), first);
    expect((await log("daily", body(70))).status).toBe(422);

    t.clock.advance(1);
    await relogin(t, s.student);
    const next = await log("daily", body(70));
    expect(next.status).toBe(201);
    expectFresh(next);
    expect(next.body.id).not.toBe(first.body.id);
    expect((await executionCounts(t)).exercises).toBe(2);
    expectReplay(await log("daily", body(70)), next);
  });

  it("deletes the expired keys' rows in the pruning job, and only them", async () => {
    await log("old");
    t.clock.advance(DAY_MS - 60_000);
    await log("recent");
    t.clock.advance(60_000);
    expect(await t.app.services.idempotency.purgeExpired()).toBe(1);
    expect((await keyRows(t)).map((row) => row.key)).toEqual(["recent"]);
  });

  it("is the caller's: another user's request with the same key is its own", async () => {
    expect((await log("shared")).status).toBe(201);
    const theirs = await log("shared", body(), s.trainer.token);
    expect(theirs.status).toBe(201);
    expectFresh(theirs);
    expect(theirs.body.userId).toBe(s.trainer.id);
  });

  it("answers a retried DELETE with the first one's answer, not the 404 of a second delete", async () => {
    const made = await createExercise(t, s.trainer.token, { name: "Para apagar" });
    const first = await t.delete(`/api/exercises/${made.id}`, { token: s.trainer.token, headers: keyed("drop") });
    expect(first.status).toBe(204);
    expectReplay(await t.delete(`/api/exercises/${made.id}`, { token: s.trainer.token, headers: keyed("drop") }), first);
    expect((await t.delete(`/api/exercises/${made.id}`, { token: s.trainer.token })).status).toBe(404);
  });

  it("reads the draft's quoted form of the key as the key itself", async () => {
    const first = await log('"quoted-key"');
    expect(first.status).toBe(201);
    expectReplay(await log("quoted-key"), first);
    expect((await keyRows(t)).map((row) => row.key)).toEqual(["quoted-key"]);
  });

  it("takes a key of 255 printable characters", async () => {
    const key = `${"k".repeat(200)} ~!@#$%^&*()_+{}|:<>?`.padEnd(255, "x");
    const first = await log(key);
    expect(first.status).toBe(201);
    expectReplay(await log(key), first);
  });

  it.each([
    ["empty", ""],
    ["256 characters", "k".repeat(256)],
    ["not ASCII", "chave-é"],
    ["a control character", "a\tb"],
    ["a quoted string left open", '"open'],
    ["a quoted string with text after it", '"a"b'],
  ])("refuses a key that is %s with 400 Parâmetro inválido: Idempotency-Key and runs nothing", async (_what, key) => {
    const res = await t.withInvalidRequests(() => log(key));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_KEY);
    expect((await executionCounts(t)).exercises).toBe(0);
    expect(await keyRows(t)).toEqual([]);
  });

  it("refuses two Idempotency-Key headers", async () => {
    const res = await rawRequest(
      t,
      [
        `POST /api/exercises/${s.supino.id}/execution HTTP/1.1`,
        `authorization: Bearer ${s.student.token}`,
        "content-type: application/json",
        "idempotency-key: one",
        "idempotency-key: two",
      ],
      JSON.stringify(body()),
    );
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text)).toEqual(INVALID_KEY);
    expect((await executionCounts(t)).exercises).toBe(0);
  });

  it("ignores the header on reads and on the payment webhooks", async () => {
    const read = await t.get(`/api/exercises/${s.supino.id}/executions`, { token: s.student.token, headers: keyed("") });
    expect(read.status).toBe(200);
    const webhook = await t.post("/api/webhooks/card", { invalidRequest: true, body: { id: "evt_1" }, headers: keyed("") });
    expect(webhook.body).not.toEqual(INVALID_KEY);
    expect(await keyRows(t)).toEqual([]);
  });
});

describe("Idempotency-Key without a token", () => {
  const registration = (email: string) => ({ name: "Nova", email, password: "senha-forte-1", userType: "ALUNO", requestLocation: "WEB", confirmed: true });

  it("is the key of its method and path: a retried sign-up answers the first one's answer and makes one user", async () => {
    const first = await t.post("/api/users/register", { body: registration("nova@example.com"), headers: keyed("signup") });
    expect(first.status).toBe(201);
    const users = await countOf(t, "users");
    expectReplay(await t.post("/api/users/register", { body: registration("nova@example.com"), headers: keyed("signup") }), first);
    expect(await countOf(t, "users")).toBe(users);
    expect(await t.post("/api/users/register", { body: registration("outra@example.com"), headers: keyed("signup") })).toMatchObject({
      status: 422,
      body: REUSED,
    });
    // Another path is another key.
    const login = await t.post("/api/users/login", { body: { email: "nova@example.com", password: "senha-forte-1" }, headers: keyed("signup") });
    expect(login.status).toBe(200);
    expectFresh(login);
  });

  it("keeps neither the key, nor the token a login answered, nor a digest of its password in the database", async () => {
    const body = { email: s.student.email, password: s.student.password };
    const first = await t.post("/api/users/login", { body, headers: keyed("login-key-7") });
    expect(first.status).toBe(200);
    const token = (first.body as { token: string }).token;
    const [row] = await rowsOfKeys();
    const stored = JSON.stringify(row);
    expect(row.body.length).toBeGreaterThan(token.length);
    for (const secret of [token, token.split(".")[2], "login-key-7", s.student.password])
      expect(stored.includes(secret) || row.body.includes(Buffer.from(secret)), secret).toBe(false);
    // What the client holds still opens it: the retry gets the same token.
    expectReplay(await t.post("/api/users/login", { body, headers: keyed("login-key-7") }), first);
  });

  it("counts a call with an unusable token as one without a token", async () => {
    const body = { email: s.student.email, password: s.student.password };
    const first = await t.post("/api/users/login", { body, token: "not-a-token", headers: keyed("stale") });
    expect(first.status).toBe(200);
    expectReplay(await t.post("/api/users/login", { body, headers: keyed("stale") }), first);
    expect((await keyRows(t)).map((row) => row.user_id)).toEqual([null]);
  });
});

/** Every stored column of idempotency_keys, the body as bytes. */
async function rowsOfKeys(): Promise<({ body: Buffer } & Record<string, unknown>)[]> {
  const result = await t.db.execute(sql`select * from idempotency_keys`);
  const rows = rowsOf<Record<string, unknown>>(result);
  return rows.map((row) => ({ ...row, body: Buffer.from(row.body as Uint8Array) }));
}

describe("a claim that runs long", () => {
  afterEach(() => {
    vi.useRealTimers();
  });

  it("pushes its lease on while its request runs, so no retry takes the key from a live request", async () => {
    vi.useFakeTimers({ toFake: ["setInterval", "clearInterval"] });
    const idempotency = t.app.services.idempotency;
    const request = { key: "slow", userId: s.student.id, method: "POST", path: "/api/subscriptions" };
    const begun = await idempotency.begin(request);
    expect("claim" in begun).toBe(true);
    const leaseUntil = async () =>
      (
        await t.db
          .execute(sql`select lease_until from idempotency_keys where key = ${idempotency.sealOf(`user:${s.student.id}`, "slow").storedKey}`)
          .then((result) => rowsOf(result).map((row) => new Date((row as { lease_until: string }).lease_until).getTime()))
      )[0];
    t.clock.advance(50_000);
    vi.advanceTimersByTime(20_000);
    await until(async () => (await leaseUntil()) === NOW.getTime() + 110_000, "the lease pushed on");
    t.clock.advance(30_000);
    await expect(idempotency.begin(request)).rejects.toMatchObject({ status: 409, message: IN_FLIGHT.message });
    if ("claim" in begun) await begun.claim.release("test over");
    expect(await keyRows(t)).toEqual([]);
  });
});
