import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { cardFields } from "../factories/billing.js";
import { makeStudent } from "../factories/users.js";
import { FakeStripe, startFakeStripe } from "../helpers/fake-stripe.js";
import { useTestApp } from "../helpers/test-app.js";
import { billingCounts, billingOf, cardBody, databaseText, ISO, planId, profileOf, subjectsTo } from "./support.js";

// The Stripe adapter against a local fake of the Stripe API (started before the app reads its configuration).
const stripe = await startFakeStripe();
const t = useTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url, WEBHOOK_SECRET: "card-flow-secret" });
beforeEach(() => stripe.reset());
afterAll(() => stripe.stop());

const CARD = "4242424242424242";

describe("POST /api/subscriptions by card, through Stripe", () => {
  it("charges an accepted card: 201 ACTIVE, the gateway's payment names our subscription, a COMPLETED payment and PAID invoice", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t), CARD) });

    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      userId: ana.id,
      planName: "Mensal",
      status: "ACTIVE",
      paymentMethod: "CREDIT_CARD",
      lastFourDigits: "4242",
      price: 49.9,
      currency: "BRL",
      canceledAt: null,
    });
    expect(res.body.endDate).toMatch(ISO);
    expect(res.body.renewalDate).toBe(res.body.endDate);

    const intents = [...stripe.paymentIntents.values()];
    expect(intents).toHaveLength(1);
    expect(intents[0]).toMatchObject({
      amount: 4990,
      currency: "brl",
      status: "succeeded",
      metadata: { subscriptionId: String(res.body.id), userId: String(ana.id) },
    });
    expect([...stripe.customers.values()]).toMatchObject([{ email: ana.email }]);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toMatchObject([{ id: res.body.id, status: "ACTIVE", gateway: "stripe", gatewayCustomerId: intents[0].customer }]);
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, transactionId: intents[0].id, lastFourDigits: "4242" }]);
    expect(rows.invoices).toMatchObject([{ status: "PAID", paymentId: rows.payments[0].id }]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("never stores or logs the card number (only the last four digits)", async () => {
    const ana = await makeStudent(t);
    const body = { ...cardBody(await planId(t), "4242 4242 4242 4242"), cardCvv: "987" };
    const res = await t.post("/api/subscriptions", { token: ana.token, body });
    expect(res.status).toBe(201);
    // The gateway did get the card (so the check below is not vacuous).
    expect(stripe.requestsTo("POST", "/v1/payment_methods")[0].params).toMatchObject({ card: { number: CARD, cvc: "987" } });

    const dump = await databaseText(t);
    expect(dump).toContain("4242");
    expect(dump).not.toContain(CARD);
    expect(dump).not.toContain("4242 4242 4242 4242");
    const logs = t.logLines.join("\n");
    expect(logs).not.toContain(CARD);
    expect(logs).not.toContain("4242 4242");
    expect(logs).not.toContain(stripe.secretKey);
  });

  it("answers 422 Pagamento recusado with details card_declined to 4000000000000002, leaving a FAILED payment and no access", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t), "4000000000000002") });

    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Pagamento recusado", success: false, details: "card_declined" });
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["FAILED"]);
    expect(rows.payments).toMatchObject([{ status: "FAILED", lastFourDigits: "0002", failureReason: "card_declined" }]);
    expect(rows.invoices).toHaveLength(0);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).status).toBe(404);
    expect(await subjectsTo(t, ana.email)).toEqual(["Falha no pagamento"]);
    expect(await databaseText(t)).not.toContain("4000000000000002");
  });

  it("answers 422 insufficient_funds to 4000000000009995", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t), "4000000000009995") });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Pagamento recusado", success: false, details: "insufficient_funds" });
  });

  it("answers 409 to a second subscription while one is active, without calling the gateway", async () => {
    const ana = await makeStudent(t);
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(201);
    const calls = stripe.requests.length;
    const again = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Você já possui uma assinatura ativa", success: false });
    expect(stripe.requests).toHaveLength(calls);
  });

  it("answers 502 and writes nothing when Stripe is failing", async () => {
    const ana = await makeStudent(t);
    const before = await billingCounts(t);
    stripe.failNext(500, 10); // more than the SDK's retries
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    expect(await billingCounts(t)).toEqual(before);
  });

  it("answers 502 when the charge itself goes unanswered, keeps the payment PENDING for the gateway to settle, and lets the user try again", async () => {
    const ana = await makeStudent(t);
    stripe.failNext(500, 3, "POST /v1/payment_intents"); // the try and the SDK's 2 retries
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    const unknown = await billingOf(t, ana.id);
    expect(unknown.subscriptions.map((s) => s.status)).toEqual(["FAILED"]);
    expect(unknown.payments).toMatchObject([{ status: "PENDING", amountCents: 4990, transactionId: null, idempotencyKey: expect.any(String) }]);
    // Every try of the charge carried the same key, derived from the payment's.
    const tries = stripe.requestsTo("POST", "/v1/payment_intents");
    expect(tries.length).toBeGreaterThan(1);
    expect(new Set(tries.map((r) => r.headers["idempotency-key"]))).toEqual(new Set([`${unknown.payments[0].idempotencyKey}:payment`]));
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");

    const again = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(again.status).toBe(201);
    expect(again.body.status).toBe("ACTIVE");
  });
});

describe("POST /api/payments/subscribe by card, through Stripe", () => {
  it("creates a recurring subscription at the gateway and answers 201 in the payment-flow shape", async () => {
    const ana = await makeStudent(t, { name: "Ana Cartão" });
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(
      [
        "autoRenew",
        "createdAt",
        "endDate",
        "id",
        "paymentId",
        "paymentMethod",
        "startDate",
        "status",
        "subscriptionType",
        "updatedAt",
        "user",
        "userId",
      ].sort(),
    );
    const gatewaySubs = [...stripe.subscriptions.values()];
    expect(gatewaySubs).toHaveLength(1);
    const gatewaySub = gatewaySubs[0] as any;
    expect(gatewaySub).toMatchObject({ status: "active", metadata: { subscriptionId: String(res.body.id), userId: String(ana.id) } });
    expect(gatewaySub.items.data[0].price).toMatchObject({ unit_amount: 4990, currency: "brl", recurring: { interval: "month", interval_count: 1 } });
    const intent = [...stripe.paymentIntents.values()][0];

    expect(res.body).toMatchObject({
      userId: ana.id,
      subscriptionType: "MENSAL",
      paymentId: intent.id,
      paymentMethod: "CREDIT_CARD",
      status: "ACTIVE",
      autoRenew: true,
      user: { id: ana.id, name: "Ana Cartão", email: ana.email, userType: "ALUNO" },
    });
    for (const field of ["startDate", "endDate", "createdAt", "updatedAt"]) expect(res.body[field]).toMatch(ISO);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toMatchObject([{ status: "ACTIVE", gatewaySubscriptionId: gatewaySub.id, gatewayCustomerId: gatewaySub.customer }]);
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, transactionId: intent.id }]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");

    const current = await t.get("/api/payments/subscriptions/current", { token: ana.token });
    expect(current.status).toBe(200);
    expect(current.body).toEqual(res.body);
  });

  it("keeps autoRenew false when asked", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa", autoRenew: false },
    });
    expect(res.status).toBe(201);
    expect(res.body.autoRenew).toBe(false);
    expect((await billingOf(t, ana.id)).subscriptions).toMatchObject([{ id: res.body.id, status: "ACTIVE", autoRenew: false }]);
  });

  it("answers 400 Pagamento recusado with details to a refused card and marks the subscription FAILED", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_chargeDeclined" },
    });

    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Pagamento recusado", success: false, details: "card_declined" });
    expect([...stripe.subscriptions.values()]).toHaveLength(0);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["FAILED"]);
    expect(rows.payments.map((p) => p.status)).toEqual(["FAILED"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect(await subjectsTo(t, ana.email)).toEqual(["Falha no pagamento"]);
  });

  it("answers 404 Plano não encontrado for an unknown plan, calling no gateway", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: 999_999, paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Plano não encontrado", success: false });
    expect(stripe.requests).toHaveLength(0);
  });

  it("answers 400 with details to an unknown payment method id", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_does_not_exist" },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ message: "Pagamento recusado", success: false, details: expect.any(String) });
  });
});

describe("while a card is being charged", () => {
  it("answers 409 Pagamento em processamento to the user's other checkouts, charging once", async () => {
    const ana = await makeStudent(t);
    const plan = await planId(t);
    const hold = stripe.hold();
    const checkout = t.post("/api/subscriptions", { token: ana.token, body: cardBody(plan) });
    await stripe.waitForRequests("POST /v1/payment_intents", 1);

    const busy = { message: "Pagamento em processamento. Aguarde a confirmação.", success: false };
    for (const body of [cardBody(plan), { planId: plan, paymentMethod: "PIX" }, { planId: plan, paymentMethod: "BOLETO" }]) {
      const other = await t.post("/api/subscriptions", { token: ana.token, body });
      expect(other.status).toBe(409);
      expect(other.body).toEqual(busy);
    }
    const flow = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: plan, paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });
    expect([flow.status, flow.body]).toEqual([409, busy]);
    hold.release();

    expect((await checkout).status).toBe(201);
    expect(stripe.requestsTo("POST", "/v1/payment_intents")).toHaveLength(1);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["ACTIVE"]);
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED"]);
  });
});

describe("a card charged while another subscription became ACTIVE", () => {
  it.each([
    ["POST /api/subscriptions", "/api/subscriptions", (plan: number) => cardBody(plan)],
    [
      "POST /api/payments/subscribe",
      "/api/payments/subscribe",
      (plan: number) => ({ planId: plan, paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" }),
    ],
  ])("(%s) is refunded at the gateway and answered 409, the subscription paid first kept", async (_label, path, body) => {
    const ana = await makeStudent(t);
    const plan = await planId(t);
    const pix = await t.post("/api/payments/subscribe", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } });
    const hold = stripe.hold();
    const checkout = t.post(path, { token: ana.token, body: body(plan) });
    await stripe.waitForRequests(path.endsWith("subscribe") ? "POST /v1/subscriptions" : "POST /v1/payment_intents", 1);
    // The QR code shown earlier is paid while the card is being charged.
    expect((await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: pix.body.id } })).status).toBe(200);
    hold.release();

    const res = await checkout;
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ message: "Você já possui uma assinatura ativa", success: false });
    const [intent] = [...stripe.paymentIntents.values()];
    expect([...stripe.refunds.values()]).toMatchObject([{ payment_intent: intent.id, amount: 4990, status: "succeeded" }]);
    for (const gatewaySubscription of stripe.subscriptions.values()) expect(gatewaySubscription.status).toBe("canceled");
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => [s.paymentMethod, s.status])).toEqual([
      ["PIX", "ACTIVE"],
      ["CREDIT_CARD", "CANCELED"],
    ]);
    expect(rows.payments.map((p) => [p.paymentMethod, p.status, p.transactionId])).toEqual([
      ["CREDIT_CARD", "REFUNDED", intent.id],
      ["PIX", "COMPLETED", pix.body.id],
    ]);
    expect(rows.invoices.map((i) => [i.subscriptionId, i.status])).toEqual([[pix.body.subscriptionId, "PAID"]]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Pagamento devolvido"]);
  });
});

describe("a checkout's payment settled by the gateway's event", () => {
  it("is settled once when the event arrives before the checkout's own answer", async () => {
    const ana = await makeStudent(t);
    const hold = stripe.hold();
    const checkout = t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    await stripe.waitForRequests("POST /v1/payment_intents", 1);
    const [pending] = (await billingOf(t, ana.id)).payments;
    expect(pending).toMatchObject({ status: "PENDING", transactionId: null });
    const { metadata } = stripe.requestsTo("POST", "/v1/payment_intents")[0].params as { metadata: Record<string, string> };
    expect(metadata).toEqual({ subscriptionId: String(pending.subscriptionId), userId: String(ana.id), paymentKey: pending.idempotencyKey });

    // The gateway's event about that payment intent (the fake makes the intent itself only once released).
    const event = FakeStripe.event("payment_intent.succeeded", {
      id: "pi_event_first",
      object: "payment_intent",
      amount_received: 4990,
      currency: "brl",
      metadata,
    });
    const delivery = await stripe.sendWebhook(`${t.baseUrl}/api/payments/webhook`, event, {
      secret: "card-flow-secret",
      timestampSeconds: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(delivery.status).toBe(200);
    hold.release();

    const res = await checkout;
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "ACTIVE", lastFourDigits: "4242" });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ id: pending.id, status: "COMPLETED", transactionId: "pi_event_first" }]);
    expect(rows.invoices).toMatchObject([{ status: "PAID", paymentId: pending.id }]);
    expect(rows.subscriptions).toMatchObject([{ status: "ACTIVE", gatewayCustomerId: expect.stringMatching(/^cus_/) }]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });
});

describe("gateway events about a Stripe subscription", () => {
  it("a renewal invoice as Stripe sends it (subscription under parent.subscription_details) extends the period once", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });
    expect(res.status).toBe(201);
    const gatewayId = [...stripe.subscriptions.keys()][0];
    t.clock.advance(30 * 86_400_000);

    // The current API has no top-level `subscription` on invoices.
    const invoice = stripe.invoiceObjectFor(gatewayId, { subscription: undefined });
    const event = FakeStripe.event("invoice.payment_succeeded", invoice);
    const timestampSeconds = Math.floor(t.clock.now().getTime() / 1000);
    for (const path of ["/api/webhooks/card", "/api/payments/webhook"]) {
      const delivery = await stripe.sendWebhook(t.baseUrl + path, event, { secret: "card-flow-secret", timestampSeconds, headerName: "Stripe-Signature" });
      expect(delivery).toEqual({ status: 200, body: "" });
    }

    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => [p.status, p.amountCents])).toEqual([
      ["COMPLETED", 4990],
      ["COMPLETED", 4990],
    ]);
    expect(rows.payments[1].transactionId).toBe(invoice.id);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID", "PAID"]);
    const previousEnd = new Date(res.body.endDate);
    expect(rows.subscriptions[0].endDate!.getTime()).toBeGreaterThan(previousEnd.getTime() + 27 * 86_400_000);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
  });

  it("customer.subscription.deleted from Stripe cancels here and ends access", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });
    const gatewayId = [...stripe.subscriptions.keys()][0];
    const deleted = FakeStripe.event("customer.subscription.deleted", { ...stripe.subscriptions.get(gatewayId)!, status: "canceled" });
    const delivery = await stripe.sendWebhook(`${t.baseUrl}/api/payments/webhook`, deleted, {
      secret: "card-flow-secret",
      timestampSeconds: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(delivery).toEqual({ status: 200, body: "" });

    expect((await billingOf(t, ana.id)).subscriptions).toMatchObject([{ id: res.body.id, status: "CANCELED" }]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura cancelada"]);
  });
});

/** A student subscribed by card through the payment flow: the subscription, and its id at Stripe. */
async function subscribed() {
  const ana = await makeStudent(t);
  const res = await t.post("/api/payments/subscribe", {
    token: ana.token,
    body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
  });
  expect(res.status).toBe(201);
  return { ana, subscription: res.body, gatewayId: [...stripe.subscriptions.keys()][0] };
}

describe("POST /api/subscriptions/{id}/cancel and PUT /api/subscriptions/{id} while Stripe fails", () => {
  it("cancels here even when Stripe does not answer the cancellation: 200 CANCELED, access ended", async () => {
    const { ana, subscription, gatewayId } = await subscribed();
    stripe.failNext(500, 10, `DELETE /v1/subscriptions/${gatewayId}`); // more than the SDK's retries
    const res = await t.post(`/api/subscriptions/${subscription.id}/cancel`, { token: ana.token, body: { cancelImmediately: true } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, status: "CANCELED" });
    expect(stripe.requestsTo("DELETE", `/v1/subscriptions/${gatewayId}`).length).toBeGreaterThan(0);
    expect((await billingOf(t, ana.id)).subscriptions[0].status).toBe("CANCELED");
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
  });

  it("answers 502 to a new card Stripe does not answer, and keeps the saved card", async () => {
    const { ana, subscription } = await subscribed();
    const before = (await billingOf(t, ana.id)).subscriptions[0];
    stripe.failNext(500, 10); // more than the SDK's retries
    const res = await t.put(`/api/subscriptions/${subscription.id}`, { token: ana.token, body: cardFields(t, { cardNumber: "5555555555554444" }) });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    expect((await billingOf(t, ana.id)).subscriptions[0]).toMatchObject({
      gatewayPaymentMethodId: before.gatewayPaymentMethodId,
      lastFourDigits: before.lastFourDigits,
    });
  });
});

describe("POST /api/payments/subscriptions/{id}/cancel, through Stripe", () => {
  it("cancels at the gateway and here: 200, status CANCELED, autoRenew false, access ended", async () => {
    const { ana, subscription, gatewayId } = await subscribed();
    const res = await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, { token: ana.token });

    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, status: "CANCELED", autoRenew: false, subscriptionType: "MENSAL", user: { id: ana.id } });
    expect(stripe.requestsTo("DELETE", `/v1/subscriptions/${gatewayId}`)).toHaveLength(1);
    expect(stripe.subscriptions.get(gatewayId)).toMatchObject({ status: "canceled" });

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toMatchObject([{ status: "CANCELED", autoRenew: false, renewalDate: null }]);
    expect(rows.subscriptions[0].canceledAt).not.toBeNull();
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura cancelada"]);
  });

  it("answers 404 Assinatura não encontrada for an unknown subscription", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscriptions/999999/cancel", { token: ana.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Assinatura não encontrada", success: false });
  });

  it("answers 409 to a second cancel and 403 to another user", async () => {
    const { ana, subscription } = await subscribed();
    const bia = await makeStudent(t);
    const other = await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, { token: bia.token });
    expect(other.status).toBe(403);
    expect((await billingOf(t, ana.id)).subscriptions[0].status).toBe("ACTIVE");

    expect((await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, { token: ana.token })).status).toBe(200);
    const again = await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, { token: ana.token });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Esta assinatura já está cancelada", success: false });
  });

  it("keeps access until the period ends when the body says cancelImmediately: false, and refuses one that is not a boolean", async () => {
    const { ana, subscription } = await subscribed();
    const invalid = await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, {
      invalidRequest: true,
      token: ana.token,
      body: { cancelImmediately: "no" },
    });
    expect(invalid.status).toBe(400);
    expect(invalid.body.errors.map((e: { field: string }) => e.field)).toEqual(["cancelImmediately"]);

    const res = await t.post(`/api/payments/subscriptions/${subscription.id}/cancel`, { token: ana.token, body: { cancelImmediately: false } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: subscription.id, status: "CANCELED" });
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
  });
});
