import { sql } from "drizzle-orm";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { rateLimitCounters } from "../../src/platform/rate-limit/rate-limit.table.js";
import { TestApp, useTestApp, type ApiResponse } from "../helpers/test-app.js";
import { rowsOf } from "../helpers/database.js";
import { makeUser } from "../factories/users.js";

const LIMITS = { AUTH_RATE_LIMIT_PER_MINUTE: "3", LOGIN_FAILURES_PER_EMAIL: "2" };
const t = useTestApp(LIMITS);
/** A second instance of the service on the same database, as in a scaled-out deployment. */
const other = new TestApp(LIMITS);
beforeAll(() => other.start());
afterAll(() => other.stop());
beforeEach(() => other.clock.set(t.clock.now()));

const MINUTE_MS = 60_000;
const TOO_MANY = { message: "Muitas requisições. Tente novamente mais tarde.", success: false };
const LOGIN_MUTATION = "mutation($i: LoginInput!){ login(input:$i){ token } }";

/** Moves both instances' clocks on together. */
function advance(ms: number) {
  t.clock.advance(ms);
  other.clock.advance(ms);
}

function expectTooMany(res: ApiResponse, maxSeconds: number) {
  expect(res.status).toBe(429);
  expect(res.body).toEqual(TOO_MANY);
  const retryAfter = res.headers.get("retry-after");
  expect(retryAfter).toMatch(/^\d+$/);
  expect(Number(retryAfter)).toBeGreaterThanOrEqual(1);
  expect(Number(retryAfter)).toBeLessThanOrEqual(maxSeconds);
  return Number(retryAfter);
}

/** A user registered a minute ago, so its registration counts nothing in the current window. */
async function userAMinuteAgo(email = "ana@example.com", password = "segredo1") {
  const user = await makeUser(t, { email, password });
  advance(MINUTE_MS);
  return user;
}

const login = (app: TestApp, email: string, password: string) => app.post("/api/users/login", { body: { email, password } });

let registrations = 0;
const registerBody = () => {
  registrations += 1;
  return { name: "Novo", email: `novo${registrations}@example.com`, password: "segredo1", userType: "ALUNO", requestLocation: "WEB", confirmed: true };
};

describe("rate limit per client address and endpoint", () => {
  it.each([
    ["login", () => ({ email: "ana@example.com", password: "segredo1" }), 200],
    ["register", registerBody, 201],
    ["firebase-login", () => ({ firebaseToken: "not-a-real-token" }), 400],
    ["forgot-password", () => ({ email: "ana@example.com" }), 200],
    ["reset-password", () => ({ token: "not-a-real-token", password: "senha-nova" }), 400],
  ])("lets 3 calls of POST /users/%s through in a minute and answers 429 with Retry-After to the 4th", async (endpoint, body, status) => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) expect((await t.post(`/api/users/${endpoint}`, { body: body() })).status).toBe(status);
    const res = await t.post(`/api/users/${endpoint}`, { body: body() });
    expectTooMany(res, 60);
  });

  it("does the refused call's work not at all", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) await t.post("/api/users/register", { body: registerBody() });
    const refused = await t.post("/api/users/register", { body: { ...registerBody(), email: "refused@example.com" } });
    expect(refused.status).toBe(429);
    const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users where email = 'refused@example.com'`));
    expect(row.n).toBe(0);
  });

  it("counts calls refused by validation too", async () => {
    for (let i = 0; i < 3; i++) expect((await t.post("/api/users/login", { invalidRequest: true, body: {} })).status).toBe(400);
    expectTooMany(await t.post("/api/users/login", { invalidRequest: true, body: {} }), 60);
  });

  it("lets calls through again once the minute has passed", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) await login(t, "ana@example.com", "segredo1");
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
    advance(MINUTE_MS);
    const res = await login(t, "ana@example.com", "segredo1");
    expect(res.status).toBe(200);
    expect(res.body.success).toBe(true);
  });

  it("still refuses a burst that straddles the turn of a clock minute", async () => {
    await userAMinuteAgo();
    const now = t.clock.now().getTime();
    t.clock.set(new Date(Math.ceil(now / MINUTE_MS) * MINUTE_MS + MINUTE_MS - 1000));
    other.clock.set(t.clock.now());
    for (let i = 0; i < 3; i++) expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    advance(2000);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 58);
  });

  it("lets calls through again after waiting Retry-After seconds", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) await login(t, "ana@example.com", "segredo1");
    const retryAfter = expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
    advance(retryAfter * 1000);
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
  });

  it("counts each endpoint separately", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
    for (let i = 0; i < 3; i++) expect((await t.post("/api/users/register", { body: registerBody() })).status).toBe(201);
    expect((await t.post("/api/users/forgot-password", { body: { email: "ana@example.com" } })).status).toBe(200);
    expectTooMany(await t.post("/api/users/register", { body: registerBody() }), 60);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
  });

  it("leaves endpoints without a limit alone", async () => {
    const ana = await userAMinuteAgo();
    for (let i = 0; i < 3; i++) await login(t, "ana@example.com", "segredo1");
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
    for (let i = 0; i < 5; i++) expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(200);
  });

  it("ignores an X-Forwarded-For header the client made up", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) {
      const res = await t.post("/api/users/login", {
        body: { email: "ana@example.com", password: "segredo1" },
        headers: { "x-forwarded-for": `10.0.0.${i}` },
      });
      expect(res.status).toBe(200);
    }
    const res = await t.post("/api/users/login", {
      body: { email: "ana@example.com", password: "segredo1" },
      headers: { "x-forwarded-for": "10.0.0.99" },
    });
    expectTooMany(res, 60);
  });

  it("keeps its counters in the database", async () => {
    await userAMinuteAgo();
    const loginCounters = async () => (await t.db.select().from(rateLimitCounters)).filter((row) => row.key.includes("login"));
    expect(await loginCounters()).toEqual([]);
    for (let i = 0; i < 2; i++) await login(t, "ana@example.com", "segredo1");
    const rows = await loginCounters();
    expect(rows).toHaveLength(1);
    expect(rows[0].count).toBe(2);
  });

  it("is shared by every instance on the same database", async () => {
    await userAMinuteAgo();
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    expect((await login(other, "ana@example.com", "segredo1")).status).toBe(200);
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    expectTooMany(await login(other, "ana@example.com", "segredo1"), 60);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
  });

  it("counts the GraphQL login mutation against the same limit as REST login", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    const body = await t.graphql(LOGIN_MUTATION, { i: { email: "ana@example.com", password: "segredo1" } });
    expect(body.data ?? null).toBeNull();
    expect(body.errors).toHaveLength(1);
    expect(body.errors![0]).toMatchObject({ message: TOO_MANY.message, extensions: { code: "TOO_MANY_REQUESTS", status: 429 } });
  });

  it("counts REST login against a limit the GraphQL login mutation used up", async () => {
    await userAMinuteAgo();
    for (let i = 0; i < 3; i++) {
      const body = await t.graphql(LOGIN_MUTATION, { i: { email: "ana@example.com", password: "segredo1" } });
      expect(body.data?.login.token).toEqual(expect.any(String));
    }
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 60);
    advance(MINUTE_MS);
    const body = await t.graphql(LOGIN_MUTATION, { i: { email: "ana@example.com", password: "segredo1" } });
    expect(body.data?.login.token).toEqual(expect.any(String));
  });
});

describe("failed logins per e-mail", () => {
  it("after 2 failures refuses even the right password with 429 until 15 minutes have passed", async () => {
    const ana = await userAMinuteAgo("ana@example.com", "segredo1");
    expect((await login(t, "ana@example.com", "errada-1")).status).toBe(400);
    expect((await login(t, "ana@example.com", "errada-2")).status).toBe(400);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);

    advance(MINUTE_MS);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 14 * 60);
    advance(13 * MINUTE_MS + 59_000);
    const lastSecond = await login(t, "ana@example.com", "segredo1");
    expectTooMany(lastSecond, 1);

    advance(1000);
    const res = await login(t, "ana@example.com", "segredo1");
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(ana.id);
  });

  it("keeps the lock for 15 minutes also when the failures come just before a quarter hour turns", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    const quarter = 15 * MINUTE_MS;
    t.clock.set(new Date(Math.ceil(t.clock.now().getTime() / quarter) * quarter + quarter - 1000));
    other.clock.set(t.clock.now());
    await login(t, "ana@example.com", "errada-1");
    await login(t, "ana@example.com", "errada-2");
    advance(MINUTE_MS);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 14 * 60);
    expectTooMany(await login(other, "ana@example.com", "segredo1"), 14 * 60);
  });

  it("lets the right password in after waiting Retry-After seconds", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    await login(t, "ana@example.com", "errada-1");
    await login(t, "ana@example.com", "errada-2");
    const retryAfter = expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
    advance(retryAfter * 1000);
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
  });

  it("does not count a successful login, nor the refused attempts, as failures", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    expect((await login(t, "ana@example.com", "errada-1")).status).toBe(400);
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    advance(MINUTE_MS);
    expect((await login(t, "ana@example.com", "segredo1")).status).toBe(200);
    expect((await login(t, "ana@example.com", "errada-2")).status).toBe(400);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
  });

  it("counts the e-mail in any letter case as the same e-mail", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    expect((await login(t, "ANA@example.com", "errada-1")).status).toBe(400);
    expect((await login(t, " Ana@Example.COM ", "errada-2")).status).toBe(400);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
  });

  it("counts attempts on an unknown e-mail too", async () => {
    await makeUser(t, { email: "ana@example.com" });
    expect((await login(t, "ghost@example.com", "whatever")).status).toBe(404);
    expect((await login(t, "ghost@example.com", "whatever")).status).toBe(404);
    expectTooMany(await login(t, "ghost@example.com", "whatever"), 15 * 60);
  });

  it("locks only that e-mail: another user still logs in", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    await userAMinuteAgo("bia@example.com", "senha-da-bia");
    expect((await login(t, "ana@example.com", "errada-1")).status).toBe(400);
    expect((await login(t, "ana@example.com", "errada-2")).status).toBe(400);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
    // A new minute for the per-address limit; ana's lock lasts 15.
    advance(MINUTE_MS);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 14 * 60);
    const bia = await login(t, "bia@example.com", "senha-da-bia");
    expect(bia.status).toBe(200);
    expect(bia.body.success).toBe(true);
  });

  it("adds up failures made on different instances", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    expect((await login(t, "ana@example.com", "errada-1")).status).toBe(400);
    expect((await login(other, "ana@example.com", "errada-2")).status).toBe(400);
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
    expectTooMany(await login(other, "ana@example.com", "segredo1"), 15 * 60);
  });

  it("counts failures of the GraphQL login mutation too", async () => {
    await userAMinuteAgo("ana@example.com", "segredo1");
    for (const password of ["errada-1", "errada-2"]) {
      const body = await t.graphql(LOGIN_MUTATION, { i: { email: "ana@example.com", password } });
      expect(body.errors![0].extensions).toMatchObject({ code: "BAD_USER_INPUT", status: 400 });
    }
    expectTooMany(await login(t, "ana@example.com", "segredo1"), 15 * 60);
    const body = await t.graphql(LOGIN_MUTATION, { i: { email: "ana@example.com", password: "segredo1" } });
    expect(body.errors![0]).toMatchObject({ message: TOO_MANY.message, extensions: { code: "TOO_MANY_REQUESTS", status: 429 } });
  });
});

describe("rate limit per client address behind a load balancer", () => {
  /** An instance behind a balancer on loopback (the tests' own address), trusted to name the client. */
  const balanced = new TestApp({ ...LIMITS, TRUST_PROXY: "loopback" });
  beforeAll(() => balanced.start());
  afterAll(() => balanced.stop());
  beforeEach(() => balanced.clock.set(t.clock.now()));

  /** A login refused by validation (counted all the same), from `client` as the balancer names it. */
  const loginFrom = (app: TestApp, client: string) => app.post("/api/users/login", { invalidRequest: true, body: {}, headers: { "x-forwarded-for": client } });

  it("counts each client the balancer names in X-Forwarded-For, not the balancer's own address", async () => {
    for (let i = 0; i < 3; i++) expect((await loginFrom(balanced, "203.0.113.10")).status).toBe(400);
    expectTooMany(await loginFrom(balanced, "203.0.113.10"), 60);
    // Another phone behind the same balancer still gets its own three calls.
    expect((await loginFrom(balanced, "203.0.113.11")).status).toBe(400);
  });

  it("ignores X-Forwarded-For without TRUST_PROXY: a client cannot escape its limit by naming another address", async () => {
    for (let i = 0; i < 3; i++) expect((await loginFrom(t, `198.51.100.${i}`)).status).toBe(400);
    expectTooMany(await loginFrom(t, "198.51.100.99"), 60);
  });
});
