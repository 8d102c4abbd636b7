import { createHash } from "node:crypto";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeTrainer, makeStudent } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { personalToken } from "./support.js";

const t = useTestApp();
const other = useSecondInstance(t);

const INVALID = { message: "Token inválido ou expirado", success: false };
const INSUFFICIENT = { message: "Escopo insuficiente", success: false };

describe("personal access tokens (contract §18.3)", () => {
  it("are created with their scopes and expiry, shown once, stored only as a hash, and listed without the token", async () => {
    const ana = await makeTrainer(t);
    const created = await t.post("/api/users/me/tokens", { token: ana.token, body: { name: "Planilha", scopes: ["profile:read", "activity:read"] } });
    expect(created.status).toBe(201);
    const now = t.clock.now();
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: "Planilha",
      scopes: ["profile:read", "activity:read"],
      token: expect.stringMatching(/^fit_pat_[A-Za-z0-9_-]{40}$/),
      expiresAt: new Date(now.getTime() + 90 * 86_400_000).toISOString(),
      createdAt: now.toISOString(),
      lastUsedAt: null,
    });
    const { token, ...listed } = created.body;

    const stored = JSON.stringify(rowsOf(await t.db.execute(sql`select * from personal_access_tokens`)));
    expect(stored).not.toContain(token);
    expect(stored).toContain(createHash("sha256").update(token).digest("hex"));

    const list = await t.get("/api/users/me/tokens", { token: ana.token });
    expect(list.status).toBe(200);
    expect(list.body).toEqual([listed]);

    const week = await t.post("/api/users/me/tokens", { token: ana.token, body: { name: "Semana", scopes: ["content:read"], expiresInDays: 7 } });
    expect(week.body.expiresAt).toBe(new Date(now.getTime() + 7 * 86_400_000).toISOString());
  });

  it("refuses a token without name or scopes, with unknown or repeated scopes, or an expiry outside 1..365 days", async () => {
    const ana = await makeStudent(t);
    for (const body of [
      { scopes: ["profile:read"] },
      { name: "x", scopes: [] },
      { name: "x", scopes: ["admin"] },
      { name: "x", scopes: ["profile:read", "profile:read"] },
      { name: "x", scopes: ["profile:read"], expiresInDays: 0 },
      { name: "x", scopes: ["profile:read"], expiresInDays: 366 },
    ]) {
      const res = await t.post("/api/users/me/tokens", { token: ana.token, body, invalidRequest: true });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.get("/api/users/me/tokens", { token: ana.token })).body).toEqual([]);
  });

  it("sign requests as their user, within their scopes; lastUsedAt shows their use", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const profile = await t.get("/api/users/profile", { token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(ana.id);

    const refused = await t.get("/api/exercises/my-exercises", { token });
    expect({ status: refused.status, body: refused.body }).toEqual({ status: 403, body: INSUFFICIENT });
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="content:read"');

    // A write of another scope changes nothing.
    const write = await t.put("/api/users/profile", { token, body: { name: "Outro nome" } });
    expect(write.status).toBe(403);
    expect((await t.get("/api/users/profile", { token: ana.token })).body.name).toBe(ana.user.name);

    await expect.poll(async () => (await t.get("/api/users/me/tokens", { token: ana.token })).body[0].lastUsedAt).toBe(t.clock.now().toISOString());
  });

  it("never reach more than their user may: a student's token with every scope still cannot read another student", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const token = await personalToken(t, ana, ["profile:read", "students:read", "activity:read"]);
    expect((await t.get(`/api/users/${bia.id}`, { token })).status).toBe(403);
    expect((await t.get(`/api/trainings/executions/user/${bia.id}`, { token })).status).toBe(403);
  });

  it("cannot create personal tokens, list them, log out or refresh: those need a login session", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read", "profile:write", "content:read", "content:write"]);
    for (const [method, path, body] of [
      ["post", "/api/users/me/tokens", { name: "filho", scopes: ["profile:read"] }],
      ["get", "/api/users/me/tokens", undefined],
      ["post", "/api/users/logout", undefined],
      ["post", "/api/users/refresh-token", undefined],
      ["delete", "/api/users/me", { password: ana.password }],
    ] as const) {
      const res = await t.request(method.toUpperCase(), path, { token, body });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: INSUFFICIENT });
      expect(res.headers.get("www-authenticate")).toMatch(/^Bearer error="insufficient_scope"/);
    }
    expect((await t.get("/api/users/me/tokens", { token: ana.token })).body).toHaveLength(1);
    expect((await t.get("/api/users/profile", { token })).status).toBe(200);
  });

  it("are refused at once on every instance once deleted, and a deleted id is 404", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const [{ id }] = (await t.get("/api/users/me/tokens", { token: ana.token })).body;
    // Both instances have read it (and keep it).
    expect((await t.get("/api/users/profile", { token })).status).toBe(200);
    expect((await other.get("/api/users/profile", { token })).status).toBe(200);

    expect((await other.delete(`/api/users/me/tokens/${id}`, { token: ana.token })).status).toBe(204);
    for (const app of [t, other]) {
      const res = await app.get("/api/users/profile", { token });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID });
    }
    const again = await t.delete(`/api/users/me/tokens/${id}`, { token: ana.token });
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { message: "Token não encontrado", success: false } });
  });

  it("cannot be deleted by another user", async () => {
    const ana = await makeTrainer(t);
    const bia = await makeTrainer(t);
    await personalToken(t, ana, ["profile:read"]);
    const [{ id }] = (await t.get("/api/users/me/tokens", { token: ana.token })).body;
    expect((await t.delete(`/api/users/me/tokens/${id}`, { token: bia.token })).status).toBe(404);
    expect((await t.get("/api/users/me/tokens", { token: ana.token })).body).toHaveLength(1);
  });

  it("are refused once expired, on every instance", async () => {
    other.clock.set(t.clock.now());
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"], { expiresInDays: 1 });
    expect((await other.get("/api/users/profile", { token })).status).toBe(200);
    t.clock.advance(86_400_000);
    other.clock.set(t.clock.now());
    for (const app of [t, other]) expect((await app.get("/api/users/profile", { token })).body).toEqual(INVALID);
  });

  it("an unknown or mangled personal token is 401", async () => {
    for (const token of ["fit_pat_" + "a".repeat(40), "fit_pat_", "fit_pat_" + "x".repeat(5000)]) {
      const res = await t.get("/api/users/profile", { token });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: INVALID });
    }
  });

  it("holds at most 50 per user, even when created concurrently on two instances", async () => {
    const ana = await makeTrainer(t);
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        (i % 2 ? other : t).post("/api/users/me/tokens", { token: ana.token, body: { name: `t${i}`, scopes: ["profile:read"] } }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(50);
    expect(answers.filter((res) => res.status === 409).map((res) => res.body)).toEqual(
      Array.from({ length: 10 }, () => ({ message: "Limite de 50 tokens atingido", success: false })),
    );
    expect((await t.get("/api/users/me/tokens", { token: ana.token })).body).toHaveLength(50);
  });

  it("are part of the user's export (without the token) and erased with the account", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const exported = await t.get("/api/users/me/export", { token: ana.token });
    expect(exported.body.personalAccessTokens).toEqual([expect.objectContaining({ name: "ferramenta profile:read", scopes: ["profile:read"] })]);
    expect(JSON.stringify(exported.body)).not.toContain(token.slice(8));
    expect((await t.delete("/api/users/me", { token: ana.token, body: { password: ana.password } })).status).toBe(204);
    expect((await t.get("/api/users/profile", { token })).status).toBe(401);
    expect(rowsOf(await t.db.execute(sql`select id from personal_access_tokens`))).toEqual([]);
  });
});
