import { and, eq, isNull, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { oneTimeTokens, users } from "../../src/tables/user.table.js";
import { mailOutbox } from "../../src/platform/mail/outbox.table.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { linkIn } from "../helpers/smtp-server.js";
import { rowsOf } from "../helpers/database.js";
import { makeUser, type MadeUser } from "../factories/users.js";

const t = useTestApp();
const other = useSecondInstance(t);

const HOUR_MS = 60 * 60 * 1000;
const RESET_LINK = "https://app.fitness.test/reset-password?token=";
const INVALID_TOKEN = { message: "Token inválido ou expirado", success: false };

/** Asks for a reset link for `email`, delivers the outbox and returns the token of the newest link sent there. */
async function requestReset(email: string): Promise<string> {
  const res = await t.post("/api/users/forgot-password", { body: { email } });
  expect(res.status).toBe(200);
  await t.deliverMail();
  const mails = t.smtp.to(email.trim().toLowerCase());
  const link = linkIn(mails[mails.length - 1], RESET_LINK);
  return new URL(link).searchParams.get("token")!;
}

const reset = (token: string, password: string) => t.post("/api/users/reset-password", { body: { token, password } });
const login = (user: MadeUser, password: string) => t.post("/api/users/login", { body: { email: user.email, password } });

describe("POST /api/users/forgot-password", () => {
  it("answers 200 and e-mails a reset link with a URL-safe token", async () => {
    const ana = await makeUser(t, { name: "Ana Souza", email: "ana@example.com" });
    const res = await t.post("/api/users/forgot-password", { body: { email: "ana@example.com" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), success: true });
    expect(res.body.message.length).toBeGreaterThan(0);

    expect(await t.deliverMail()).toBe(1);
    const mails = t.smtp.to(ana.email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Redefinição de senha");
    expect(mails[0].text).toContain("Ana Souza");
    const link = linkIn(mails[0], RESET_LINK);
    const token = new URL(link).searchParams.get("token")!;
    expect(token).toMatch(/^[A-Za-z0-9_-]{32,}$/);
    expect(mails[0].html).toContain(link);
  });

  it("finds the account whatever the letter case of the e-mail", async () => {
    const ana = await makeUser(t, { email: "ana.souza@example.com" });
    const res = await t.post("/api/users/forgot-password", { body: { email: " Ana.Souza@EXAMPLE.com" } });
    expect(res.status).toBe(200);
    await t.deliverMail();
    expect(t.smtp.to(ana.email)).toHaveLength(1);
  });

  it("answers 404 to an unknown e-mail and sends nothing", async () => {
    await makeUser(t, { email: "ana@example.com" });
    const res = await t.post("/api/users/forgot-password", { body: { email: "bia@example.com" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Usuário não encontrado", success: false });
    expect(await t.db.select().from(mailOutbox)).toEqual([]);
    expect(await t.db.select().from(oneTimeTokens)).toEqual([]);
    expect(await t.deliverMail()).toBe(0);
  });

  it.each([
    ["a missing e-mail", {}],
    ["a blank e-mail", { email: "  " }],
    ["a number as e-mail", { email: 7 }],
  ])("answers 400 Validation failed to %s", async (_label, body) => {
    const res = await t.post("/api/users/forgot-password", { invalidRequest: true, body });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "email", message: expect.any(String) }] });
  });

  it("stores only a hash of the token, never the token itself", async () => {
    await makeUser(t, { email: "ana@example.com" });
    const token = await requestReset("ana@example.com");
    const rows = await t.db.select().from(oneTimeTokens);
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ purpose: "PASSWORD_RESET", usedAt: null });
    expect(rows[0].tokenHash).not.toBe(token);
    expect(rows[0].tokenHash).not.toContain(token);
    const [dump] = rowsOf<{ text: string }>(await t.db.execute(sql`select coalesce(string_agg(t::text, ' '), '') as text from one_time_tokens t`));
    expect(dump.text).not.toContain(token);
  });

  it("leaves exactly one working link when ten requests race on two instances", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? t : other).post("/api/users/forgot-password", { body: { email: "ana@example.com" } })),
    );
    expect(answers.map((res) => res.status)).toEqual(Array(10).fill(200));
    const live = await t.db
      .select()
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.userId, ana.id), eq(oneTimeTokens.purpose, "PASSWORD_RESET"), isNull(oneTimeTokens.usedAt)));
    expect(live).toHaveLength(1);

    // Every request still sends its e-mail; only the newest link works.
    expect(await t.deliverMail()).toBe(10);
    const tokens = t.smtp.to(ana.email).map((mail) => new URL(linkIn(mail, RESET_LINK)).searchParams.get("token")!);
    expect(new Set(tokens).size).toBe(10);
    const results = [];
    for (const [i, token] of tokens.entries()) results.push(await reset(token, `senha-nova-${i}`));
    const winners = results.flatMap((res, i) => (res.status === 200 ? [i] : []));
    expect(winners).toHaveLength(1);
    for (const res of results.filter((r) => r.status !== 200)) {
      expect(res.status).toBe(400);
      expect(res.body).toEqual(INVALID_TOKEN);
    }
    expect((await login(ana, `senha-nova-${winners[0]}`)).status).toBe(200);
  });

  it("records the link as valid for one hour", async () => {
    await makeUser(t, { email: "ana@example.com" });
    await requestReset("ana@example.com");
    const [row] = await t.db.select().from(oneTimeTokens);
    expect(row.expiresAt).toEqual(new Date(t.clock.now().getTime() + HOUR_MS));
  });
});

describe("POST /api/users/reset-password", () => {
  it("sets the new password: the old one then fails with 400 and the new one logs in", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const token = await requestReset("ana@example.com");
    const [before] = await t.db.select().from(users).where(eq(users.id, ana.id));

    const res = await reset(token, "senha-nova");
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: expect.any(String), success: true });

    const old = await login(ana, "senha-antiga");
    expect(old.status).toBe(400);
    expect(old.body).toEqual({ message: "Credenciais inválidas", success: false });
    const fresh = await login(ana, "senha-nova");
    expect(fresh.status).toBe(200);
    expect(fresh.body.userId).toBe(ana.id);

    const [after] = await t.db.select().from(users).where(eq(users.id, ana.id));
    expect(after.passwordHash).not.toBe(before.passwordHash);
    expect(after.passwordHash).toMatch(/^\$2[aby]\$/);
    expect(after.passwordHash).not.toContain("senha-nova");
    const [row] = await t.db.select().from(oneTimeTokens);
    expect(row.usedAt).toEqual(t.clock.now());
  });

  it("works only once", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const token = await requestReset("ana@example.com");
    expect((await reset(token, "senha-nova-1")).status).toBe(200);
    const again = await reset(token, "senha-nova-2");
    expect(again.status).toBe(400);
    expect(again.body).toEqual(INVALID_TOKEN);
    expect((await login(ana, "senha-nova-1")).status).toBe(200);
    expect((await login(ana, "senha-nova-2")).status).toBe(400);
  });

  it("lets exactly one of two simultaneous uses of a link through", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const token = await requestReset("ana@example.com");
    const results = await Promise.all(["senha-nova-1", "senha-nova-2", "senha-nova-3"].map((password) => reset(token, password)));
    expect(results.map((r) => r.status).sort()).toEqual([200, 400, 400]);
    const winners = await Promise.all(["senha-nova-1", "senha-nova-2", "senha-nova-3"].map((password) => login(ana, password)));
    expect(winners.filter((r) => r.status === 200)).toHaveLength(1);
  });

  it("still works just before one hour has passed", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const token = await requestReset("ana@example.com");
    t.clock.advance(HOUR_MS - 1000);
    expect((await reset(token, "senha-nova")).status).toBe(200);
    expect((await login(ana, "senha-nova")).status).toBe(200);
  });

  it("answers 400 once one hour has passed, and the password stays as it was", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const token = await requestReset("ana@example.com");
    t.clock.advance(HOUR_MS);
    const res = await reset(token, "senha-nova");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect((await login(ana, "senha-antiga")).status).toBe(200);
    expect((await login(ana, "senha-nova")).status).toBe(400);
  });

  it("stops accepting an older link once a newer one is requested", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const first = await requestReset("ana@example.com");
    t.clock.advance(60_000);
    const second = await requestReset("ana@example.com");
    expect(t.smtp.to(ana.email)).toHaveLength(2);
    expect(second).not.toBe(first);

    const old = await reset(first, "senha-nova-1");
    expect(old.status).toBe(400);
    expect(old.body).toEqual(INVALID_TOKEN);
    expect((await reset(second, "senha-nova-2")).status).toBe(200);
    expect((await login(ana, "senha-nova-2")).status).toBe(200);
  });

  it("ends every session opened before the reset, while a login afterwards works", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const second = await login(ana, "senha-antiga");
    const token = await requestReset("ana@example.com");
    expect((await reset(token, "senha-nova")).status).toBe(200);

    for (const old of [ana.token, second.body.token]) {
      const profile = await t.get("/api/users/profile", { token: old });
      expect(profile.status).toBe(401);
      expect(profile.body).toEqual(INVALID_TOKEN);
      expect((await t.post("/api/users/refresh-token", { token: old })).status).toBe(401);
    }
    const fresh = await login(ana, "senha-nova");
    const profile = await t.get("/api/users/profile", { token: fresh.body.token });
    expect(profile.status).toBe(200);
    expect(profile.body.id).toBe(ana.id);
  });

  it("leaves other users' sessions and passwords alone", async () => {
    await makeUser(t, { email: "ana@example.com" });
    const bia = await makeUser(t, { email: "bia@example.com", password: "senha-da-bia" });
    const token = await requestReset("ana@example.com");
    expect((await reset(token, "senha-nova")).status).toBe(200);
    expect((await t.get("/api/users/profile", { token: bia.token })).status).toBe(200);
    expect((await login(bia, "senha-da-bia")).status).toBe(200);
  });

  it("confirms the e-mail address of an app sign-up, the link having reached its mailbox", async () => {
    await t.post("/api/users/register", {
      body: { name: "Ana", email: "ana@example.com", password: "segredo1", userType: "ALUNO", requestLocation: "APP", confirmed: false },
    });
    const token = await requestReset("ana@example.com");
    expect((await reset(token, "senha-nova")).status).toBe(200);
    const res = await t.post("/api/users/login", { body: { email: "ana@example.com", password: "senha-nova" } });
    expect(res.body.user.emailConfirmed).toBe(true);
  });

  it("answers 400 with the short-password message and an errors list, and the link stays usable", async () => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const token = await requestReset("ana@example.com");
    const res = await t.withInvalidRequests(() => reset(token, "12345"));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: "A senha deve ter pelo menos 6 caracteres",
      success: false,
      errors: [{ field: "password", message: expect.any(String) }],
    });
    expect((await login(ana, "senha-antiga")).status).toBe(200);
    const [row] = await t.db.select().from(oneTimeTokens);
    expect(row.usedAt).toBeNull();

    expect((await reset(token, "123456")).status).toBe(200);
    expect((await login(ana, "123456")).status).toBe(200);
  });

  it("answers 400 to a password over 72 bytes, and the link stays usable", async () => {
    const ana = await makeUser(t, { email: "ana@example.com" });
    const token = await requestReset("ana@example.com");
    const res = await reset(token, "ç".repeat(37));
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "password", message: expect.any(String) }] });
    expect((await reset(token, "senha-nova")).status).toBe(200);
    expect((await login(ana, "senha-nova")).status).toBe(200);
  });

  it.each([
    ["an unknown token", { token: "bm90LWEtcmVhbC10b2tlbg", password: "senha-nova" }],
    ["a token with a character changed", null],
  ])("answers 400 Token inválido ou expirado to %s", async (_label, body) => {
    const ana = await makeUser(t, { email: "ana@example.com", password: "senha-antiga" });
    const token = await requestReset("ana@example.com");
    const tampered = `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`;
    const res = await t.post("/api/users/reset-password", { body: body ?? { token: tampered, password: "senha-nova" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect((await login(ana, "senha-antiga")).status).toBe(200);
    expect((await reset(token, "senha-nova")).status).toBe(200);
  });

  it("does not accept an e-mail confirmation token as a reset token", async () => {
    const reg = await t.post("/api/users/register", {
      body: { name: "Ana", email: "ana@example.com", password: "senha-antiga", userType: "ALUNO", requestLocation: "APP", confirmed: false },
    });
    expect(reg.status).toBe(201);
    await t.deliverMail();
    const confirmation = new URL(linkIn(t.smtp.to("ana@example.com")[0], "https://app.fitness.test/confirm-email?token=")).searchParams.get("token")!;
    const res = await reset(confirmation, "senha-nova");
    expect(res.status).toBe(400);
    expect(res.body).toEqual(INVALID_TOKEN);
    expect((await t.post("/api/users/login", { body: { email: "ana@example.com", password: "senha-antiga" } })).status).toBe(200);
  });

  it.each([
    ["a missing token", { password: "senha-nova" }, ["token"]],
    ["a blank token", { token: " ", password: "senha-nova" }, ["token"]],
    ["a missing password", { token: "abc" }, ["password"]],
    ["a number as password", { token: "abc", password: 123456 }, ["password"]],
    ["an empty body", {}, ["token", "password"]],
  ])("answers 400 Validation failed to %s", async (_label, body, fields) => {
    const res = await t.post("/api/users/reset-password", { invalidRequest: true, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field)).toEqual(fields);
  });

  it("answers 400 JSON inválido to malformed JSON", async () => {
    const res = await t.post("/api/users/reset-password", { invalidRequest: true, raw: '{"token": "abc"', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "JSON inválido", success: false });
  });
});
