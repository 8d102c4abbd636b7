import { generateKeyPairSync } from "node:crypto";
import { eq } from "drizzle-orm";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { revokedTokens, users } from "../../src/tables/user.table.js";
import { DAY_MS } from "../../src/platform/dates.js";
import { TestApp, useTestApp, type RequestOptions } from "../helpers/test-app.js";
import { decodeJwt } from "../helpers/jwt.js";
import { makeTrainer, makeUser, type MadeUser } from "../factories/users.js";

const t = useTestApp();
/** A second instance of the service on the same database (same JWT secret), as in a scaled-out deployment. */
const other = new TestApp();
beforeAll(() => other.start());
afterAll(() => other.stop());

const INVALID = { message: "Token inválido ou expirado", success: false };

const bearer = (token: string) => ({ authorization: `Bearer ${token}` });
const secret = () => t.config.jwtSecret;
const claimsOf = (token: string) => decodeJwt(token).payload;
const unsigned = (header: object, payload: object) =>
  `${Buffer.from(JSON.stringify(header)).toString("base64url")}.${Buffer.from(JSON.stringify(payload)).toString("base64url")}.`;

/** Every authenticated REST endpoint there is, called for `user` with the given headers. */
function authenticatedCalls(user: MadeUser): Array<[string, (headers: Record<string, string>) => RequestOptions & { method: string; url: string }]> {
  const photo = () => {
    const form = new FormData();
    form.append("file", new Blob([Buffer.from("GIF89a")], { type: "image/gif" }), "a.gif");
    return form;
  };
  return [
    ["GET /api/users/profile", (headers) => ({ method: "GET", url: "/api/users/profile", headers })],
    ["PUT /api/users/profile", (headers) => ({ method: "PUT", url: "/api/users/profile", headers, body: { name: "Hacked" } })],
    ["GET /api/users/{id}", (headers) => ({ method: "GET", url: `/api/users/${user.id}`, headers })],
    ["PATCH /api/users/{id}", (headers) => ({ method: "PATCH", url: `/api/users/${user.id}`, headers, body: { name: "Hacked" } })],
    ["POST /api/users/{id}/update-profile-photo", (headers) => ({ method: "POST", url: `/api/users/${user.id}/update-profile-photo`, headers, raw: photo() })],
    ["POST /api/users/refresh-token", (headers) => ({ method: "POST", url: "/api/users/refresh-token", headers })],
    ["POST /api/users/logout", (headers) => ({ method: "POST", url: "/api/users/logout", headers })],
  ];
}

/** Asserts that every authenticated endpoint answers 401 to these headers and that nothing changed. */
async function expectRefusedEverywhere(user: MadeUser, headers: Record<string, string>) {
  const [before] = await t.db.select().from(users).where(eq(users.id, user.id));
  const revokedBefore = await t.db.select().from(revokedTokens);
  for (const [name, call] of authenticatedCalls(user)) {
    const { method, url, ...options } = call(headers);
    const res = await t.request(method, url, options);
    expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 401, body: INVALID });
  }
  const [after] = await t.db.select().from(users).where(eq(users.id, user.id));
  expect(after).toEqual(before);
  expect(await t.db.select().from(revokedTokens)).toEqual(revokedBefore);
}

describe("access tokens", () => {
  it("carry sub, name, email, userType, iat, exp 24 hours later and a jti, signed HS256", async () => {
    const ana = await makeUser(t, { name: "Ana Souza", email: "ana@example.com", userType: "PERSONAL" });
    const { header, payload } = decodeJwt(ana.token);
    expect(header).toMatchObject({ alg: "HS256", typ: "JWT" });
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    expect(payload).toMatchObject({
      sub: String(ana.id),
      name: "Ana Souza",
      email: "ana@example.com",
      userType: "PERSONAL",
      iat,
      exp: iat + 86400,
      jti: expect.stringMatching(/^\S{16,}$/),
    });
    expect(payload).not.toHaveProperty("role");
    expect(payload).not.toHaveProperty("password");
    expect(() => jwt.verify(ana.token, secret(), { algorithms: ["HS256"], clockTimestamp: iat })).not.toThrow();
  });

  it("get a different jti at every login", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const logins = await Promise.all([1, 2, 3].map(() => t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } })));
    const jtis = new Set([ana.token, ...logins.map((r) => r.body.token)].map((token) => claimsOf(token).jti));
    expect(jtis.size).toBe(4);
  });

  it("carry role ADMIN for an administrator only", async () => {
    const boss = await makeUser(t, { email: "boss@example.com", password: "segredo1" });
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    // What `npm run admin -- grant boss@example.com` does.
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, boss.id));
    const bossLogin = await t.post("/api/users/login", { body: { email: "boss@example.com", password: "segredo1" } });
    const anaLogin = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
    expect(claimsOf(bossLogin.body.token)).toMatchObject({ sub: String(boss.id), role: "ADMIN", userType: "ALUNO" });
    expect(claimsOf(anaLogin.body.token)).toMatchObject({ sub: String(ana.id) });
    expect(claimsOf(anaLogin.body.token)).not.toHaveProperty("role");
    const refreshed = await t.post("/api/users/refresh-token", { token: bossLogin.body.token });
    expect(claimsOf(refreshed.body.token).role).toBe("ADMIN");
  });

  it("are accepted with the scheme in any letter case", async () => {
    const ana = await makeUser(t);
    for (const authorization of [`bearer ${ana.token}`, `BEARER ${ana.token}`]) {
      const res = await t.get("/api/users/profile", { headers: { authorization } });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(ana.id);
    }
  });

  it("keep working until just before 24 hours have passed", async () => {
    const ana = await makeUser(t);
    t.clock.advance(DAY_MS - 1000);
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(200);
    t.clock.advance(1000);
    const res = await t.get("/api/users/profile", { token: ana.token });
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
  });
});

describe("every authenticated endpoint answers 401 Token inválido ou expirado", () => {
  it("without an Authorization header", async () => {
    const ana = await makeUser(t);
    await expectRefusedEverywhere(ana, {});
  });

  it.each([
    ["garbage after Bearer", "Bearer not-a-jwt"],
    ["three garbage parts", "Bearer aaa.bbb.ccc"],
    ["a bare Bearer", "Bearer"],
    ["Bearer and spaces", "Bearer    "],
    ["another scheme", "Basic YW5hOnNlZ3JlZG8x"],
    ["two tokens", "Bearer a.b.c d.e.f"],
  ])("with %s", async (_label, authorization) => {
    const ana = await makeUser(t);
    await expectRefusedEverywhere(ana, { authorization });
  });

  it("with a token signed with another secret", async () => {
    const ana = await makeUser(t);
    const { iat: _iat, exp: _exp, ...claims } = claimsOf(ana.token);
    const forged = jwt.sign(claims, "some-other-secret-that-is-long-enough-0123456789", { algorithm: "HS256", expiresIn: 3600 });
    await expectRefusedEverywhere(ana, bearer(forged));
  });

  it("with a token whose claims were altered after signing", async () => {
    const boss = await makeUser(t);
    const ana = await makeUser(t);
    const [header, , signature] = ana.token.split(".");
    const altered = Buffer.from(JSON.stringify({ ...claimsOf(ana.token), sub: String(boss.id), role: "ADMIN" })).toString("base64url");
    await expectRefusedEverywhere(boss, bearer(`${header}.${altered}.${signature}`));
  });

  it("with an unsigned alg none token", async () => {
    const ana = await makeUser(t);
    const claims = claimsOf(ana.token);
    await expectRefusedEverywhere(ana, bearer(unsigned({ alg: "none", typ: "JWT" }, claims)));
    await expectRefusedEverywhere(ana, bearer(unsigned({ alg: "NONE", typ: "JWT" }, claims)));
  });

  it("with an HS512 token signed with the right secret and otherwise valid claims", async () => {
    const ana = await makeUser(t);
    const forged = jwt.sign(claimsOf(ana.token), secret(), { algorithm: "HS512" });
    await expectRefusedEverywhere(ana, bearer(forged));
  });

  it("with an RS256 token with otherwise valid claims", async () => {
    const ana = await makeUser(t);
    const { privateKey } = generateKeyPairSync("rsa", { modulusLength: 2048 });
    const forged = jwt.sign(claimsOf(ana.token), privateKey, { algorithm: "RS256" });
    await expectRefusedEverywhere(ana, bearer(forged));
  });

  it("with a token carrying only the claims of api-spec.md, even signed with the right secret", async () => {
    const ana = await makeUser(t);
    const { sub, name, email, userType, iat, exp } = claimsOf(ana.token);
    const forged = jwt.sign({ sub, name, email, userType, iat, exp }, secret(), { algorithm: "HS256" });
    await expectRefusedEverywhere(ana, bearer(forged));
  });

  it("with an expired token", async () => {
    const ana = await makeUser(t);
    t.clock.advance(DAY_MS + 1000);
    await expectRefusedEverywhere(ana, bearer(ana.token));
  });

  it("with a token after logout", async () => {
    const ana = await makeUser(t);
    expect((await t.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    await expectRefusedEverywhere(ana, bearer(ana.token));
  });

  it("with the old token after a refresh, while the new token works", async () => {
    const ana = await makeUser(t);
    const refreshed = await t.post("/api/users/refresh-token", { token: ana.token });
    expect(refreshed.status).toBe(200);
    await expectRefusedEverywhere(ana, bearer(ana.token));
    const profile = await t.get("/api/users/profile", { token: refreshed.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(ana.id);
  });

  it("with a token of a user that no longer exists", async () => {
    const ana = await makeUser(t);
    const bia = await makeUser(t);
    await t.db.delete(users).where(eq(users.id, ana.id));
    for (const [name, call] of authenticatedCalls(bia)) {
      const { method, url, ...options } = call(bearer(ana.token));
      const res = await t.request(method, url, options);
      expect({ name, status: res.status, body: res.body }).toEqual({ name, status: 401, body: INVALID });
    }
    expect(await t.db.select().from(revokedTokens)).toEqual([]);
  });
});

describe("POST /api/users/refresh-token", () => {
  it("answers 200 with a new token and revokes the one presented until its expiry", async () => {
    const ana = await makeUser(t, { name: "Ana", email: "ana@example.com" });
    const old = claimsOf(ana.token);
    t.clock.advance(60 * 60 * 1000);
    const res = await t.post("/api/users/refresh-token", { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ token: expect.any(String), success: true });

    const fresh = claimsOf(res.body.token);
    const iat = Math.floor(t.clock.now().getTime() / 1000);
    expect(fresh).toMatchObject({ sub: String(ana.id), name: "Ana", email: "ana@example.com", userType: "ALUNO", iat, exp: iat + 86400 });
    expect(fresh.jti).not.toBe(old.jti);

    const revoked = await t.db.select().from(revokedTokens);
    expect(revoked).toEqual([{ jti: old.jti, userId: ana.id, expiresAt: new Date(old.exp * 1000) }]);
  });

  it("gives a token that outlives the one it replaces", async () => {
    const ana = await makeUser(t);
    t.clock.advance(23 * 60 * 60 * 1000);
    const res = await t.post("/api/users/refresh-token", { token: ana.token });
    t.clock.advance(2 * 60 * 60 * 1000);
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(401);
    expect((await t.get("/api/users/profile", { token: res.body.token })).status).toBe(200);
  });

  it("carries the user's current name and type", async () => {
    const ana = await makeTrainer(t, { name: "Ana" });
    await t.patch(`/api/users/${ana.id}`, { token: ana.token, body: { name: "Ana Souza" } });
    const res = await t.post("/api/users/refresh-token", { token: ana.token });
    expect(claimsOf(res.body.token)).toMatchObject({ name: "Ana Souza", userType: "PERSONAL" });
  });

  it("answers 401 without a token, with an expired one, and to a second refresh of the same token", async () => {
    const ana = await makeUser(t);
    expect((await t.post("/api/users/refresh-token")).body).toEqual(INVALID);
    const first = await t.post("/api/users/refresh-token", { token: ana.token });
    expect(first.status).toBe(200);
    const second = await t.post("/api/users/refresh-token", { token: ana.token });
    expect(second.status).toBe(401);
    expect(second.body).toEqual(INVALID);
    t.clock.advance(DAY_MS + 1000);
    const expired = await t.post("/api/users/refresh-token", { token: first.body.token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual(INVALID);
    expect(await t.db.select().from(revokedTokens)).toHaveLength(1);
  });

  it("gives one new token only when the same token is refreshed several times at once", async () => {
    const ana = await makeUser(t);
    const results = await Promise.all([1, 2, 3, 4].map(() => t.post("/api/users/refresh-token", { token: ana.token })));
    expect(results.map((r) => r.status).sort()).toEqual([200, 401, 401, 401]);
    for (const refused of results.filter((r) => r.status === 401)) expect(refused.body).toEqual(INVALID);
    expect(await t.db.select().from(revokedTokens)).toHaveLength(1);
  });

  it("leaves the user's other sessions alone", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const other = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
    await t.post("/api/users/refresh-token", { token: ana.token });
    expect((await t.get("/api/users/profile", { token: other.body.token })).status).toBe(200);
  });
});

describe("POST /api/users/logout", () => {
  it("answers 200 and revokes the token until its expiry", async () => {
    const ana = await makeUser(t);
    const claims = claimsOf(ana.token);
    const res = await t.post("/api/users/logout", { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), success: true });
    expect(res.body.message.length).toBeGreaterThan(0);

    const revoked = await t.db.select().from(revokedTokens);
    expect(revoked).toEqual([{ jti: claims.jti, userId: ana.id, expiresAt: new Date(claims.exp * 1000) }]);
    const profile = await t.get("/api/users/profile", { token: ana.token });
    expect(profile.status).toBe(401);
    expect(profile.body).toEqual(INVALID);
  });

  it("answers 401 without a token and writes nothing", async () => {
    const res = await t.post("/api/users/logout");
    expect(res.status).toBe(401);
    expect(res.body).toEqual(INVALID);
    expect(await t.db.select().from(revokedTokens)).toEqual([]);
  });

  it("answers 401 to a second logout with the same token", async () => {
    const ana = await makeUser(t);
    expect((await t.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    const again = await t.post("/api/users/logout", { token: ana.token });
    expect(again.status).toBe(401);
    expect(again.body).toEqual(INVALID);
    expect(await t.db.select().from(revokedTokens)).toHaveLength(1);
  });

  it("ends only that session: the user's other tokens and other users keep working", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const bia = await makeUser(t);
    const second = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
    await t.post("/api/users/logout", { token: ana.token });
    expect((await t.get("/api/users/profile", { token: second.body.token })).status).toBe(200);
    expect((await t.get("/api/users/profile", { token: bia.token })).status).toBe(200);
  });

  it("does not stop the user from logging in again", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    await t.post("/api/users/logout", { token: ana.token });
    const res = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
    expect(res.status).toBe(200);
    expect((await t.get("/api/users/profile", { token: res.body.token })).status).toBe(200);
  });

  it("is honoured by another instance on the same database", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const second = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "segredo1" } });
    expect((await other.get("/api/users/profile", { token: ana.token })).status).toBe(200);
    await t.post("/api/users/logout", { token: ana.token });
    const profile = await other.get("/api/users/profile", { token: ana.token });
    expect(profile.status).toBe(401);
    expect(profile.body).toEqual(INVALID);
    // And the other way round: a refresh on the second instance revokes the token on the first.
    const refreshed = await other.post("/api/users/refresh-token", { token: second.body.token });
    expect(refreshed.status).toBe(200);
    expect((await t.get("/api/users/profile", { token: second.body.token })).status).toBe(401);
    expect((await t.get("/api/users/profile", { token: refreshed.body.token })).status).toBe(200);
  });

  it("forgets a revocation once the token would have expired anyway", async () => {
    const ana = await makeUser(t);
    const bia = await makeUser(t);
    await t.post("/api/users/logout", { token: ana.token });
    t.clock.advance(12 * 60 * 60 * 1000);
    const later = await t.post("/api/users/refresh-token", { token: bia.token });
    await t.post("/api/users/logout", { token: later.body.token });
    t.clock.advance(12 * 60 * 60 * 1000 + 1000);
    await t.app.services.auth.purgeExpiredRevocations();
    // ana's token and bia's first token (refreshed) expired a second ago; the later one lives 12 more hours.
    const left = await t.db.select().from(revokedTokens);
    expect(left.map((row) => row.jti)).toEqual([claimsOf(later.body.token).jti]);
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(401);
    expect((await t.get("/api/users/profile", { token: later.body.token })).status).toBe(401);
  });
});
