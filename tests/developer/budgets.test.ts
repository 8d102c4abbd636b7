import { describe, expect, it } from "vitest";
import { makeTrainer } from "../factories/users.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { personalToken } from "./support.js";

const LIMITS = { API_COST_BUCKET: "30", API_COST_RESTORE_PER_SECOND: "1", API_REQUESTS_PER_15_MIN: "5", API_REQUESTS_PER_DAY: "8" };
const t = useTestApp(LIMITS);
const other = useSecondInstance(t, LIMITS);

const aliases = (count: number) => `{ ${Array.from({ length: count }, (_, i) => `a${i}: me { id }`).join(" ")} }`;

async function graphql(app: TestApp, query: string, token: string) {
  const res = await app.post("/graphql", { body: { query }, token });
  return { status: res.status, body: res.body, retryAfter: res.headers.get("retry-after") };
}

describe("REST budgets of apps and personal tokens (contract §18.4)", () => {
  it("count every request of a pair across instances, report them in RateLimit fields, and refuse past 15 minutes' share", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    for (let i = 1; i <= 5; i += 1) {
      const res = await (i % 2 ? t : other).get("/api/users/profile", { token });
      expect(res.status).toBe(200);
      expect(res.headers.get("ratelimit-limit")).toBe("5");
      expect(res.headers.get("ratelimit-remaining")).toBe(String(5 - i));
      expect(res.headers.get("ratelimit-reset")).toBe("900");
      expect(res.headers.get("ratelimit-policy")).toBe("5;w=900, 8;w=86400");
    }
    const refused = await other.get("/api/users/profile", { token });
    expect({ status: refused.status, body: refused.body }).toEqual({
      status: 429,
      body: { message: "Muitas requisições. Tente novamente mais tarde.", success: false },
    });
    expect(refused.headers.get("retry-after")).toBe("900");
    expect(refused.headers.get("ratelimit-remaining")).toBe("0");

    // Another token of the same user is another pair; the login token is not budgeted.
    expect((await t.get("/api/users/profile", { token: await personalToken(t, ana, ["profile:read"]) })).status).toBe(200);
    const login = await t.get("/api/users/profile", { token: ana.token });
    expect(login.status).toBe(200);
    expect(login.headers.get("ratelimit-limit")).toBeNull();

    // A new window opens after 15 minutes; the day's share still counts what was sent.
    t.clock.advance(15 * 60_000);
    other.clock.set(t.clock.now());
    for (let i = 0; i < 2; i += 1) expect((await t.get("/api/users/profile", { token })).status).toBe(200);
    const day = await t.get("/api/users/profile", { token });
    expect(day.status).toBe(429);
    expect(Number(day.headers.get("retry-after"))).toBe(86_400 - 15 * 60);
  });
});

describe("GraphQL budgets of apps and personal tokens (contract §18.4)", () => {
  it("charge an operation's cost before it runs, give back what it did not spend, and say so in extensions.cost", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read", "content:read"]);
    // exercises: 1 + 10 items × (content 1 + creator 1); scalars are free. None exist: the answer holds one object.
    const res = await graphql(t, "{ exercises(page: { size: 10 }) { content { id name creator { name } } } }", token);
    expect(res.body.data).toEqual({ exercises: { content: [] } });
    expect(res.body.extensions.cost).toEqual({
      requestedQueryCost: 21,
      actualQueryCost: 1,
      throttleStatus: { maximumAvailable: 30, currentlyAvailable: 29, restoreRate: 1 },
    });
    const read = await graphql(t, "{ me { id } rateLimit { limit cost remaining resetAt } }", token);
    expect(read.body.data.rateLimit).toEqual({ limit: 30, cost: 1, remaining: 28, resetAt: new Date(t.clock.now().getTime() + 2000).toISOString() });
  });

  it("refuse, unexecuted and on every instance, an operation the bucket cannot pay now, with THROTTLED and Retry-After", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read", "profile:write"]);
    const drained = await graphql(t, aliases(30), token);
    expect(drained.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(0);

    const refused = await graphql(other, 'mutation { updateProfile(input: { name: "Outro Nome" }) { name } }', token);
    expect(refused.status).toBe(200);
    expect(refused.retryAfter).toBe("1");
    expect(refused.body.data).toBeUndefined();
    expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: { code: "THROTTLED", status: 429 } })]);
    expect(refused.body.extensions.cost).toEqual({
      requestedQueryCost: 1,
      actualQueryCost: 0,
      throttleStatus: { maximumAvailable: 30, currentlyAvailable: 0, restoreRate: 1 },
    });
    expect((await t.get("/api/users/profile", { token: ana.token })).body.name).toBe(ana.user.name);

    // Restored at one point a second.
    t.clock.advance(5000);
    other.clock.set(t.clock.now());
    const later = await graphql(other, aliases(5), token);
    expect(later.body.errors).toBeUndefined();
    expect(later.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(0);
  });

  it("refuse an operation costing more than the bucket holds with MAX_COST_EXCEEDED, taking nothing", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const res = await graphql(t, aliases(31), token);
    expect(res.status).toBe(200);
    expect(res.body.errors).toEqual([expect.objectContaining({ extensions: { code: "MAX_COST_EXCEEDED", status: 429 } })]);
    expect(res.body.extensions.cost.throttleStatus.currentlyAvailable).toBe(30);
  });

  it("leave login tokens unbudgeted: no cost in the answer, rateLimit null", async () => {
    const ana = await makeTrainer(t);
    const res = await graphql(t, `${aliases(40).slice(0, -1)} rateLimit { limit } }`, ana.token);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.rateLimit).toBeNull();
    expect(res.body.extensions).toBeUndefined();
  });
});
