import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { appTokens, ISSUER, REDIRECT_URI, registerApp, tokenRequest } from "./oauth-client.js";
import { personalToken } from "./support.js";

const t = useTestApp({ PUBLIC_BASE_URL: ISSUER });
const other = useSecondInstance(t, { PUBLIC_BASE_URL: ISSUER });

const INVALID = { message: "Token inválido ou expirado", success: false };

describe("apps registered by users (contract §18.1)", () => {
  it("registers a confidential app with a secret shown once and stored sealed, a public one without", async () => {
    const ana = await makeTrainer(t);
    const created = await t.post("/api/developer/apps", {
      token: ana.token,
      body: { name: "Painel", redirectUris: ["https://painel.example.com/cb", "http://localhost:8080/cb"], scopes: ["profile:read"], confidential: true },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(Number),
      clientId: expect.stringMatching(/^app_[A-Za-z0-9_-]{22}$/),
      clientSecret: expect.stringMatching(/^[A-Za-z0-9_-]{43}$/),
      name: "Painel",
      redirectUris: ["https://painel.example.com/cb", "http://localhost:8080/cb"],
      scopes: ["profile:read"],
      confidential: true,
      trustedDocumentsOnly: false,
      createdAt: t.clock.now().toISOString(),
    });
    const { clientSecret, ...app } = created.body;
    expect(JSON.stringify(rowsOf(await t.db.execute(sql`select * from developer_apps`)))).not.toContain(clientSecret);
    expect((await t.get(`/api/developer/apps/${app.id}`, { token: ana.token })).body).toEqual(app);
    expect((await t.get("/api/developer/apps", { token: ana.token })).body).toEqual([app]);

    const spa = await registerApp(t, ana, { confidential: false });
    expect(spa).not.toHaveProperty("clientSecret");
  });

  it("refuses redirect URIs that are neither https nor loopback http, unknown scopes and empty names", async () => {
    const ana = await makeTrainer(t);
    for (const body of [
      { name: "x", redirectUris: ["http://painel.example.com/cb"], scopes: ["profile:read"], confidential: true },
      { name: "x", redirectUris: ["https://painel.example.com/cb#frag"], scopes: ["profile:read"], confidential: true },
      { name: "x", redirectUris: ["javascript:alert(1)"], scopes: ["profile:read"], confidential: true },
      { name: "x", redirectUris: [], scopes: ["profile:read"], confidential: true },
      { name: "x", redirectUris: ["https://a.example/cb"], scopes: ["root"], confidential: true },
      { name: " ", redirectUris: ["https://a.example/cb"], scopes: ["profile:read"], confidential: true },
      { name: "x", redirectUris: ["https://a.example/cb"], scopes: ["profile:read"] },
    ]) {
      expect((await t.post("/api/developer/apps", { token: ana.token, body, invalidRequest: true })).status, JSON.stringify(body)).toBe(400);
    }
    expect((await t.get("/api/developer/apps", { token: ana.token })).body).toEqual([]);
  });

  it("is the owner's alone: another user is 403, a missing app 404", async () => {
    const ana = await makeTrainer(t);
    const bia = await makeStudent(t);
    const app = await registerApp(t, ana);
    for (const [method, path] of [
      ["GET", `/api/developer/apps/${app.id}`],
      ["PATCH", `/api/developer/apps/${app.id}`],
      ["DELETE", `/api/developer/apps/${app.id}`],
      ["POST", `/api/developer/apps/${app.id}/rotate-secret`],
    ] as const) {
      const res = await t.request(method, path, { token: bia.token, body: method === "PATCH" ? { name: "meu" } : undefined });
      expect({ path, status: res.status, body: res.body }).toEqual({ path, status: 403, body: { message: "Acesso negado", success: false } });
    }
    const missing = await t.get("/api/developer/apps/999999", { token: ana.token });
    expect({ status: missing.status, body: missing.body }).toEqual({ status: 404, body: { message: "Aplicativo não encontrado", success: false } });
  });

  it("changes its name, redirect URIs and scopes; the scopes it registered bound what a user can grant it", async () => {
    const ana = await makeTrainer(t);
    const app = await registerApp(t, ana, { scopes: ["profile:read"] });
    const changed = await t.patch(`/api/developer/apps/${app.id}`, { token: ana.token, body: { name: "Planilha 2" } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ name: "Planilha 2", scopes: ["profile:read"], redirectUris: [REDIRECT_URI] });
    // Asking for more than it registered: what it registered is all it gets.
    const tokens = await appTokens(t, app, ana, "profile:read activity:read");
    expect(tokens.scope).toBe("profile:read");
    expect((await t.get("/api/personal/dashboard", { token: tokens.access_token })).status).toBe(403);
  });

  it("rotating the secret refuses the old one at the token endpoint at once", async () => {
    const ana = await makeTrainer(t);
    const app = await registerApp(t, ana);
    const rotated = await t.post(`/api/developer/apps/${app.id}/rotate-secret`, { token: ana.token });
    expect(rotated.status).toBe(200);
    expect(rotated.body.clientSecret).not.toBe(app.clientSecret);
    const refresh = { grant_type: "refresh_token", refresh_token: "whatever" };
    expect((await tokenRequest(t, app, refresh)).body.error).toBe("invalid_client");
    expect((await tokenRequest(t, { ...app, clientSecret: rotated.body.clientSecret }, refresh)).body.error).toBe("invalid_grant");
    const spa = await registerApp(t, ana, { confidential: false });
    expect((await t.post(`/api/developer/apps/${spa.id}/rotate-secret`, { token: ana.token })).status).toBe(400);
  });

  it("cannot be registered or managed with a personal token or an app's token", async () => {
    const ana = await makeTrainer(t);
    const pat = await personalToken(t, ana, ["profile:read", "profile:write", "content:write"]);
    const app = await registerApp(t, ana);
    const { access_token } = await appTokens(t, app, ana);
    for (const token of [pat, access_token]) {
      const res = await t.post("/api/developer/apps", {
        token,
        body: { name: "x", redirectUris: [REDIRECT_URI], scopes: ["profile:read"], confidential: false },
      });
      expect({ status: res.status, body: res.body }).toEqual({ status: 403, body: { message: "Escopo insuficiente", success: false } });
      expect((await t.post("/api/users/me/tokens", { token, body: { name: "x", scopes: ["profile:read"] } })).status).toBe(403);
    }
    expect((await t.get("/api/developer/apps", { token: ana.token })).body).toHaveLength(1);
  });

  it("holds at most 20 per user", async () => {
    const ana = await makeTrainer(t);
    const answers = await Promise.all(
      Array.from({ length: 24 }, (_, i) =>
        (i % 2 ? other : t).post("/api/developer/apps", {
          token: ana.token,
          body: { name: `a${i}`, redirectUris: [REDIRECT_URI], scopes: ["profile:read"], confidential: false },
        }),
      ),
    );
    expect(answers.filter((res) => res.status === 201)).toHaveLength(20);
    expect(answers.filter((res) => res.status === 409)).toHaveLength(4);
  });
});

describe("revoking an app's access", () => {
  it("a user's revocation refuses every token of that app for that user at once, on every instance", async () => {
    other.clock.set(t.clock.now());
    const owner = await makeTrainer(t);
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const app = await registerApp(t, owner);
    const anas = [await appTokens(t, app, ana), await appTokens(t, app, ana)];
    const bias = await appTokens(t, app, bia);
    for (const token of [...anas.map((tokens) => tokens.access_token), bias.access_token]) {
      expect((await t.get("/api/users/profile", { token })).status).toBe(200);
      expect((await other.get("/api/users/profile", { token })).status).toBe(200);
    }
    expect((await other.delete(`/api/users/me/authorizations/${app.clientId}`, { token: ana.token })).status).toBe(204);
    for (const app_ of [t, other]) {
      for (const { access_token } of anas) expect((await app_.get("/api/users/profile", { token: access_token })).body).toEqual(INVALID);
      expect((await app_.get("/api/users/profile", { token: bias.access_token })).status).toBe(200);
    }
    expect((await t.get("/api/users/me/authorizations", { token: ana.token })).body).toEqual([]);
    const again = await t.delete(`/api/users/me/authorizations/${app.clientId}`, { token: ana.token });
    expect({ status: again.status, body: again.body }).toEqual({ status: 404, body: { message: "Autorização não encontrada", success: false } });
    // Its refresh token went with it.
    expect((await tokenRequest(t, app, { grant_type: "refresh_token", refresh_token: anas[0]!.refresh_token ?? "none" })).body.error).toBe("invalid_grant");
  });

  it("deleting an app refuses every token it holds, for every user, on every instance", async () => {
    other.clock.set(t.clock.now());
    const owner = await makeTrainer(t);
    const ana = await makeStudent(t);
    const app = await registerApp(t, owner);
    const { access_token } = await appTokens(t, app, ana);
    expect((await other.get("/api/users/profile", { token: access_token })).status).toBe(200);
    expect((await t.delete(`/api/developer/apps/${app.id}`, { token: owner.token })).status).toBe(204);
    for (const app_ of [t, other]) expect((await app_.get("/api/users/profile", { token: access_token })).body).toEqual(INVALID);
    expect((await t.get(`/api/developer/apps/${app.id}`, { token: owner.token })).status).toBe(404);
  });

  it("webhook endpoints an app's token registered are that app's, for that user, and go when the user revokes it", async () => {
    const owner = await makeTrainer(t);
    const ana = await makeTrainer(t);
    const app = await registerApp(t, owner, { scopes: ["profile:read", "webhooks:manage"] });
    const { access_token } = await appTokens(t, app, ana, "webhooks:manage");
    const byApp = await t.post("/api/webhook-endpoints", { token: access_token, body: { url: "https://hooks.example.com/app", events: ["invite.updated"] } });
    expect(byApp.status).toBe(201);
    const byUser = await t.post("/api/webhook-endpoints", { token: ana.token, body: { url: "https://hooks.example.com/own", events: ["invite.updated"] } });
    const ids = (page: { body: { content: { id: number }[] } }) => page.body.content.map((endpoint) => endpoint.id).sort();

    // The user sees both; the app sees its own, and not the user's.
    expect(ids(await t.get("/api/webhook-endpoints", { token: ana.token }))).toEqual([byApp.body.id, byUser.body.id].sort());
    expect(ids(await t.get("/api/webhook-endpoints", { token: access_token }))).toEqual([byApp.body.id]);
    expect((await t.get(`/api/webhook-endpoints/${byUser.body.id}`, { token: access_token })).status).toBe(404);

    expect((await t.delete(`/api/users/me/authorizations/${app.clientId}`, { token: ana.token })).status).toBe(204);
    expect(ids(await t.get("/api/webhook-endpoints", { token: ana.token }))).toEqual([byUser.body.id]);
    expect(rowsOf(await t.db.execute(sql`select id from webhook_endpoints where client_id is not null`))).toEqual([]);
  });

  it("a refresh token sent twice at once, to two instances, leaves no token of its grant working", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const first = await appTokens(t, app, owner, "profile:read offline_access");
    const answers = await Promise.all(
      [t, other, t, other].map((instance) => tokenRequest(instance, app, { grant_type: "refresh_token", refresh_token: first.refresh_token! })),
    );
    const issued = answers.filter((answer) => answer.status === 200).map((answer) => answer.body.access_token as string);
    for (const token of [first.access_token, ...issued]) {
      for (const instance of [t, other]) expect((await instance.get("/api/users/profile", { token })).body).toEqual(INVALID);
    }
    expect((await t.get("/api/users/me/authorizations", { token: owner.token })).body).toEqual([]);
  });

  it("an account's export lists its apps and the authorizations it gave; its erasure leaves nothing of either", async () => {
    const ana = await makeTrainer(t);
    const bia = await makeStudent(t);
    const anasApp = await registerApp(t, ana);
    const othersApp = await registerApp(t, bia);
    const biaUsesAnasApp = await appTokens(t, anasApp, bia);
    const anaUsesOthersApp = await appTokens(t, othersApp, ana);

    const exported = await t.get("/api/users/me/export", { token: ana.token });
    expect(exported.body.developerApps).toEqual([expect.objectContaining({ clientId: anasApp.clientId, name: "Planilha do Treinador" })]);
    expect(exported.body.authorizations).toEqual([expect.objectContaining({ clientId: othersApp.clientId, scopes: ["profile:read"] })]);
    expect(JSON.stringify(exported.body)).not.toContain(anasApp.clientSecret);

    expect((await t.delete("/api/users/me", { token: ana.token, body: { password: ana.password } })).status).toBe(204);
    expect(rowsOf(await t.db.execute(sql`select model from oauth_payloads where account_id = ${ana.id}`))).toEqual([]);
    expect(rowsOf(await t.db.execute(sql`select id from developer_apps where user_id = ${ana.id}`))).toEqual([]);
    for (const token of [biaUsesAnasApp.access_token, anaUsesOthersApp.access_token]) {
      for (const instance of [t, other]) expect((await instance.get("/api/users/profile", { token })).status).toBe(401);
    }
    // The other app and its user are untouched.
    expect((await t.get(`/api/developer/apps/${othersApp.id}`, { token: bia.token })).status).toBe(200);
  });

  it("a refresh token another instance marked used between this one's read and its own mark revokes the grant", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const tokens = await appTokens(t, app, owner, "profile:read offline_access");
    // The other instance's mark lands first (an opaque refresh token's value is its id)…
    await t.db.execute(sql`update oauth_payloads set consumed_at = now() where model = 'RefreshToken' and id = ${tokens.refresh_token!}`);
    // …then this instance, having read it unused, marks it: it lost the race, so nothing of the grant holds.
    await t.app.services.oauth.provider.RefreshToken.adapter.consume(tokens.refresh_token!);
    for (const instance of [t, other]) expect((await instance.get("/api/users/profile", { token: tokens.access_token })).body).toEqual(INVALID);
    expect(rowsOf(await t.db.execute(sql`select model from oauth_payloads where grant_id is not null or model = 'Grant'`))).toEqual([]);
  });
});
