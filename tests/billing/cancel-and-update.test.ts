import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, payments, pixTransactions, subscriptions } from "../../src/tables/billing.table.js";
import { users } from "../../src/tables/user.table.js";
import { CARD_DECLINED, cardFields, planId, subscribeByCard } from "../factories/billing.js";
import { makeStudent, makeUser, type MadeUser, relogin } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });

const START = new Date("2025-03-15T12:00:00.000Z");
const END = "2025-04-15T12:00:00.000Z";
const HOUR = 60 * 60 * 1000;
const DAY = 24 * HOUR;
const DENIED = { message: "Acesso negado", success: false };

async function profileOf(user: MadeUser) {
  const res = await t.get("/api/users/profile", { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

/** The user's access as stored (readable after the clock has moved past the token's lifetime). */
async function accessOf(userId: number) {
  const [row] = await t.db.select({ subscriptionType: users.subscriptionType, expiresAt: users.subscriptionExpiresAt }).from(users).where(eq(users.id, userId));
  return { subscriptionType: row.subscriptionType, expiresAt: row.expiresAt?.toISOString() ?? null };
}

const rowOf = async (id: number) => (await t.db.select().from(subscriptions).where(eq(subscriptions.id, id)))[0];

/** A student with an ACTIVE Mensal subscription started at START (so it ends at END). */
async function subscribed(overrides: Parameters<typeof makeStudent>[1] = {}) {
  t.clock.set(START);
  const user = await makeStudent(t, overrides);
  const res = await subscribeByCard(t, user, await planId(t, "Mensal"));
  expect(res.status).toBe(201);
  await t.deliverMail();
  t.smtp.clear();
  return { user, subscription: res.body };
}

describe("POST /api/subscriptions/{id}/cancel at the end of the period (default)", () => {
  it("answers 200 CANCELED: canceledAt set, renewalDate null, endDate unchanged, autoRenew off", async () => {
    const { user, subscription } = await subscribed({ name: "Ana Souza" });
    t.clock.advance(2 * DAY);
    await relogin(t, user);
    const canceledAt = t.clock.now().toISOString();

    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { reason: "Vou viajar" } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      ...subscription,
      status: "CANCELED",
      canceledAt,
      renewalDate: null,
      endDate: END,
      autoRenew: false,
      updatedAt: canceledAt,
    });
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ status: "CANCELED", cancelReason: "Vou viajar", renewalDate: null, autoRenew: false });
    expect(row.endDate?.toISOString()).toBe(END);
  });

  it("cancels with an empty body or no body at all, at the end of the period", async () => {
    const first = await subscribed();
    const withEmpty = await t.post(`/api/subscriptions/${first.subscription.id}/cancel`, { token: first.user.token, body: {} });
    expect(withEmpty.status).toBe(200);
    expect(withEmpty.body).toMatchObject({ status: "CANCELED", endDate: END });
    const second = await subscribed();
    const withNone = await t.post(`/api/subscriptions/${second.subscription.id}/cancel`, { token: second.user.token });
    expect(withNone.status).toBe(200);
    expect(withNone.body).toMatchObject({ status: "CANCELED", endDate: END });
    expect((await accessOf(second.user.id)).subscriptionType).toBe("PREMIUM_MENSAL");
  });

  it("keeps PREMIUM_MENSAL until endDate, then the renewal job puts the user back to FREEMIUM", async () => {
    const { user, subscription } = await subscribed();
    await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { cancelImmediately: false } });

    const profile = await profileOf(user);
    expect(profile.subscriptionType).toBe("PREMIUM_MENSAL");
    expect(profile.subscriptionExpirationDate).toBe(END);
    const current = await t.get("/api/subscriptions/my-subscription", { token: user.token });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ id: subscription.id, status: "CANCELED" });

    // Near the end: still access; the job neither charges nor ends it early.
    t.clock.set(new Date(new Date(END).getTime() - DAY));
    await t.app.services.renewals.run();
    expect(await accessOf(user.id)).toEqual({ subscriptionType: "PREMIUM_MENSAL", expiresAt: END });
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);

    t.clock.set(new Date(new Date(END).getTime() + HOUR));
    await t.app.services.renewals.run();
    expect(await accessOf(user.id)).toEqual({ subscriptionType: "FREEMIUM", expiresAt: null });
    expect((await rowOf(subscription.id)).status).toBe("CANCELED");
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);

    await relogin(t, user);
    expect((await profileOf(user)).subscriptionType).toBe("FREEMIUM");
    const after = await t.get("/api/subscriptions/my-subscription", { token: user.token });
    expect(after.status).toBe(404);
    expect(after.body).toEqual({ message: "Assinatura não encontrada", success: false });
  });

  it("keeps the access of a plan bought after canceling when the old period ends", async () => {
    const { user, subscription } = await subscribed();
    await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: {} });
    const anual = await subscribeByCard(t, user, await planId(t, "Anual"));
    expect(anual.status).toBe(201);
    expect((await accessOf(user.id)).subscriptionType).toBe("PREMIUM_ANUAL");

    t.clock.set(new Date(new Date(END).getTime() + HOUR));
    await t.app.services.renewals.run();
    expect(await accessOf(user.id)).toEqual({ subscriptionType: "PREMIUM_ANUAL", expiresAt: anual.body.endDate });
  });

  it("e-mails the cancellation with the date access ends", async () => {
    const { user, subscription } = await subscribed({ name: "Ana Souza" });
    await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: {} });
    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to(user.email);
    expect(mail.subject).toBe("Assinatura cancelada");
    expect(mail.text).toContain("Ana Souza");
    expect(mail.text).toContain("Mensal");
    expect(mail.text).toContain("15/04/2025");
  });
});

describe("POST /api/subscriptions/{id}/cancel immediately", () => {
  it("ends access at once: user FREEMIUM, endDate now, my-subscription 404", async () => {
    const { user, subscription } = await subscribed();
    t.clock.advance(HOUR);
    const now = t.clock.now().toISOString();
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { cancelImmediately: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, status: "CANCELED", canceledAt: now, renewalDate: null, endDate: now, autoRenew: false });

    const profile = await profileOf(user);
    expect(profile.subscriptionType).toBe("FREEMIUM");
    expect(profile.subscriptionExpirationDate).toBeNull();
    expect((await t.get("/api/subscriptions/my-subscription", { token: user.token })).status).toBe(404);

    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to(user.email);
    expect(mail.subject).toBe("Assinatura cancelada");
    expect(mail.text).toContain("O acesso premium foi encerrado");
  });

  it("lets the user subscribe again afterwards", async () => {
    const { user, subscription } = await subscribed();
    const canceled = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { cancelImmediately: true } });
    expect(canceled.status).toBe(200);
    const again = await subscribeByCard(t, user, await planId(t, "Trimestral"));
    expect(again.status).toBe(201);
    expect(again.body).toMatchObject({ status: "ACTIVE", planName: "Trimestral" });
    expect((await profileOf(user)).subscriptionType).toBe("PREMIUM_TRIMESTRAL");
    const stored = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id)).orderBy(subscriptions.id);
    expect(stored.map((row) => [row.id, row.status])).toEqual([
      [subscription.id, "CANCELED"],
      [again.body.id, "ACTIVE"],
    ]);
  });
});

describe("POST /api/subscriptions/{id}/cancel refusals", () => {
  it("answers 409 Esta assinatura já está cancelada the second time, and sends one e-mail", async () => {
    const { user, subscription } = await subscribed();
    await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: {} });
    for (const body of [{}, { cancelImmediately: true }]) {
      const again = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body });
      expect(again.status).toBe(409);
      expect(again.body).toEqual({ message: "Esta assinatura já está cancelada", success: false });
    }
    // The refused immediate cancel did not end access either.
    expect((await profileOf(user)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await t.deliverMail()).toBe(1);
  });

  it("lets one of two concurrent cancels through; the other answers 409", async () => {
    const { user, subscription } = await subscribed();
    const results = await Promise.all(
      [false, true].map((cancelImmediately) => t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { cancelImmediately } })),
    );
    expect(results.map((r) => r.status).sort()).toEqual([200, 409]);
    expect(results.find((r) => r.status === 409)!.body).toEqual({ message: "Esta assinatura já está cancelada", success: false });
    expect((await rowOf(subscription.id)).status).toBe("CANCELED");
    expect(await t.deliverMail()).toBe(1);
  });

  it("answers 403 Acesso negado for another user's subscription and changes nothing", async () => {
    const { user, subscription } = await subscribed();
    const intruder = await makeStudent(t);
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: intruder.token, body: { cancelImmediately: true } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(DENIED);
    expect((await rowOf(subscription.id)).status).toBe("ACTIVE");
    expect((await profileOf(user)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await t.deliverMail()).toBe(0);
  });

  it("lets an administrator cancel anyone's subscription", async () => {
    const { user, subscription } = await subscribed();
    const boss = await makeUser(t, { email: "boss@example.com" });
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: boss.token, body: { cancelImmediately: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, userId: user.id, status: "CANCELED" });
    expect((await profileOf(user)).subscriptionType).toBe("FREEMIUM");
    await t.deliverMail();
    expect(t.smtp.to(user.email).map((mail) => mail.subject)).toEqual(["Assinatura cancelada"]);
    expect(t.smtp.to("boss@example.com")).toEqual([]);
  });

  it("answers 404 Assinatura não encontrada for an unknown id and 400 for a non-numeric one", async () => {
    const user = await makeStudent(t);
    const unknown = await t.post("/api/subscriptions/999999/cancel", { token: user.token, body: {} });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "Assinatura não encontrada", success: false });
    const bad = await t.post("/api/subscriptions/abc/cancel", { invalidRequest: true, token: user.token, body: {} });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });

  it("answers 401 without a token", async () => {
    const { subscription } = await subscribed();
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { body: {} });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect((await rowOf(subscription.id)).status).toBe("ACTIVE");
  });

  it("refuses a body of the wrong types with 400 on those fields and cancels nothing", async () => {
    const { user, subscription } = await subscribed();
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, {
      invalidRequest: true,
      token: user.token,
      body: { cancelImmediately: "yes", reason: 42 },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["cancelImmediately", "reason"]);
    const long = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { invalidRequest: true, token: user.token, body: { reason: "x".repeat(2001) } });
    expect(long.status).toBe(400);
    expect(long.body.errors.map((e: { field: string }) => e.field)).toEqual(["reason"]);
    expect((await rowOf(subscription.id)).status).toBe("ACTIVE");
  });

  it("answers 409 for a subscription whose payment failed", async () => {
    const user = await makeStudent(t);
    expect((await subscribeByCard(t, user, await planId(t, "Mensal"), { cardNumber: CARD_DECLINED })).status).toBe(422);
    const [failed] = await t.db.select().from(subscriptions).where(eq(subscriptions.userId, user.id));
    const res = await t.post(`/api/subscriptions/${failed.id}/cancel`, { token: user.token, body: {} });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Esta assinatura não está ativa", success: false });
    expect((await rowOf(failed.id)).status).toBe("FAILED");
    expect((await rowOf(failed.id)).canceledAt).toBeNull();
  });

  it("cancels a PENDING PIX subscription with its invoice and charge, without touching access", async () => {
    const user = await makeStudent(t);
    const pending = await t.post("/api/subscriptions", { token: user.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
    const res = await t.post(`/api/subscriptions/${pending.body.id}/cancel`, { token: user.token, body: {} });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("CANCELED");
    const [invoice] = await t.db.select().from(invoices).where(eq(invoices.subscriptionId, pending.body.id));
    expect(invoice.status).toBe("CANCELED");
    const [pix] = await t.db.select().from(pixTransactions).where(eq(pixTransactions.id, pending.body.pix.id));
    expect(pix.status).toBe("CANCELLED");
    expect(await accessOf(user.id)).toEqual({ subscriptionType: "FREEMIUM", expiresAt: null });
    expect((await t.get("/api/subscriptions/my-subscription", { token: user.token })).status).toBe(404);
  });
});

describe("PUT /api/subscriptions/{id}", () => {
  it("turns autoRenew off: 200 with the subscription, stored", async () => {
    const { user, subscription } = await subscribed();
    t.clock.advance(HOUR);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { autoRenew: false } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...subscription, autoRenew: false, updatedAt: t.clock.now().toISOString() });
    expect((await rowOf(subscription.id)).autoRenew).toBe(false);
    const current = await t.get("/api/subscriptions/my-subscription", { token: user.token });
    expect(current.body.autoRenew).toBe(false);

    const back = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { autoRenew: true } });
    expect(back.status).toBe(200);
    expect(back.body.autoRenew).toBe(true);
  });

  it("with autoRenew off, the renewal job reminds once instead of charging", async () => {
    const { user, subscription } = await subscribed();
    await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { autoRenew: false } });
    t.clock.set(new Date(new Date(END).getTime() - 2 * DAY));
    await t.app.services.renewals.run();
    await t.app.services.renewals.run();
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);
    await t.deliverMail();
    expect(t.smtp.to(user.email).map((mail) => mail.subject)).toEqual(["Sua assinatura está perto do fim"]);
    expect((await rowOf(subscription.id)).status).toBe("ACTIVE");
  });

  it("saves a new card without charging it, and the next renewal charges that card", async () => {
    const { user, subscription } = await subscribed();
    const res = await t.put(`/api/subscriptions/${subscription.id}`, {
      token: user.token,
      body: cardFields(t, { cardNumber: "5555 5555 5555 4444" }),
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, status: "ACTIVE", paymentMethod: "CREDIT_CARD", lastFourDigits: "4444" });
    const row = await rowOf(subscription.id);
    expect(row.gatewayPaymentMethodId).toMatch(/^pm_sandbox_4444_/);
    expect(await t.db.select().from(payments).where(eq(payments.userId, user.id))).toHaveLength(1);

    t.clock.set(new Date(new Date(END).getTime() - 2 * DAY));
    await t.app.services.renewals.run();
    const charged = await t.db.select().from(payments).where(eq(payments.userId, user.id));
    expect(charged.map((payment) => [payment.status, payment.lastFourDigits])).toEqual([
      ["COMPLETED", "4242"],
      ["COMPLETED", "4444"],
    ]);
  });

  it("answers 422 Pagamento recusado to a card the gateway refuses, and keeps the old card", async () => {
    const { user, subscription } = await subscribed();
    const before = await rowOf(subscription.id);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: cardFields(t, { cardNumber: CARD_DECLINED }) });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Pagamento recusado", success: false, details: "card_declined" });
    expect(await rowOf(subscription.id)).toEqual(before);
  });

  it("checks new card fields like a new card: 400 by field, nothing changed", async () => {
    const { user, subscription } = await subscribed();
    const before = await rowOf(subscription.id);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, {
      token: user.token,
      body: cardFields(t, { cardNumber: "4242424242424241", cardCvv: "1" }),
    });
    expect(res.status).toBe(400);
    expect(res.body.errors.map((error: { field: string }) => error.field).sort()).toEqual(["cardCvv", "cardNumber"]);
    expect(await rowOf(subscription.id)).toEqual(before);
  });

  it("takes card fields sent as null as not given: the saved card is kept", async () => {
    const { user, subscription } = await subscribed();
    const before = await rowOf(subscription.id);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { autoRenew: false, cardNumber: null, cardCvv: null } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, autoRenew: false, paymentMethod: "CREDIT_CARD", lastFourDigits: "4242" });
    const after = await rowOf(subscription.id);
    expect(after).toMatchObject({ autoRenew: false, gatewayPaymentMethodId: before.gatewayPaymentMethodId, lastFourDigits: "4242" });
  });

  it("changes the payment method", async () => {
    const { user, subscription } = await subscribed();
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { paymentMethod: "PIX" } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, paymentMethod: "PIX", status: "ACTIVE" });
    expect(await rowOf(subscription.id)).toMatchObject({ paymentMethod: "PIX", status: "ACTIVE", autoRenew: true });
  });

  it("refuses values of the wrong types with 400 on those fields and changes nothing", async () => {
    const { user, subscription } = await subscribed();
    const res = await t.put(`/api/subscriptions/${subscription.id}`, {
      invalidRequest: true,
      token: user.token,
      body: { autoRenew: "no", paymentMethod: "CASH" },
    });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual(["autoRenew", "paymentMethod"]);
    for (const body of [{ autoRenew: null }, { autoRenew: 0 }]) {
      const one = await t.put(`/api/subscriptions/${subscription.id}`, { invalidRequest: true, token: user.token, body });
      expect(one.status).toBe(400);
      expect(one.body.errors.map((e: { field: string }) => e.field)).toEqual(["autoRenew"]);
    }
    const row = await rowOf(subscription.id);
    expect(row).toMatchObject({ autoRenew: true, paymentMethod: "CREDIT_CARD" });
  });

  it("answers 403 Acesso negado for another user's subscription and changes nothing", async () => {
    const { subscription } = await subscribed();
    const intruder = await makeStudent(t);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: intruder.token, body: { autoRenew: false } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual(DENIED);
    expect((await rowOf(subscription.id)).autoRenew).toBe(true);
  });

  it("lets an administrator change anyone's", async () => {
    const { subscription } = await subscribed();
    const boss = await makeUser(t, { email: "boss@example.com" });
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: boss.token, body: { autoRenew: false } });
    expect(res.status).toBe(200);
    expect(res.body.autoRenew).toBe(false);
    expect(res.body).toMatchObject({ id: subscription.id, userId: subscription.userId });
    expect((await rowOf(subscription.id)).autoRenew).toBe(false);
  });

  it("answers 409 Esta assinatura não está ativa once it is canceled, and changes nothing", async () => {
    const { user, subscription } = await subscribed();
    expect((await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: user.token, body: { cancelImmediately: true } })).status).toBe(200);
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: user.token, body: { autoRenew: true, paymentMethod: "PIX" } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Esta assinatura não está ativa", success: false });
    expect(await rowOf(subscription.id)).toMatchObject({ status: "CANCELED", autoRenew: false, paymentMethod: "CREDIT_CARD" });
  });

  it("answers 404 for an unknown subscription and 401 without a token", async () => {
    const user = await makeStudent(t);
    const unknown = await t.put("/api/subscriptions/999999", { token: user.token, body: { autoRenew: false } });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "Assinatura não encontrada", success: false });
    const anonymous = await t.put("/api/subscriptions/1", { body: { autoRenew: false } });
    expect(anonymous.status).toBe(401);
  });
});
