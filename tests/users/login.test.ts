import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { revokedTokens, users } from "../../src/tables/user.table.js";
import { useTestApp } from "../helpers/test-app.js";
import { decodeJwt } from "../helpers/jwt.js";
import { rowsOf } from "../helpers/database.js";
import { makeUser } from "../factories/users.js";

const t = useTestApp();

const LOGIN = "/api/users/login";

describe("POST /api/users/login", () => {
  it("answers 200 with the user, a new token and the user id", async () => {
    const ana = await makeUser(t, { name: "Ana Souza", email: "ana@example.com", password: "segredo1", userType: "PERSONAL" });
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ user: ana.user, token: expect.any(String), userId: ana.id, success: true });
    expect(res.body.user).toMatchObject({ id: ana.id, name: "Ana Souza", email: "ana@example.com", userType: "PERSONAL" });
    expect(res.body.user).not.toHaveProperty("passwordHash");
    expect(res.body.token).not.toBe(ana.token);
    expect(decodeJwt(res.body.token).payload).toMatchObject({ sub: String(ana.id), email: "ana@example.com", userType: "PERSONAL" });
  });

  it("issues a token that opens the profile, while the earlier token keeps working", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    const profile = await t.get("/api/users/profile", { token: res.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body).toEqual(ana.user);
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(200);
  });

  it("changes nothing in the database", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const [before] = await t.db.select().from(users).where(eq(users.id, ana.id));
    t.clock.advance(60_000);
    await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    const [after] = await t.db.select().from(users).where(eq(users.id, ana.id));
    expect(after).toEqual(before);
    expect(await t.db.select().from(revokedTokens)).toEqual([]);
  });

  it("answers 400 Credenciais inválidas to a wrong password", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo2" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Credenciais inválidas", success: false });
  });

  it("answers 400 to the stored password with extra characters past bcrypt's 72 bytes", async () => {
    const password = "p".repeat(72);
    await makeUser(t, { email: "ana@example.com", password });
    expect((await t.post(LOGIN, { body: { email: "ana@example.com", password } })).status).toBe(200);
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: `${password}-and-more` } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Credenciais inválidas", success: false });
  });

  it("answers 400 to a password that differs only in letter case", async () => {
    await makeUser(t, { email: "ana@example.com", password: "Segredo1" });
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Credenciais inválidas", success: false });
  });

  it("answers 404 Usuário não encontrado to an unknown e-mail", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const res = await t.post(LOGIN, { body: { email: "bia@example.com", password: "segredo1" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
  });

  it("accepts the e-mail in another letter case and with surrounding spaces", async () => {
    const ana = await makeUser(t, { email: "ana.souza@example.com", password: "segredo1" });
    for (const email of ["ANA.SOUZA@EXAMPLE.COM", "Ana.Souza@Example.com", "  ana.souza@example.com "]) {
      const res = await t.post(LOGIN, { body: { email, password: "segredo1" } });
      expect(res.status).toBe(200);
      expect(res.body.userId).toBe(ana.id);
      expect(res.body.user.email).toBe("ana.souza@example.com");
    }
  });

  it("lets an app sign-up whose e-mail is not confirmed yet log in", async () => {
    const reg = await t.post("/api/users/register", {
      body: { name: "Ana", email: "ana@example.com", password: "segredo1", userType: "ALUNO", requestLocation: "APP", confirmed: false },
    });
    expect(reg.status).toBe(201);
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    expect(res.status).toBe(200);
    expect(res.body.user.emailConfirmed).toBe(false);
  });

  it("reports both missing fields together", async () => {
    const res = await t.post(LOGIN, { invalidRequest: true, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "Validation failed",
      success: false,
      errors: [
        { field: "email", message: expect.any(String) },
        { field: "password", message: expect.any(String) },
      ],
    });
  });

  it.each([
    ["a missing password", { email: "ana@example.com" }, ["password"]],
    ["a missing e-mail", { password: "segredo1" }, ["email"]],
    ["an empty password", { email: "ana@example.com", password: "" }, ["password"]],
    ["a blank e-mail", { email: "   ", password: "segredo1" }, ["email"]],
    ["a number as e-mail", { email: 42, password: "segredo1" }, ["email"]],
    ["a boolean as password", { email: "ana@example.com", password: true }, ["password"]],
    ["null fields", { email: null, password: null }, ["email", "password"]],
    ["an array as password", { email: "ana@example.com", password: ["segredo1"] }, ["password"]],
  ])("answers 400 Validation failed to %s", async (_label, body, fields) => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const res = await t.post(LOGIN, { invalidRequest: true, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
    for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
  });

  it.each([
    ["an array", "[]", "Validation failed"],
    ["a string", '"ana@example.com"', "JSON inválido"],
    ["null", "null", "JSON inválido"],
    ["a number", "42", "JSON inválido"],
  ])("answers 400 to a JSON body that is %s instead of an object", async (_label, raw, message) => {
    const res = await t.post(LOGIN, { invalidRequest: true, raw, headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message, success: false });
  });

  it("answers 400 JSON inválido to malformed JSON", async () => {
    const res = await t.post(LOGIN, {
      invalidRequest: true,
      raw: '{"email": "ana@example.com", "password": ',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "JSON inválido", success: false });
  });

  it("answers 400 to a body that is not JSON at all", async () => {
    const res = await t.post(LOGIN, {
      invalidRequest: true,
      raw: "email=ana@example.com&password=segredo1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
  });

  it.each([
    ["a garbage bearer token", "Bearer not-a-token"],
    ["a header of another scheme", "Basic YW5hOnNlZ3JlZG8x"],
    ["a bare Bearer", "Bearer"],
  ])("logs in while the client still sends %s", async (_label, authorization) => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" }, headers: { authorization } });
    expect(res.status).toBe(200);
    expect(res.body.userId).toBe(ana.id);
  });

  it("logs in while the client still sends its expired token", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    t.clock.advance(24 * 60 * 60 * 1000 + 1000);
    expect((await t.get("/api/users/profile", { token: ana.token })).status).toBe(401);
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" }, token: ana.token });
    expect(res.status).toBe(200);
    expect((await t.get("/api/users/profile", { token: res.body.token })).status).toBe(200);
  });

  it("logs in while the client still sends the token it logged out with", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    expect((await t.post("/api/users/logout", { token: ana.token })).status).toBe(200);
    const res = await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" }, token: ana.token });
    expect(res.status).toBe(200);
    expect((await t.get("/api/users/profile", { token: res.body.token })).status).toBe(200);
  });

  it("never logs the password", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    await t.post(LOGIN, { body: { email: "ana@example.com", password: "wrong-secret-99" } });
    await t.post(LOGIN, { body: { email: "ana@example.com", password: "segredo1" } });
    const logged = t.logLines.join("\n");
    expect(logged).not.toContain("wrong-secret-99");
    expect(logged).not.toContain("segredo1");
  });

  it("keeps the stored hash a bcrypt hash that does not contain the password", async () => {
    await makeUser(t, { email: "ana@example.com", password: "segredo1" });
    const [row] = rowsOf<{ password_hash: string }>(await t.db.execute(sql`select password_hash from users where email = 'ana@example.com'`));
    expect(row.password_hash).toMatch(/^\$2[aby]\$\d{2}\$/);
    expect(row.password_hash).not.toContain("segredo1");
  });
});
