import { eq } from "drizzle-orm";
import { SignJWT } from "jose";
import { afterAll, describe, expect, it } from "vitest";
import { users } from "../../src/tables/user.table.js";
import { startJwksServer } from "../helpers/jwks-server.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent, makeTrainer } from "../factories/users.js";

const PROJECT = "fitness-test";
// The key server must be up before useTestApp's beforeAll reads the environment.
const jwks = await startJwksServer(PROJECT);
const t = useTestApp({ FIREBASE_PROJECT_ID: PROJECT, FIREBASE_JWKS_URL: jwks.url });
afterAll(() => jwks.stop());

const INVALID_PROVIDER_TOKEN = { message: "Token do provedor de identidade inválido", success: false };
const HOUR = 3600;

const firebaseLogin = (firebaseToken: unknown) => t.post("/api/users/firebase-login", { body: { firebaseToken } });

function base64url(value: object): string {
  return Buffer.from(JSON.stringify(value)).toString("base64url");
}

describe("POST /api/users/firebase-login", () => {
  it("answers 200 with the user, a token and the user id for a valid ID token of a registered e-mail", async () => {
    const student = await makeStudent(t, { name: "Fernanda Alves", email: "fernanda@example.com" });
    const res = await firebaseLogin(await jwks.idToken("fernanda@example.com"));
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: student.user, token: expect.any(String), userId: student.id, success: true });
    expect(res.body.token.split(".")).toHaveLength(3);
  });

  it("answers with a service token that opens the profile", async () => {
    const trainer = await makeTrainer(t, { email: "treinador@example.com" });
    const res = await firebaseLogin(await jwks.idToken("treinador@example.com"));
    expect(res.status).toBe(200);
    const profile = await t.get("/api/users/profile", { token: res.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual({ ...trainer.user, userType: "PERSONAL" });
  });

  it("finds the user whatever the letter case of the e-mail claim", async () => {
    const student = await makeStudent(t, { email: "gabriel@example.com" });
    const res = await firebaseLogin(await jwks.idToken("Gabriel@EXAMPLE.com"));
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(student.id);
  });

  it("issues a service token for the administrator role too", async () => {
    const admin = await makeStudent(t, { email: "chefe@example.com" });
    await t.db.update(users).set({ isAdmin: true }).where(eq(users.id, admin.id));
    const res = await firebaseLogin(await jwks.idToken("chefe@example.com"));
    expect(res.status).toBe(200);
    const claims = JSON.parse(Buffer.from(res.body.token.split(".")[1], "base64url").toString());
    expect(claims).toMatchObject({ sub: String(admin.id), email: "chefe@example.com", role: "ADMIN" });
  });

  it("answers 404 Usuário não encontrado for a valid ID token of an e-mail nobody registered", async () => {
    await makeStudent(t, { email: "alguem@example.com" });
    const res = await firebaseLogin(await jwks.idToken("ninguem@example.com"));
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
  });

  it.each([
    ["signed by another key", () => jwks.idToken("hugo@example.com", { foreignKey: true })],
    ["naming a key the set does not have", () => jwks.idToken("hugo@example.com", { kid: "unknown-kid" })],
    ["from another issuer", () => jwks.idToken("hugo@example.com", { claims: { iss: "https://securetoken.google.com/other-project" } })],
    ["from a look-alike issuer", () => jwks.idToken("hugo@example.com", { claims: { iss: `https://evil.example/${PROJECT}` } })],
    ["for another audience", () => jwks.idToken("hugo@example.com", { claims: { aud: "other-project" } })],
    ["with no audience", () => jwks.idToken("hugo@example.com", { claims: { aud: undefined } })],
    ["that has expired", () => jwks.idToken("hugo@example.com", { issuedAt: new Date(Date.now() - 2 * HOUR * 1000), ttlSeconds: HOUR })],
    ["with no exp claim", () => jwks.idToken("hugo@example.com", { claims: { exp: undefined } })],
    ["with no sub claim", () => jwks.idToken("hugo@example.com", { claims: { sub: undefined } })],
    ["with no email claim", () => jwks.idToken(undefined)],
    ["with an empty email claim", () => jwks.idToken("")],
    ["with a non-string email claim", () => jwks.idToken(undefined, { claims: { email: ["hugo@example.com"] } })],
    ["whose provider says the e-mail is unverified", () => jwks.idToken("hugo@example.com", { claims: { email_verified: false } })],
  ])("answers 400 to an ID token %s", async (_label, makeToken) => {
    await makeStudent(t, { email: "hugo@example.com" });
    const res = await firebaseLogin(await makeToken());
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
    // The same user with a sound token gets in: the 400 is the defect's doing.
    expect((await firebaseLogin(await jwks.idToken("hugo@example.com"))).status).toBe(200);
  });

  it("answers 400 to an HS256 token, even one keyed with the project's published key material", async () => {
    await makeStudent(t, { email: "ines@example.com" });
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: jwks.issuer, aud: PROJECT, sub: "uid", email: "ines@example.com", iat: now, exp: now + HOUR };
    const hs256 = await new SignJWT(claims)
      .setProtectedHeader({ alg: "HS256", kid: jwks.kid })
      .sign(new TextEncoder().encode("a-shared-secret-that-is-long-enough-0123456789"));
    const res = await firebaseLogin(hs256);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
  });

  it("answers 400 to an unsigned (alg none) token", async () => {
    await makeStudent(t, { email: "joao@example.com" });
    const now = Math.floor(Date.now() / 1000);
    const claims = { iss: jwks.issuer, aud: PROJECT, sub: "uid", email: "joao@example.com", iat: now, exp: now + HOUR };
    const res = await firebaseLogin(`${base64url({ alg: "none", typ: "JWT" })}.${base64url(claims)}.`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
  });

  it("answers 400 to an ID token whose payload was altered after signing", async () => {
    await makeStudent(t, { email: "karla@example.com" });
    await makeStudent(t, { email: "vitima@example.com" });
    const [header, payload, signature] = (await jwks.idToken("karla@example.com")).split(".");
    const altered = { ...JSON.parse(Buffer.from(payload, "base64url").toString()), email: "vitima@example.com" };
    const res = await firebaseLogin(`${header}.${base64url(altered)}.${signature}`);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
  });

  it("answers 400 to the service's own access token", async () => {
    const student = await makeStudent(t);
    const res = await firebaseLogin(student.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
  });

  it.each([["garbage"], ["a.b.c"], ["not a token at all"], ["eyJhbGciOiJSUzI1NiJ9"]])("answers 400 to the string %j", async (token) => {
    const res = await firebaseLogin(token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_PROVIDER_TOKEN);
  });

  it.each([
    ["a missing firebaseToken", {}],
    ["a blank firebaseToken", { firebaseToken: "   " }],
    ["a numeric firebaseToken", { firebaseToken: 42 }],
    ["a null firebaseToken", { firebaseToken: null }],
    ["an 8193-character firebaseToken", { firebaseToken: "x".repeat(8193) }],
  ])("answers 400 Validation failed on firebaseToken for %s", async (_label, body) => {
    const res = await t.post("/api/users/firebase-login", { invalidRequest: true, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "firebaseToken", message: expect.any(String) }] });
  });

  it("fetches the key set once and reuses it across logins", async () => {
    await makeStudent(t, { email: "lara@example.com" });
    await firebaseLogin(await jwks.idToken("lara@example.com"));
    const fetched = jwks.requests;
    expect(fetched).toBeGreaterThanOrEqual(1);
    for (let i = 0; i < 3; i += 1) expect((await firebaseLogin(await jwks.idToken("lara@example.com"))).status).toBe(200);
    expect(jwks.requests).toBe(fetched);
  });
});
