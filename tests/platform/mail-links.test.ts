import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import type { ReceivedMail } from "../helpers/smtp-server.js";
import { makeStudent, makeTrainer, relogin, type MadeUser } from "../factories/users.js";
import { CARD_DECLINED, planId, subscribeByCard } from "../factories/billing.js";
import { invited } from "../coaching/support.js";
import { createEndpoint, deliverWebhooks, Receiver, status } from "../webhooks/support.js";
import { DAY_MS } from "../../src/platform/dates.js";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";

// No web app configured (WEB_APP_URL unset): every link of every e-mail must open something of this service that works.
const CARD_WEBHOOK_SECRET = "whsec_card_webhook_secret_for_tests";
const t = useTestApp({ WEB_APP_URL: "", WEBHOOK_SECRET: CARD_WEBHOOK_SECRET });

/** Every URL of a message, from its text part and from the links of its HTML part. */
function linksOf(mail: ReceivedMail): string[] {
  const inText = mail.text.match(/https?:\/\/[^\s"'<>]+/g) ?? [];
  const inHtml = [...mail.html.matchAll(/href="([^"]+)"/g)].map((match) => unescapeHtml(match[1]));
  return [...new Set([...inText, ...inHtml])];
}

const unescapeHtml = (text: string) =>
  text.replace(/&(amp|lt|gt|quot|#39);/g, (_, name: string) => ({ amp: "&", lt: "<", gt: ">", quot: '"', "#39": "'" })[name] as string);

/** GET as a browser opening the link: no token, no cookie; the page and its status. */
async function open(link: string): Promise<{ status: number; html: string; type: string }> {
  const res = await fetch(link, { redirect: "manual" });
  return { status: res.status, html: await res.text(), type: res.headers.get("content-type") ?? "" };
}

/** Submits the page's form as a browser would: its hidden inputs, plus `fields`, form-encoded to its action. */
async function submit(link: string, html: string, fields: Record<string, string>): Promise<{ status: number; html: string }> {
  const form = /<form method="post" action="([^"]*)">([\s\S]*?)<\/form>/.exec(html);
  if (!form) throw new Error(`no form in:\n${html}`);
  const hidden = [...form[2].matchAll(/<input type="hidden" name="([^"]+)" value="([^"]*)">/g)].map((m): [string, string] => [m[1], unescapeHtml(m[2])]);
  const res = await fetch(new URL(unescapeHtml(form[1]), link), {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams([...hidden, ...Object.entries(fields)]),
    redirect: "manual",
  });
  return { status: res.status, html: await res.text() };
}

async function mailTo(user: { email: string }, subject: string): Promise<ReceivedMail> {
  await t.deliverMail();
  const mail = t.smtp.to(user.email).find((m) => m.subject === subject);
  if (!mail) throw new Error(`no "${subject}" for ${user.email}: ${t.smtp.to(user.email).map((m) => m.subject)}`);
  return mail;
}

const onlyLink = (mail: ReceivedMail) => {
  const links = linksOf(mail);
  expect(links).toHaveLength(1);
  return links[0];
};

async function registerFromApp(email: string): Promise<MadeUser> {
  const body = { name: "Ana Souza", email, password: "senha-antiga", userType: "ALUNO", requestLocation: "APP", confirmed: false };
  const res = await t.post("/api/users/register", { body });
  expect(res.status).toBe(201);
  return { id: res.body.userId, email, password: body.password, token: res.body.token, user: res.body.user };
}

const login = (email: string, password: string) => t.post("/api/users/login", { body: { email, password } });

describe("e-mail links with no web app configured", () => {
  it("every link of every e-mail the service sends opens a page of the service that answers 2xx", async () => {
    // First the e-mails that take time: subscriptions renewed, reminded, expired; a webhook endpoint failing for days.
    const plan = await planId(t, "Mensal");
    const renewing = await makeStudent(t);
    const ending = await makeStudent(t);
    const { body: subscription } = await subscribeByCard(t, renewing, plan);
    const { body: notRenewing } = await subscribeByCard(t, ending, plan);
    await t.put(`/api/subscriptions/${notRenewing.id}`, { token: ending.token, body: { autoRenew: false } });
    const canceling = await makeStudent(t);
    const { body: canceled } = await subscribeByCard(t, canceling, plan);
    await t.post(`/api/subscriptions/${canceled.id}/cancel`, { token: canceling.token, body: {} });
    await subscribeByCard(t, await makeStudent(t), plan, { cardNumber: CARD_DECLINED });
    // A boleto replaced by a card subscription, then paid late: the payment is refunded.
    const switching = await makeStudent(t);
    const { body: boleto } = await t.post("/api/subscriptions", { token: switching.token, body: { planId: plan, paymentMethod: "BOLETO" } });
    await subscribeByCard(t, switching, plan);
    const late = JSON.stringify({
      id: "evt_late",
      object: "event",
      type: "payment_intent.succeeded",
      created: Math.floor(t.clock.now().getTime() / 1000),
      data: { object: { id: "pi_late", amount_received: 4990, metadata: { subscriptionId: String(boleto.id) } } },
    });
    const signature = signCardEvent(late, CARD_WEBHOOK_SECRET, Math.floor(t.clock.now().getTime() / 1000));
    await t.post("/api/payments/webhook", { headers: { "content-type": "application/json", "Card-Signature": signature }, raw: late });
    const integrator = await makeTrainer(t);
    const receiver = await new Receiver(t.clock).start();
    receiver.otherwise = status(500);
    const endpoint = await createEndpoint(t, integrator, receiver.url, ["invite.updated"]);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: integrator.token });
    await deliverWebhooks(t);
    const endDate = new Date(subscription.endDate);
    t.clock.set(new Date(endDate.getTime() - 2 * DAY_MS));
    await t.app.services.renewals.run();
    await relogin(t, integrator);
    await t.post(`/api/webhook-endpoints/${endpoint.id}/test`, { token: integrator.token });
    await deliverWebhooks(t);
    await receiver.stop();
    t.clock.set(new Date(endDate.getTime() + 60_000));
    await t.app.services.renewals.run();

    // Then the ones whose links are still fresh when followed.
    const ana = await registerFromApp("ana@example.com");
    await t.post("/api/users/forgot-password", { body: { email: ana.email } });
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const other = await makeTrainer(t, { name: "Carla Dias" });
    const student = await makeStudent(t, { name: "Dora Reis" });
    await invited(t, trainer, student, "Bora treinar");
    const accepted = await invited(t, other, student);
    await t.post(`/api/students/invites/${accepted}/accept`, { token: student.token });
    const declining = await makeStudent(t);
    const rejected = await invited(t, trainer, declining);
    await t.post(`/api/students/invites/${rejected}/reject`, { token: declining.token });
    const [link] = (await t.get("/api/students/personals", { token: student.token })).body.content;
    await t.delete(`/api/students/personals/${link.id}`, { token: student.token });
    const leaving = await makeStudent(t);
    expect((await t.delete("/api/users/me", { token: leaving.token, body: { password: leaving.password } })).status).toBe(204);
    await t.deliverMail();

    const mails = t.smtp.received;
    expect(new Set(mails.map((m) => m.subject))).toEqual(
      new Set([
        "Pagamento confirmado",
        "Assinatura renovada",
        "Sua assinatura está perto do fim",
        "Assinatura expirada",
        "Assinatura cancelada",
        "Falha no pagamento",
        "Pagamento devolvido",
        "Endpoint de webhook desativado",
        "Confirme seu e-mail",
        "Redefinição de senha",
        "Você recebeu um convite de personal trainer",
        "Convite aceito",
        "Convite recusado",
        "Vínculo encerrado",
        "Sua conta foi removida",
      ]),
    );
    // The disabled endpoint's own address, quoted to its owner, is theirs: every other link is the service's.
    const links = mails.flatMap(linksOf).filter((link) => link !== receiver.url);
    expect(links.length).toBeGreaterThanOrEqual(5);
    for (const link of links) {
      expect(link.startsWith(`${t.baseUrl}/`), link).toBe(true);
      const page = await open(link);
      expect([link, page.status]).toEqual([link, 200]);
      expect(page.type).toMatch(/^text\/html/);
    }
  });

  it("the confirmation link confirms the address and says so", async () => {
    const ana = await registerFromApp("ana@example.com");
    const page = await open(onlyLink(await mailTo(ana, "Confirme seu e-mail")));

    expect(page.status).toBe(200);
    expect(page.html).toContain("Seu endereço de e-mail foi confirmado");
    expect((await t.get("/api/users/profile", { token: ana.token })).body.emailConfirmed).toBe(true);
    // Used once: the same link now answers a page saying it no longer works.
    const again = await open(onlyLink(await mailTo(ana, "Confirme seu e-mail")));
    expect(again.status).toBe(400);
    expect(again.html).toContain("Token inválido ou expirado");
  });

  it("the reset link's form sets the new password: login works with it, no longer with the old one", async () => {
    const ana = await makeStudent(t, { email: "ana@example.com", password: "senha-antiga" });
    await t.post("/api/users/forgot-password", { body: { email: ana.email } });
    const link = onlyLink(await mailTo(ana, "Redefinição de senha"));
    const form = await open(link);
    expect(form.status).toBe(200);
    expect(form.html).toContain('name="password"');
    // Opening the link uses nothing up: only the form's answer does.
    expect((await open(link)).status).toBe(200);

    const tooShort = await submit(link, form.html, { password: "123" });
    expect(tooShort.status).toBe(400);
    expect(tooShort.html).toContain("A senha deve ter pelo menos 6 caracteres");
    const done = await submit(link, tooShort.html, { password: "senha-nova-1" });

    expect(done.status).toBe(200);
    expect(done.html).toContain("Sua senha foi alterada");
    expect((await login(ana.email, "senha-nova-1")).status).toBe(200);
    expect((await login(ana.email, "senha-antiga")).status).toBe(400);
    const used = await open(link);
    expect(used.status).toBe(400);
    expect(used.html).toContain("Token inválido ou expirado");
  });

  it("the invite link's form, with the student's password, accepts the invite: the link is ACTIVE", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Lima" });
    const student = await makeStudent(t, { name: "Dora Reis" });
    await invited(t, trainer, student, "Bora treinar");
    const link = onlyLink(await mailTo(student, "Você recebeu um convite de personal trainer"));
    const form = await open(link);
    expect(form.status).toBe(200);

    const wrong = await submit(link, form.html, { email: student.email, password: "nao-e-esta", decision: "accept" });
    expect(wrong.status).toBe(400);
    expect(wrong.html).toContain("Credenciais inválidas");
    const done = await submit(link, form.html, { email: student.email, password: student.password, decision: "accept" });

    expect(done.status).toBe(200);
    expect(done.html).toContain("Convite aceito");
    const links = (await t.get("/api/students/personals", { token: student.token })).body.content;
    expect(links).toMatchObject([{ personalId: trainer.id, status: "ACTIVE" }]);
    expect((await mailTo(trainer, "Convite aceito")).text).toContain("Dora Reis aceitou seu convite");
    const again = await submit(link, form.html, { email: student.email, password: student.password, decision: "accept" });
    expect(again.status).toBe(409);
    expect(again.html).toContain("Este convite já foi processado ou expirou");
  });

  it("the invite link's form can turn the invite down", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const id = await invited(t, trainer, student);
    const link = onlyLink(await mailTo(student, "Você recebeu um convite de personal trainer"));
    const done = await submit(link, (await open(link)).html, { email: student.email, password: student.password, decision: "reject" });

    expect(done.status).toBe(200);
    expect(done.html).toContain("Convite recusado");
    const invites = (await t.get("/api/students/invites", { token: student.token })).body.content;
    expect(invites).toMatchObject([{ id, status: "REJECTED" }]);
  });

  it("answers 400 pages in Portuguese to a missing or unknown token, and echoes nothing unescaped", async () => {
    for (const path of ["/confirm-email", "/confirm-email?token=nope", "/reset-password", "/reset-password?token=%3Cscript%3E"]) {
      const page = await open(t.baseUrl + path);
      expect([path, page.status]).toEqual([path, 400]);
      expect(page.html).toContain("Token inválido ou expirado");
      expect(page.html).not.toContain("<script");
    }
    const evil = '"><script>alert(1)</script>';
    const res = await fetch(`${t.baseUrl}/reset-password`, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ token: evil, password: "1" }),
    });
    expect(res.status).toBe(400);
    const html = await res.text();
    expect(html).not.toContain("<script");
    expect(html).toContain("&quot;&gt;&lt;script&gt;");
  });
});
