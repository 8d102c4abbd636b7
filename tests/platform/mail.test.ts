import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { asc } from "drizzle-orm";
import { simpleParser } from "mailparser";
import { afterEach, describe, expect, it } from "vitest";
import { createMailTransport } from "../../src/platform/mail/mail-transport.js";
import { MAX_MAIL_ATTEMPTS, retryDelayMs } from "../../src/platform/mail/mail-worker.js";
import { leaseNextMail, markMailFailed } from "../../src/platform/mail/outbox.js";
import { mailOutbox } from "../../src/platform/mail/outbox.table.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { linkIn } from "../helpers/smtp-server.js";
import { makeUser } from "../factories/users.js";

const t = useTestApp();
const second = useSecondInstance(t);

/** An app sign-up: one confirmation e-mail goes into the outbox. */
async function queueConfirmation(email = "gabi@example.com") {
  const res = await t.post("/api/users/register", {
    body: { name: "Gabi Nunes", email, password: "segredo1", userType: "ALUNO", requestLocation: "APP", confirmed: false },
  });
  expect(res.status).toBe(201);
  return res.body;
}

async function outbox() {
  return t.db.select().from(mailOutbox).orderBy(asc(mailOutbox.id));
}

async function onlyMessage() {
  const rows = await outbox();
  expect(rows).toHaveLength(1);
  return rows[0];
}

describe("mail outbox delivery", () => {
  it("queues the e-mail with the change and delivers it over SMTP exactly once", async () => {
    await queueConfirmation();
    const queued = await onlyMessage();
    expect(queued).toMatchObject({ recipient: "gabi@example.com", subject: "Confirme seu e-mail", status: "PENDING", attempts: 0, sentAt: null });

    expect(await t.deliverMail()).toBe(1);
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(1);
    const [mail] = t.smtp.received;
    expect(mail.to).toEqual(["gabi@example.com"]);
    expect(mail.from).toBe("no-reply@fitness.local");
    expect(mail.subject).toBe("Confirme seu e-mail");
    expect(mail.text).toContain("Olá, Gabi Nunes!");
    expect(mail.html).toContain('<a href="https://app.fitness.test/confirm-email?token=');

    const sent = await onlyMessage();
    expect(sent).toMatchObject({ status: "SENT", attempts: 1, lastError: null });
    expect(sent.sentAt!.getTime()).toBe(t.clock.now().getTime());
  });

  it("keeps a message the SMTP server refuses PENDING, with the error and the next attempt after the backoff", async () => {
    await queueConfirmation();
    t.smtp.refuseAll = true;
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(0);

    const failed = await onlyMessage();
    expect(failed.status).toBe("PENDING");
    expect(failed.attempts).toBe(1);
    expect(failed.lastError).toMatch(/451/);
    expect(failed.nextAttemptAt.getTime()).toBe(t.clock.now().getTime() + retryDelayMs(1));
    expect(retryDelayMs(1)).toBe(30_000);
  });

  it("does not retry before the backoff has passed and delivers once it has", async () => {
    await queueConfirmation();
    t.smtp.refuseAll = true;
    await t.deliverMail();
    t.smtp.refuseAll = false;

    expect(await t.deliverMail()).toBe(0);
    t.clock.advance(retryDelayMs(1) - 1);
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(0);
    expect((await onlyMessage()).attempts).toBe(1);

    t.clock.advance(1);
    expect(await t.deliverMail()).toBe(1);
    expect(t.smtp.to("gabi@example.com")).toHaveLength(1);
    expect(await onlyMessage()).toMatchObject({ status: "SENT", attempts: 2, lastError: null });
  });

  it(`gives up after ${MAX_MAIL_ATTEMPTS} refused attempts, backing off longer each time`, async () => {
    await queueConfirmation();
    t.smtp.refuseAll = true;
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      expect(await t.deliverMail()).toBe(0);
      const row = await onlyMessage();
      expect(row.attempts).toBe(attempt);
      if (attempt < MAX_MAIL_ATTEMPTS) {
        expect(row.status).toBe("PENDING");
        expect(row.nextAttemptAt.getTime() - t.clock.now().getTime()).toBe(retryDelayMs(attempt));
        t.clock.advance(retryDelayMs(attempt));
      }
    }
    const failed = await onlyMessage();
    expect(failed.status).toBe("FAILED");
    expect(failed.lastError).toMatch(/451/);

    t.smtp.refuseAll = false;
    t.clock.advance(24 * 60 * 60_000);
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(0);
    expect((await onlyMessage()).status).toBe("FAILED");
  });

  it("delivers a message whose worker died mid-delivery once its lease runs out", async () => {
    await queueConfirmation();
    // A worker takes the message and then vanishes without marking it.
    const leased = await leaseNextMail(t.db, t.clock.now(), new Date(t.clock.now().getTime() + 60_000));
    expect(leased).toBeDefined();

    expect(await t.deliverMail()).toBe(0);
    t.clock.advance(60_000);
    expect(await t.deliverMail()).toBe(1);
    expect(t.smtp.received).toHaveLength(1);
  });

  it("does not let a send whose lease ran out reschedule the message while a later send of it is under way", async () => {
    await queueConfirmation();
    const lease = () => leaseNextMail(t.db, t.clock.now(), new Date(t.clock.now().getTime() + 90_000));
    const stale = (await lease())!;
    t.clock.advance(90_000);
    const current = (await lease())!;
    expect(current.attempts).toBe(stale.attempts + 1);

    // The first worker's send fails only now; the row must keep the second worker's lease.
    await markMailFailed(t.db, stale.id, stale.attempts, "451 try later", new Date(t.clock.now().getTime() + retryDelayMs(1)));
    expect(await onlyMessage()).toMatchObject({ status: "PENDING", attempts: 2, lastError: null, nextAttemptAt: current.nextAttemptAt });
    t.clock.advance(retryDelayMs(1));
    expect(await t.deliverMail()).toBe(0);
    expect(t.smtp.received).toHaveLength(0);
  });

  it("sends each of several queued messages once when two workers run at the same moment", async () => {
    await queueConfirmation("um@example.com");
    await queueConfirmation("dois@example.com");
    await queueConfirmation("tres@example.com");
    const [a, b] = await Promise.all([t.deliverMail(), t.deliverMail()]);
    expect(a + b).toBe(3);
    expect(t.smtp.received.map((m) => m.to[0]).sort()).toEqual(["dois@example.com", "tres@example.com", "um@example.com"]);
    expect((await outbox()).every((row) => row.status === "SENT")).toBe(true);
  });

  it("sends each of 25 queued messages once when two instances share a slow SMTP server and a minute passes mid-send", async () => {
    const recipients = Array.from({ length: 25 }, (_, i) => `aluno${i + 1}@example.com`);
    for (const email of recipients) await queueConfirmation(email);
    let sentCounts = [0, 0];
    t.smtp.hold();
    try {
      // The first instance's worker is still waiting on the slow server for its first message when, more than a
      // minute later, the second instance's worker runs.
      const firstDelivering = t.deliverMail();
      await t.smtp.whenHolding(1);
      t.clock.advance(61_000);
      const otherDelivering = second.deliverMail();
      await t.smtp.whenHolding(2);
      t.smtp.release();
      sentCounts = await Promise.all([firstDelivering, otherDelivering]);
    } finally {
      t.smtp.release();
    }
    expect(t.smtp.received.map((mail) => mail.to[0]).sort()).toEqual([...recipients].sort());
    expect(sentCounts[0] + sentCounts[1]).toBe(25);
    const rows = await outbox();
    expect(rows.map((row) => [row.status, row.attempts])).toEqual(recipients.map(() => ["SENT", 1]));
  });
});

describe("file mail transport (no SMTP_URL)", () => {
  let dir = "";
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("writes each message as an .eml file that parses back to the same message", async () => {
    dir = path.join(mkdtempSync(path.join(tmpdir(), "fitness-mail-")), "mail");
    const transport = createMailTransport(undefined, dir);
    await transport.send({
      from: "Fitness <no-reply@fitness.local>",
      to: "joao@example.com",
      subject: "Redefinição de senha",
      text: "Olá, João!\n\nhttps://app.fitness.test/reset-password?token=abc_DEF-123\n",
      html: "<p>Olá, João!</p>",
    });
    await transport.send({ from: "no-reply@fitness.local", to: "maria@example.com", subject: "Segunda", text: "Oi" });
    transport.close();

    const files = readdirSync(dir).sort();
    expect(files).toHaveLength(2);
    for (const file of files) expect(file).toMatch(/\.eml$/);
    const parsed = await Promise.all(files.map((file) => simpleParser(readFileSync(path.join(dir, file)))));
    const reset = parsed.find((mail) => mail.subject === "Redefinição de senha")!;
    expect(reset).toBeDefined();
    expect(reset.text).toContain("Olá, João!");
    expect(reset.text).toContain("https://app.fitness.test/reset-password?token=abc_DEF-123");
    expect(reset.html).toContain("<p>Olá, João!</p>");
    expect(JSON.stringify(reset.to)).toContain("joao@example.com");
    expect(parsed.map((mail) => mail.subject).sort()).toEqual(["Redefinição de senha", "Segunda"]);
  });
});

describe("logs", () => {
  it("never hold a password, a token or the Authorization header through register, login and reset", async () => {
    const password = "Senha-Secreta-Unica-1";
    const newPassword = "Outra-Senha-Secreta-2";
    const session = await queueConfirmation("helena@example.com");
    const registered = await t.post("/api/users/register", {
      body: { name: "Helena", email: "helena2@example.com", password, userType: "PERSONAL", requestLocation: "WEB", confirmed: true },
    });
    const login = await t.post("/api/users/login", { body: { email: "helena2@example.com", password } });
    expect(login.status).toBe(200);
    await t.post("/api/users/login", { body: { email: "helena2@example.com", password: `${password}-errada` } });
    await t.get("/api/users/profile", { token: login.body.token });
    await t.get("/api/users/profile", { headers: { authorization: `Bearer ${login.body.token}x` } });
    await t.graphql("mutation ($input: LoginInput!) { login(input: $input) { token } }", { input: { email: "helena2@example.com", password } }, "broken");

    // The reset e-mail fails once (a warning is logged), then goes out.
    await t.post("/api/users/forgot-password", { body: { email: "helena2@example.com" } });
    t.smtp.refuseAll = true;
    await t.deliverMail();
    t.smtp.refuseAll = false;
    t.clock.advance(retryDelayMs(1));
    await t.deliverMail();
    const resetToken = new URL(linkIn(t.smtp.to("helena2@example.com")[0], "https://app.fitness.test/reset-password?token=")).searchParams.get("token")!;
    const confirmToken = new URL(linkIn(t.smtp.to("helena@example.com")[0], "https://app.fitness.test/confirm-email?token=")).searchParams.get("token")!;
    expect((await t.post("/api/users/reset-password", { body: { token: resetToken, password: newPassword } })).status).toBe(200);
    await t.get(`/api/users/confirm-email?token=${confirmToken}`);
    const again = await t.post("/api/users/login", { body: { email: "helena2@example.com", password: newPassword } });
    const made = await makeUser(t);

    const logged = t.logLines.join("");
    expect(logged).toContain("mail delivery failed");
    for (const secret of [
      password,
      newPassword,
      session.token,
      registered.body.token,
      login.body.token,
      again.body.token,
      made.token,
      resetToken,
      confirmToken,
      "Bearer",
    ]) {
      expect(logged).not.toContain(secret);
    }
  });
});
