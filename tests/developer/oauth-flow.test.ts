import { describe, expect, it } from "vitest";
import { makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { authorize, authorizationUrl, Browser, ISSUER, pkcePair, REDIRECT_URI, registerApp, tokenRequest } from "./oauth-client.js";

const t = useTestApp({ PUBLIC_BASE_URL: ISSUER });

describe("the authorization-code flow, as a tool runs it (contract §18.1)", () => {
  it("discovery names the issuer and every endpoint, at both well-known addresses", async () => {
    const openid = await fetch(`${t.baseUrl}/.well-known/openid-configuration`).then((res) => res.json() as Promise<Record<string, any>>);
    expect(openid).toMatchObject({
      issuer: ISSUER,
      authorization_endpoint: `${ISSUER}/oauth/auth`,
      token_endpoint: `${ISSUER}/oauth/token`,
      revocation_endpoint: `${ISSUER}/oauth/revoke`,
      introspection_endpoint: `${ISSUER}/oauth/introspect`,
      jwks_uri: `${ISSUER}/oauth/jwks`,
      code_challenge_methods_supported: ["S256"],
      response_types_supported: ["code"],
    });
    expect(openid.grant_types_supported).toEqual(expect.arrayContaining(["authorization_code", "refresh_token"]));
    expect(openid.grant_types_supported).not.toContain("implicit");
    expect(openid.grant_types_supported).not.toContain("password");
    const oauth = await fetch(`${t.baseUrl}/.well-known/oauth-authorization-server`).then((res) => res.json() as Promise<Record<string, any>>);
    expect(oauth.issuer).toBe(ISSUER);
    expect(oauth.token_endpoint).toBe(openid.token_endpoint);
    const jwks = await fetch(`${t.baseUrl}/oauth/jwks`).then((res) => res.json() as Promise<Record<string, any>>);
    expect(jwks.keys).toEqual([expect.objectContaining({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" })]);
    expect(jwks.keys[0]).not.toHaveProperty("d");
  });

  it("logs in, asks consent naming the app and its scopes, and gives a code the app trades for scoped tokens", async () => {
    const owner = await makeTrainer(t);
    const user = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const { verifier, challenge } = pkcePair();
    const browser = new Browser(t);
    const { loginPage, consentPage, redirect } = await authorize(browser, app, user, "profile:read activity:read offline_access", challenge);
    expect(loginPage.html).toContain('name="email"');
    expect(loginPage.html).toContain('name="password"');
    expect(consentPage.html).toContain("Planilha do Treinador");
    expect(consentPage.html).toContain("ver seu perfil");
    expect(consentPage.html).toContain("ver execuções, estatísticas, progresso, recordes e adesão");
    expect(consentPage.html).toContain('name="decision" value="approve"');
    expect(`${redirect.origin}${redirect.pathname}`).toBe(REDIRECT_URI);
    expect(redirect.searchParams.get("state")).toBe("estado-123");
    const code = redirect.searchParams.get("code")!;

    const tokens = await tokenRequest(t, app, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(tokens.status).toBe(200);
    expect(tokens.body).toMatchObject({ token_type: "Bearer", expires_in: 3600, access_token: expect.any(String), refresh_token: expect.any(String) });
    // The access token's scope is the API's; offline_access gave the refresh token.
    expect(tokens.body.scope.split(" ").sort()).toEqual(["activity:read", "profile:read"]);

    const token = tokens.body.access_token;
    const profile = await t.get("/api/users/profile", { token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(user.id);
    expect((await t.get("/api/personal/dashboard", { token })).status).toBe(200);
    const refused = await t.get("/api/exercises/my-exercises", { token });
    expect(refused.status).toBe(403);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer error="insufficient_scope", scope="content:read"');
    expect((await t.graphql("{ me { id } }", {}, token)).data).toEqual({ me: { id: user.id } });

    const authorizations = await t.get("/api/users/me/authorizations", { token: user.token });
    expect(authorizations.body).toEqual([
      {
        clientId: app.clientId,
        appName: "Planilha do Treinador",
        scopes: expect.arrayContaining(["profile:read", "activity:read"]),
        grantedAt: expect.any(String),
        lastUsedAt: expect.any(String),
      },
    ]);
    // The code is single-use: played again, it revokes what it gave.
    const again = await tokenRequest(t, app, { grant_type: "authorization_code", code, redirect_uri: REDIRECT_URI, code_verifier: verifier });
    expect(again.body.error).toBe("invalid_grant");

    expect((await t.get("/api/users/profile", { token })).status).toBe(401);
  });

  it("rotates the refresh token at each use; a reused one revokes the whole grant", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const { verifier, challenge } = pkcePair();
    const { redirect } = await authorize(new Browser(t), app, owner, "profile:read offline_access", challenge);
    const first = await tokenRequest(t, app, {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    const second = await tokenRequest(t, app, { grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(second.status).toBe(200);
    expect(second.body.refresh_token).not.toBe(first.body.refresh_token);
    expect((await t.get("/api/users/profile", { token: second.body.access_token })).status).toBe(200);

    const reused = await tokenRequest(t, app, { grant_type: "refresh_token", refresh_token: first.body.refresh_token });
    expect(reused.body.error).toBe("invalid_grant");
    for (const token of [first.body.access_token, second.body.access_token]) {
      expect((await t.get("/api/users/profile", { token })).body).toEqual({ message: "Token inválido ou expirado", success: false });
    }
    expect((await tokenRequest(t, app, { grant_type: "refresh_token", refresh_token: second.body.refresh_token })).body.error).toBe("invalid_grant");
  });

  it("refuses an authorization request without PKCE or with plain PKCE, and an implicit one", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const browser = new Browser(t);
    for (const extra of [{ code_challenge: "", code_challenge_method: "" }, { code_challenge_method: "plain" }, { response_type: "token" }]) {
      const url = new URL(authorizationUrl(app, "profile:read", pkcePair().challenge, {}), ISSUER);
      for (const [name, value] of Object.entries(extra)) {
        if (value === "") url.searchParams.delete(name);
        else url.searchParams.set(name, value);
      }
      const answer = await browser.fetch(url.pathname + url.search);
      const error = answer.location ? new URL(answer.location).searchParams.get("error") : answer.html;
      expect(String(error) + answer.location, JSON.stringify(extra)).toMatch(/invalid_request|unsupported_response_type|invalid_request_object/);
    }
  });

  it("deny redirects with error=access_denied and issues nothing", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const { redirect } = await authorize(new Browser(t), app, owner, "profile:read", pkcePair().challenge, "deny");
    expect(redirect.searchParams.get("error")).toBe("access_denied");
    expect(redirect.searchParams.get("code")).toBeNull();
    expect((await t.get("/api/users/me/authorizations", { token: owner.token })).body).toEqual([]);
  });

  it("a login form without its CSRF token, or with another's, changes nothing", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const browser = new Browser(t);
    const page = await browser.follow(authorizationUrl(app, "profile:read", pkcePair().challenge));
    const action = /action="([^"]+)"/.exec(page.html)![1]!;
    for (const csrf of ["", "forjado"]) {
      const answer = await browser.fetch(action, { method: "POST", form: { email: owner.email, password: owner.password, csrf } });
      expect(answer.status).toBe(403);
      expect(answer.html).toContain("Formulário inválido");
    }
  });

  it("revokes tokens (RFC 7009) and introspects them for the confidential app that holds them (RFC 7662)", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const { verifier, challenge } = pkcePair();
    const { redirect } = await authorize(new Browser(t), app, owner, "profile:read", challenge);
    const tokens = await tokenRequest(t, app, {
      grant_type: "authorization_code",
      code: redirect.searchParams.get("code")!,
      redirect_uri: REDIRECT_URI,
      code_verifier: verifier,
    });
    const basic = `Basic ${Buffer.from(`${app.clientId}:${app.clientSecret}`).toString("base64")}`;
    const introspect = () =>
      fetch(`${t.baseUrl}/oauth/introspect`, {
        method: "POST",
        headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({ token: tokens.body.access_token }),
      }).then((res) => res.json() as Promise<Record<string, any>>);
    expect(await introspect()).toMatchObject({ active: true, client_id: app.clientId, sub: String(owner.id), scope: "profile:read" });

    const revoked = await fetch(`${t.baseUrl}/oauth/revoke`, {
      method: "POST",
      headers: { authorization: basic, "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: tokens.body.access_token }),
    });
    expect(revoked.status).toBe(200);
    expect(await introspect()).toEqual({ active: false });
    expect((await t.get("/api/users/profile", { token: tokens.body.access_token })).status).toBe(401);
  });
});

describe("the authorization server under hostile input", () => {
  it("answers a client's mistakes with 4xx, never 500, and an unknown bearer token with 401", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const answers: [string, number][] = [];
    const send = async (label: string, path: string, init: RequestInit = {}) =>
      answers.push([label, (await fetch(`${t.baseUrl}${path}`, { ...init, redirect: "manual" })).status]);
    const form = (body: Record<string, string>) => ({
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams(body),
    });
    await send("token, no client", "/oauth/token", form({ grant_type: "authorization_code", code: "x" }));
    await send("token, unknown grant", "/oauth/token", form({ grant_type: "password", client_id: app.clientId, username: "a", password: "b" }));
    await send("token, garbage body", "/oauth/token", { method: "POST", headers: { "content-type": "application/json" }, body: "{" });
    await send("auth, unknown client", `/oauth/auth?response_type=code&client_id=${"x".repeat(5000)}&redirect_uri=${encodeURIComponent(REDIRECT_URI)}`);
    await send("auth, no parameters", "/oauth/auth");
    await send("introspect, no client", "/oauth/introspect", form({ token: "x" }));
    await send("revoke, no client", "/oauth/revoke", form({ token: "x" }));
    await send("interaction, no cookie", "/oauth/interaction/abc");
    await send("interaction login, no cookie", "/oauth/interaction/abc/login", form({ email: "a@b.c", password: "x", csrf: "x" }));
    await send("interaction confirm, no cookie", "/oauth/interaction/abc/confirm", form({ decision: "approve", csrf: "x" }));
    for (const [label, status] of answers) expect({ label, status: status >= 400 && status < 500 }).toEqual({ label, status: true });

    for (const token of ["opaco-desconhecido", "x".repeat(4000), "a-b_c"]) {
      const res = await t.get("/api/users/profile", { token });
      expect({ status: res.status, body: res.body }).toEqual({ status: 401, body: { message: "Token inválido ou expirado", success: false } });
      expect((await t.graphql("{ me { id } }", {}, token)).errors?.[0]?.extensions.code).toBe("UNAUTHENTICATED");
    }
  });
});
