import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rateLimitCounters } from "../../src/platform/rate-limit/rate-limit.table.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { makeUser } from "../factories/users.js";

// Five failures lock the e-mail; the per-address limit stays out of the way (every call comes from 127.0.0.1).
const LIMITS = { LOGIN_FAILURES_PER_EMAIL: "5", AUTH_RATE_LIMIT_PER_MINUTE: "1000" };
const t = useTestApp(LIMITS);
const other = useSecondInstance(t, LIMITS);

const TOO_MANY = { message: "Muitas requisições. Tente novamente mais tarde.", success: false };
const LOGIN_MUTATION = "mutation($i: LoginInput!){ login(input:$i){ token } }";

interface Outcome {
  status: number;
  token?: string;
}

const viaRest = async (app: TestApp, email: string, password: string): Promise<Outcome> => {
  const res = await app.post("/api/users/login", { body: { email, password } });
  if (res.status === 429) {
    expect(res.body).toEqual(TOO_MANY);
    expect(Number(res.headers.get("retry-after"))).toBeGreaterThanOrEqual(1);
    expect(Number(res.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
  }
  return { status: res.status, token: res.body.token };
};

/** The GraphQL mutation's answer as the HTTP status REST would give it. */
const viaGraphql = async (app: TestApp, email: string, password: string): Promise<Outcome> => {
  const body = await app.graphql(LOGIN_MUTATION, { i: { email, password } });
  if (body.errors) {
    if (body.errors[0].extensions.status === 429) expect(body.errors[0].message).toBe(TOO_MANY.message);
    return { status: body.errors[0].extensions.status };
  }
  return { status: 200, token: body.data.login.token };
};

describe("failed-login lockout under concurrent attempts on two instances", () => {
  it("lets at most 5 wrong passwords be checked, and the right one in only while the e-mail is not locked", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    // 32 attempts at once, half by REST on one instance, half by GraphQL on the other; the 17th has the right password.
    const attempts = Array.from({ length: 32 }, (_, i) => {
      const password = i === 16 ? "segredo1" : `errada-${i}`;
      return i % 2 === 0 ? viaRest(t, "ana@example.com", password) : viaGraphql(other, "ana@example.com", password);
    });
    const outcomes = await Promise.all(attempts);

    const wrong = outcomes.filter((_, i) => i !== 16);
    const failures = wrong.filter((o) => o.status === 400).length;
    expect(wrong.every((o) => o.status === 400 || o.status === 429)).toBe(true);
    expect(wrong.every((o) => o.token === undefined)).toBe(true);
    expect(failures).toBeLessThanOrEqual(5);
    const right = outcomes[16];
    expect([200, 429]).toContain(right.status);
    // Nobody was refused before five attempts were under way: the lock is not reached early.
    expect(failures + (right.status === 200 ? 1 : 0)).toBeGreaterThanOrEqual(5);

    const [counter] = await t.db.select().from(rateLimitCounters).where(eq(rateLimitCounters.key, "login-failures:ana@example.com"));
    expect(counter.count).toBe(failures);
    // Once five wrong passwords were counted, the right one is refused on either instance, by either surface.
    const expected = failures === 5 ? 429 : 200;
    expect((await viaRest(t, "ana@example.com", "segredo1")).status).toBe(expected);
    expect((await viaGraphql(other, "ana@example.com", "segredo1")).status).toBe(expected);
  });

  it("counts attempts on an unknown e-mail the same way", async () => {
    const outcomes = await Promise.all(
      Array.from({ length: 32 }, (_, i) => (i % 2 === 0 ? viaRest(t, "ghost@example.com", "qualquer") : viaGraphql(other, "ghost@example.com", "qualquer"))),
    );
    expect(outcomes.filter((o) => o.status === 404)).toHaveLength(5);
    expect(outcomes.filter((o) => o.status === 429)).toHaveLength(27);
  });
});
