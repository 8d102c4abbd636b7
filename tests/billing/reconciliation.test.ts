import { sql } from "drizzle-orm";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { makeStudent, relogin } from "../factories/users.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";
import { FakeStripe, startFakeStripe } from "../helpers/fake-stripe.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { billingOf, cardBody, DAY_MS, planId, subjectsTo } from "./support.js";

// A crash (or a lost connection) between a gateway's answer and its settlement, made in the database itself: a
// trigger refuses the settling write, so the gateway has charged and nothing of ours says so, as after a kill.
// The service, restarted (here: the other instance), must end with the payment recorded once.

const stripe = await startFakeStripe();
const PIX_KEY = "pix_dev_key_for_reconciliation_tests";
const pix = new FakePixGateway({ apiKey: PIX_KEY, devMode: true });
await pix.start();
afterAll(async () => {
  await stripe.stop();
  await pix.stop();
});

const SECRET = "reconciliation-webhook-secret";
const env = {
  STRIPE_SECRET_KEY: stripe.secretKey,
  STRIPE_API_BASE: stripe.url,
  PIX_API_URL: pix.url,
  PIX_API_KEY: PIX_KEY,
  PIX_DEV_MODE: "true",
  WEBHOOK_SECRET: SECRET,
};
const t = useTestApp(env);
const restarted = useSecondInstance(t, env);
beforeEach(() => {
  stripe.reset();
  pix.reset();
});
afterEach(() => crashes(false));

const MINUTE = 60_000;

/** While on, every write that would settle a charge fails, as the process dying at that moment would leave it. */
async function crashes(on: boolean) {
  await t.db.execute(sql.raw("drop trigger if exists crash_on_settle on payments"));
  await t.db.execute(sql.raw("drop trigger if exists crash_on_pix on pix_transactions"));
  if (!on) return;
  await t.db.execute(
    sql.raw(
      "create or replace function crash_on_settle() returns trigger language plpgsql as $$ begin raise exception 'killed before the settlement committed'; end $$",
    ),
  );
  await t.db.execute(
    sql.raw("create trigger crash_on_settle before update on payments for each row when (old.status = 'PENDING') execute function crash_on_settle()"),
  );
  await t.db.execute(sql.raw("create trigger crash_on_pix before insert on pix_transactions for each row execute function crash_on_settle()"));
}

/** The job of the restarted instance, once its unsettled charges are old enough to be asked about. */
async function reconcileLater(app: TestApp = restarted) {
  t.clock.advance(6 * MINUTE);
  return app.app.services.gatewayFollowUps.run();
}

describe("a card checkout killed between the gateway's charge and its settlement", () => {
  it("ends with the payment recorded once, by the restarted service asking the gateway", async () => {
    const ana = await makeStudent(t);
    const plan = await planId(t);
    await crashes(true);
    const killed = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(plan) });
    expect(killed.status).toBe(500);
    await crashes(false);

    const [intent] = [...stripe.paymentIntents.values()];
    expect(intent).toMatchObject({ status: "succeeded", amount: 4990 });
    const lost = await billingOf(t, ana.id);
    expect(lost.payments).toMatchObject([{ status: "PENDING", transactionId: null }]);
    // Meanwhile the user cannot be charged a second time.
    const again = await restarted.post("/api/subscriptions", { token: ana.token, body: cardBody(plan) });
    expect(again.status).toBe(409);
    expect(await restarted.app.services.gatewayFollowUps.run()).toMatchObject({ reconciled: 0 }); // too recent to ask

    expect(await reconcileLater()).toMatchObject({ reconciled: 1 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ id: lost.payments[0].id, status: "COMPLETED", transactionId: intent.id, lastFourDigits: "4242" }]);
    expect(rows.subscriptions).toMatchObject([{ status: "ACTIVE", gatewayCustomerId: intent.customer }]);
    expect(rows.invoices).toMatchObject([{ status: "PAID", paymentId: rows.payments[0].id }]);
    expect(stripe.paymentIntents.size).toBe(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);

    expect(await reconcileLater(t)).toMatchObject({ reconciled: 0 });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
  });

  it("ends with the payment recorded once when the gateway's webhook heals it first", async () => {
    const ana = await makeStudent(t);
    await crashes(true);
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(500);
    await crashes(false);

    const [intent] = [...stripe.paymentIntents.values()];
    const event = FakeStripe.event("payment_intent.succeeded", intent);
    const delivery = await stripe.sendWebhook(`${restarted.baseUrl}/api/payments/webhook`, event, {
      secret: SECRET,
      timestampSeconds: Math.floor(t.clock.now().getTime() / 1000),
    });
    expect(delivery.status).toBe(200);

    expect(await reconcileLater()).toMatchObject({ reconciled: 0 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", transactionId: intent.id }]);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["ACTIVE"]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
  });

  it("ends with the gateway subscription recorded once (payment flow)", async () => {
    const ana = await makeStudent(t);
    await crashes(true);
    const body = { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" };
    expect((await t.post("/api/payments/subscribe", { token: ana.token, body })).status).toBe(500);
    await crashes(false);

    expect(await reconcileLater()).toMatchObject({ reconciled: 1 });
    const [gatewaySubscription] = [...stripe.subscriptions.values()];
    const [intent] = [...stripe.paymentIntents.values()];
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toMatchObject([{ status: "ACTIVE", gatewaySubscriptionId: gatewaySubscription.id }]);
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", transactionId: intent.id }]);
    expect(stripe.subscriptions.size).toBe(1);
  });

  it("records a failure when the gateway never made the charge, and the user can subscribe again", async () => {
    const ana = await makeStudent(t);
    stripe.failNext(500, 3, "POST /v1/payment_intents"); // the charge's try and the SDK's 2 retries, all unanswered
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(502);

    expect(await reconcileLater()).toMatchObject({ reconciled: 1 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ status: "FAILED", failureReason: "gateway_no_charge" }]);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["FAILED"]);
    expect(stripe.paymentIntents.size).toBe(0);
    await relogin(t, ana);
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(201);
  });
});

describe("a renewal killed between the gateway's charge and its settlement", () => {
  it("is not charged again by the next runs, and is recorded once by the reconciliation", async () => {
    const ana = await makeStudent(t);
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(201);
    const [bought] = (await billingOf(t, ana.id)).subscriptions;
    t.clock.set(new Date(bought.endDate!.getTime() - DAY_MS));

    await crashes(true);
    await expect(t.app.services.renewals.run()).resolves.toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    await crashes(false);
    expect(stripe.paymentIntents.size).toBe(2);
    expect(await restarted.app.services.renewals.run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    expect(stripe.paymentIntents.size).toBe(2);

    expect(await reconcileLater()).toMatchObject({ reconciled: 1 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED", "COMPLETED"]);
    expect(rows.subscriptions[0].endDate!.getTime()).toBeGreaterThan(bought.endDate!.getTime());
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID", "PAID"]);
    expect(stripe.paymentIntents.size).toBe(2);
  });
});

describe("a PIX checkout killed between the gateway's charge and its record", () => {
  it("ends with the one charge recorded, payable, and answered to the user's next request", async () => {
    const ana = await makeStudent(t);
    const plan = await planId(t);
    await crashes(true);
    expect((await t.post("/api/payments/subscribe", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } })).status).toBe(500);
    await crashes(false);
    expect(pix.charges.size).toBe(1);
    expect((await billingOf(t, ana.id)).pix).toHaveLength(0);

    expect(await reconcileLater()).toMatchObject({ reconciled: 1 });
    const [charge] = pix.charges.keys();
    const rows = await billingOf(t, ana.id);
    expect(rows.pix).toMatchObject([{ id: charge, status: "PENDING" }]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);
    await relogin(t, ana);
    const again = await t.post("/api/payments/subscribe", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } });
    expect(again.status).toBe(201);
    expect(again.body.id).toBe(charge);
    expect(pix.charges.size).toBe(1);
  });
});
