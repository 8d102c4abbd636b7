import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "../../src/tables/user.table.js";
import { useTestApp } from "../helpers/test-app.js";
import { linkIn } from "../helpers/smtp-server.js";
import { makeUser } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";

const t = useTestApp();

const valid = {
  name: "Ana Souza",
  email: "Ana.Souza@Example.com",
  password: "segredo1",
  userType: "ALUNO",
  requestLocation: "APP",
  confirmed: false,
};

async function userCount() {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
  return row.n;
}

describe("POST /api/users/register", () => {
  it("creates the account and answers 201 with the user, a token and the user id", async () => {
    const res = await t.post("/api/users/register", { body: valid });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      success: true,
      userId: expect.any(Number),
      token: expect.any(String),
      user: {
        id: res.body.userId,
        name: "Ana Souza",
        email: "ana.souza@example.com",
        userType: "ALUNO",
        profilePicture: null,
        phone: null,
        birthDate: null,
        gender: null,
        height: null,
        weight: null,
        subscriptionType: "FREEMIUM",
        subscriptionExpirationDate: null,
        emailConfirmed: false,
      },
    });
    expect(res.body.user.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
    expect(res.body.user).not.toHaveProperty("password");
    expect(res.body.user).not.toHaveProperty("passwordHash");

    const [row] = await t.db.select().from(users).where(eq(users.id, res.body.userId));
    expect(row.email).toBe("ana.souza@example.com");
    expect(row.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(row.passwordHash).not.toContain("segredo1");
  });

  it("issues a token that opens the profile", async () => {
    const res = await t.post("/api/users/register", { body: valid });
    const profile = await t.get("/api/users/profile", { token: res.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(res.body.userId);
  });

  it("sends an app sign-up a confirmation e-mail whose link confirms the address once", async () => {
    const res = await t.post("/api/users/register", { body: valid });
    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to("ana.souza@example.com");
    expect(mail.subject).toBe("Confirme seu e-mail");
    const link = linkIn(mail, "https://app.fitness.test/confirm-email?token=");
    const token = new URL(link).searchParams.get("token")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{40,}$/);

    const confirmed = await t.get(`/api/users/confirm-email?token=${token}`);
    expect(confirmed.status).toBe(200);
    expect(confirmed.body).toEqual({ message: "E-mail confirmado com sucesso", success: true });
    const profile = await t.get("/api/users/profile", { token: res.body.token });
    expect(profile.body.emailConfirmed).toBe(true);

    const again = await t.get(`/api/users/confirm-email?token=${token}`);
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("keeps no copy of the confirmation link once the e-mail is delivered", async () => {
    await t.post("/api/users/register", { body: valid });
    await t.deliverMail();
    const token = new URL(linkIn(t.smtp.to("ana.souza@example.com")[0], "https://app.fitness.test/confirm-email?token=")).searchParams.get("token")!;
    const rows = rowsOf<{ text: string; html: string | null; status: string }>(await t.db.execute(sql`select text, html, status from mail_outbox`));
    expect(rows).toEqual([{ text: "", html: null, status: "SENT" }]);
    const stored = rowsOf<{ token_hash: string }>(await t.db.execute(sql`select token_hash from one_time_tokens`));
    expect(stored).toHaveLength(1);
    expect(stored[0].token_hash).not.toContain(token);
  });

  it("sends no e-mail to a confirmed web sign-up", async () => {
    const res = await t.post("/api/users/register", { body: { ...valid, requestLocation: "WEB", confirmed: true } });
    expect(res.body.user.emailConfirmed).toBe(true);
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(0);
  });

  it("refuses an unknown or missing confirmation token with 400", async () => {
    expect((await t.get("/api/users/confirm-email?token=nope")).body).toEqual({ message: "Token inválido ou expirado", success: false });
    const missing = await t.get("/api/users/confirm-email", { invalidRequest: true });
    expect(missing.status).toBe(400);
    expect(missing.body).toEqual({ message: "Token inválido ou expirado", success: false });
    const blank = await t.get("/api/users/confirm-email?token=%20");
    expect(blank.body).toEqual({ message: "Token inválido ou expirado", success: false });
    const repeated = await t.get("/api/users/confirm-email?token=a&token=b", { invalidRequest: true });
    expect(repeated.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });

  it("answers 409 when the e-mail is taken, in any letter case, and keeps one account", async () => {
    await t.post("/api/users/register", { body: valid });
    const res = await t.post("/api/users/register", { body: { ...valid, email: "ANA.SOUZA@example.COM" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Email já registrado", success: false });
    expect(await userCount()).toBe(1);
  });

  it("keeps one account when the same e-mail registers twice at the same moment", async () => {
    const results = await Promise.all([1, 2, 3].map(() => t.post("/api/users/register", { body: valid })));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409]);
    expect(await userCount()).toBe(1);
  });

  it("reports every problem of the body together, by JSON path, and writes nothing", async () => {
    const res = await t.post("/api/users/register", {
      invalidRequest: true,
      body: { name: "  ", email: "not-an-email", password: "12345", userType: "ADMIN", requestLocation: "TV" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    const fields = res.body.errors.map((e: { field: string }) => e.field).sort();
    expect(fields).toEqual(["confirmed", "email", "name", "password", "requestLocation", "userType"]);
    for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
    expect(await userCount()).toBe(0);
  });

  it.each([
    ["a number as name", { name: 42 }, "name"],
    ["a 121-character name", { name: "x".repeat(121) }, "name"],
    ["a 255-character e-mail", { email: `${"a".repeat(245)}@email.com` }, "email"],
    ["a password over 72 bytes", { password: "ç".repeat(37) }, "password"],
    ["confirmed as a string", { confirmed: "false" }, "confirmed"],
    ["a null userType", { userType: null }, "userType"],
  ])("refuses %s with 400 on that field", async (_label, change, field) => {
    const res = await t.post("/api/users/register", { invalidRequest: true, body: { ...valid, ...change } });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual([field]);
    expect(await userCount()).toBe(0);
  });

  it("answers 400 JSON inválido to malformed JSON", async () => {
    const res = await t.post("/api/users/register", { invalidRequest: true, raw: '{"name": "Ana",', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "JSON inválido", success: false });
  });

  it("answers 413 to a body over 1 MB", async () => {
    const res = await t.post("/api/users/register", { invalidRequest: true, body: { ...valid, name: "x".repeat(1_100_000) } });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ message: "Requisição muito grande", success: false });
    expect(await userCount()).toBe(0);
  });

  it("answers 400 to a body that is not JSON at all", async () => {
    const res = await t.post("/api/users/register", {
      invalidRequest: true,
      raw: "name=Ana",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
  });

  it("does not make an e-mail outside ADMIN_EMAILS an administrator (listed ones: tests/users/admin.test.ts)", async () => {
    const other = await makeUser(t);
    expect(other.token).toBeTruthy();
    const [row] = await t.db.select({ isAdmin: users.isAdmin }).from(users).where(eq(users.id, other.id));
    expect(row.isAdmin).toBe(false);
  });
});
