import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions } from "../../src/tables/billing.table.js";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { makeStudent, type MadeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { billingCounts, billingOf, cardBody, planId, profileOf, subjectsTo, subscriptionRow, userRow } from "./support.js";

const SECRET = "whsec_card_webhook_secret_for_tests";
// The sandbox card gateway (no STRIPE_SECRET_KEY); events are signed here as the gateway would sign them.
const t = useTestApp({ WEBHOOK_SECRET: SECRET });

const PATHS = ["/api/payments/webhook", "/api/webhooks/card"] as const;
let sequence = 0;

const nowSeconds = () => Math.floor(t.clock.now().getTime() / 1000);

function event(type: string, object: Record<string, unknown>, id = `evt_test_${++sequence}`) {
  return { id, object: "event", type, created: nowSeconds(), data: { object } };
}

interface SendOptions {
  path?: (typeof PATHS)[number];
  headerName?: string;
  /** Replaces the computed signature header. */
  header?: string;
  timestamp?: number;
  secret?: string;
}

/** Posts the raw body, signed with the secret at the clock's time unless told otherwise. */
function sendRaw(raw: string, options: SendOptions = {}) {
  const header = options.header ?? signCardEvent(raw, options.secret ?? SECRET, options.timestamp ?? nowSeconds());
  return t.post(options.path ?? "/api/payments/webhook", {
    headers: { "content-type": "application/json", [options.headerName ?? "Card-Signature"]: header },
    raw,
  });
}

const send = (body: object, options: SendOptions = {}) => sendRaw(JSON.stringify(body), options);

async function expectOk(body: object, options: SendOptions = {}) {
  const res = await send(body, options);
  expect(res.status).toBe(200);
  expect(res.text).toBe("");
}

/** An ACTIVE card subscription with a gateway subscription id (sandbox: sub_sandbox_…), via the payment flow. */
async function gatewaySubscription(user?: MadeUser) {
  const ana = user ?? (await makeStudent(t));
  const res = await t.post("/api/payments/subscribe", {
    token: ana.token,
    body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
  });
  expect(res.status).toBe(201);
  const row = await subscriptionRow(t, res.body.id);
  expect(row.gatewaySubscriptionId).toMatch(/^sub_sandbox_/);
  return { ana, row, gatewayId: row.gatewaySubscriptionId! };
}

/** A PENDING subscription (boleto, waiting for its payment). */
async function pendingSubscription() {
  const ana = await makeStudent(t);
  const res = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t), paymentMethod: "BOLETO" } });
  expect(res.status).toBe(201);
  expect(res.body.status).toBe("PENDING");
  return { ana, id: res.body.id as number };
}

const MONTH_DAYS = (from: Date, to: Date) => Math.round((to.getTime() - from.getTime()) / 86_400_000);

describe("card webhook signature", () => {
  const succeeded = (subscriptionId: number) =>
    event("payment_intent.succeeded", { id: `pi_sig_${++sequence}`, amount_received: 4990, metadata: { subscriptionId: String(subscriptionId) } });

  it.each(PATHS.flatMap((path) => ["Card-Signature", "Stripe-Signature"].map((headerName) => [path, headerName] as const)))(
    "accepts a correctly signed event on %s with header %s",
    async (path, headerName) => {
      const { ana, id } = await pendingSubscription();
      await expectOk(succeeded(id), { path, headerName });
      expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
      expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    },
  );

  it.each(PATHS)("answers 400 with an empty body on %s to a bad signature, a tampered body, an old or future timestamp, and changes nothing", async (path) => {
    const { id } = await pendingSubscription();
    const before = await billingCounts(t);
    const raw = JSON.stringify(succeeded(id));
    const now = nowSeconds();
    const valid = signCardEvent(raw, SECRET, now);
    const attempts = [
      sendRaw(raw, { path, secret: "whsec_another_secret" }),
      sendRaw(raw.replace('"amount_received":4990', '"amount_received":1'), { path, header: valid }),
      sendRaw(raw, { path, header: valid.replace(/v1=[0-9a-f]{4}/, "v1=0000") }),
      sendRaw(raw, { path, header: "garbage" }),
      sendRaw(raw, { path, header: `t=${now}` }),
      sendRaw(raw, { path, timestamp: now - 301 }),
      sendRaw(raw, { path, timestamp: now + 301 }),
      t.post(path, { headers: { "content-type": "application/json" }, raw }),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(400);
      expect(res.text).toBe("");
    }
    expect(await billingCounts(t)).toEqual(before);
    expect((await subscriptionRow(t, id)).status).toBe("PENDING");
  });

  it("refuses a delivery that arrives more than 5 minutes after it was signed (clock moved), accepts one within", async () => {
    const { id } = await pendingSubscription();
    const late = JSON.stringify(succeeded(id));
    const lateHeader = signCardEvent(late, SECRET, nowSeconds());
    t.clock.advance(5 * 60_000 + 1_000);
    const res = await sendRaw(late, { header: lateHeader });
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
    expect((await subscriptionRow(t, id)).status).toBe("PENDING");

    const onTime = JSON.stringify(succeeded(id));
    const onTimeHeader = signCardEvent(onTime, SECRET, nowSeconds());
    t.clock.advance(4 * 60_000);
    expect((await sendRaw(onTime, { header: onTimeHeader })).status).toBe(200);
    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
  });

  it("answers 400 to a correctly signed body that is not an event", async () => {
    for (const raw of ['{"hello":"world"}', '{"id":"evt_1","type":"x","data":{"object":[]}}', "[1,2,3]", "not json"]) {
      const res = await t.withInvalidRequests(() => sendRaw(raw));
      expect(res.status).toBe(400);
      expect(res.text).toBe("");
    }
    expect((await billingCounts(t)).gatewayEvents).toBe(0);
  });
});

describe("card webhook events", () => {
  it("payment_intent.succeeded activates a PENDING subscription named by metadata.subscriptionId and e-mails a confirmation", async () => {
    const { ana, id } = await pendingSubscription();
    await expectOk(event("payment_intent.succeeded", { id: "pi_first_1", amount_received: 4990, currency: "brl", metadata: { subscriptionId: String(id) } }));

    const row = await subscriptionRow(t, id);
    expect(row.status).toBe("ACTIVE");
    expect(MONTH_DAYS(row.startDate!, row.endDate!)).toBeGreaterThanOrEqual(28);
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, transactionId: "pi_first_1", subscriptionId: id }]);
    expect(rows.invoices.filter((i) => i.status === "PAID")).toHaveLength(1);
    expect(rows.invoices.filter((i) => i.status === "PENDING")).toHaveLength(0);
    const profile = await profileOf(t, ana.token);
    expect(profile.subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("reads an amount past what a payment can hold as not given, recording the plan's price instead of failing every redelivery", async () => {
    const { ana, id } = await pendingSubscription();
    await expectOk(
      event("payment_intent.succeeded", { id: "pi_huge_1", amount_received: 2_147_483_648, currency: "brl", metadata: { subscriptionId: String(id) } }),
    );
    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
    expect((await billingOf(t, ana.id)).payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, transactionId: "pi_huge_1" }]);
    expect(t.logLines.join("")).not.toContain("card gateway event failed");
  });

  it("reads a text the database cannot store (U+0000) as not given, instead of failing every redelivery (found by npm run fuzz)", async () => {
    const { ana, id } = await pendingSubscription();
    await expectOk(
      event("payment_intent.succeeded", {
        id: "pi_nul_1",
        amount_received: 4990,
        currency: "br\u0000l",
        customer: "cus_\u0000",
        payment_method: "pm_\u0000",
        metadata: { subscriptionId: String(id), paymentKey: "key\u0000" },
      }),
    );
    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
    expect((await billingOf(t, ana.id)).payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, transactionId: "pi_nul_1" }]);
    expect(t.logLines.join("")).not.toContain("card gateway event failed");
  });

  it("payment_intent.succeeded for a charge already recorded at checkout changes nothing", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(res.status).toBe(201);
    const [payment] = (await billingOf(t, ana.id)).payments;
    const before = await subscriptionRow(t, res.body.id);

    await expectOk(event("payment_intent.succeeded", { id: payment.transactionId, amount_received: 4990, metadata: { subscriptionId: String(res.body.id) } }));

    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toHaveLength(1);
    expect(rows.invoices).toHaveLength(1);
    expect(rows.subscriptions[0].endDate).toEqual(before.endDate);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("payment_intent.payment_failed marks a PENDING subscription FAILED, records the failure and e-mails it", async () => {
    const { ana, id } = await pendingSubscription();
    await expectOk(
      event("payment_intent.payment_failed", {
        id: "pi_failed_1",
        amount: 4990,
        metadata: { subscriptionId: String(id) },
        last_payment_error: { code: "card_declined", decline_code: "insufficient_funds" },
      }),
    );

    expect((await subscriptionRow(t, id)).status).toBe("FAILED");
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ status: "FAILED", amountCents: 4990, transactionId: "pi_failed_1", failureReason: "insufficient_funds" }]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    const mails = await subjectsTo(t, ana.email);
    expect(mails).toEqual(["Falha no pagamento"]);
  });

  it("payment_intent.payment_failed marks an ACTIVE subscription FAILED too (any state, api-spec) and ends its access", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(res.status).toBe(201);
    await expectOk(
      event("payment_intent.payment_failed", {
        id: "pi_failed_active",
        amount: 4990,
        metadata: { subscriptionId: String(res.body.id) },
        last_payment_error: { code: "card_declined" },
      }),
    );

    expect((await subscriptionRow(t, res.body.id)).status).toBe("FAILED");
    expect((await billingOf(t, ana.id)).payments.map((p) => p.status)).toEqual(["COMPLETED", "FAILED"]);
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento"]);
  });

  it("payment_intent.payment_failed of a renewal charge already recorded by the renewal job changes nothing", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    await t.db.update(subscriptions).set({ gatewayPaymentMethodId: "pm_card_chargeDeclined" }).where(eq(subscriptions.id, res.body.id));
    t.clock.set(new Date(new Date(res.body.endDate).getTime() - 86_400_000));
    expect((await t.app.services.renewals.run()).failed).toBe(1);
    const failed = (await billingOf(t, ana.id)).payments[1];

    await expectOk(
      event("payment_intent.payment_failed", { id: failed.transactionId, amount: 4990, metadata: { subscriptionId: String(res.body.id), renewal: "true" } }),
    );

    expect(await subscriptionRow(t, res.body.id)).toMatchObject({ status: "ACTIVE", renewalFailures: 1 });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(2);
    expect((await userRow(t, ana.id)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento"]);
  });

  it("customer.subscription.deleted cancels the subscription named by the gateway id, ends access at once and e-mails", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    await expectOk(event("customer.subscription.deleted", { id: gatewayId, object: "subscription", status: "canceled", customer: row.gatewayCustomerId }));

    const after = await subscriptionRow(t, row.id);
    expect(after).toMatchObject({ status: "CANCELED", autoRenew: false, renewalDate: null });
    expect(after.canceledAt).not.toBeNull();
    expect(after.endDate!.getTime()).toBeLessThanOrEqual(t.clock.now().getTime());
    const profile = await profileOf(t, ana.token);
    expect(profile.subscriptionType).toBe("FREEMIUM");
    expect(profile.subscriptionExpirationDate).toBeNull();
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).status).toBe(404);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura cancelada"]);
  });

  it.each([
    ["the gateway subscription id", (gatewayId: string) => ({ subscription: gatewayId })],
    ["metadata.subscriptionId", (_gatewayId: string, id: number) => ({ metadata: { subscriptionId: String(id) } })],
    // Current gateway API versions: the subscription and its metadata only under parent.subscription_details.
    [
      "parent.subscription_details.subscription",
      (gatewayId: string) => ({ parent: { type: "subscription_details", subscription_details: { subscription: gatewayId, metadata: null } } }),
    ],
    [
      "parent.subscription_details.metadata.subscriptionId",
      (_gatewayId: string, id: number) => ({ parent: { type: "subscription_details", subscription_details: { metadata: { subscriptionId: String(id) } } } }),
    ],
  ])("invoice.payment_succeeded naming %s records one COMPLETED payment and PAID invoice, extends the period by one month, e-mails", async (_label, names) => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    t.clock.advance(29 * 86_400_000);

    await expectOk(
      event("invoice.payment_succeeded", {
        id: "in_cycle_1",
        object: "invoice",
        amount_paid: 4990,
        currency: "brl",
        billing_reason: "subscription_cycle",
        ...names(gatewayId, row.id),
      }),
    );

    const after = await subscriptionRow(t, row.id);
    expect(after.status).toBe("ACTIVE");
    const expected = new Date(row.endDate!);
    expected.setUTCMonth(expected.getUTCMonth() + 1);
    expect(Math.abs(after.endDate!.getTime() - expected.getTime())).toBeLessThanOrEqual(3 * 86_400_000); // month-end clamping
    expect(after.endDate!.getTime()).toBeGreaterThan(row.endDate!.getTime() + 27 * 86_400_000);

    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => [p.status, p.transactionId, p.amountCents])).toEqual([
      ["COMPLETED", rows.payments[0].transactionId, 4990],
      ["COMPLETED", "in_cycle_1", 4990],
    ]);
    expect(rows.invoices.map((i) => [i.status, i.paymentId])).toEqual([
      ["PAID", rows.payments[0].id],
      ["PAID", rows.payments[1].id],
    ]);
    // (The access token expired while the clock moved a month: the user row is read directly.)
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "PREMIUM_MENSAL", subscriptionExpiresAt: after.endDate });
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
  });

  it("invoice.payment_succeeded of the subscription's first invoice (paid at checkout) changes nothing", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    await expectOk(
      event("invoice.payment_succeeded", {
        id: "in_first",
        amount_paid: 4990,
        currency: "brl",
        billing_reason: "subscription_create",
        subscription: gatewayId,
      }),
    );
    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toHaveLength(1);
    expect((await subscriptionRow(t, row.id)).endDate).toEqual(row.endDate);
  });

  it("invoice.payment_failed records a FAILED payment and e-mails, leaving the paid period ACTIVE", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    await expectOk(event("invoice.payment_failed", { id: "in_failed_1", amount_due: 4990, currency: "brl", subscription: gatewayId }));

    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED", "FAILED"]);
    expect(rows.payments[1]).toMatchObject({ amountCents: 4990, transactionId: "in_failed_1" });
    const after = await subscriptionRow(t, row.id);
    expect(after.status).toBe("ACTIVE");
    expect(after.endDate).toEqual(row.endDate);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento"]);
  });

  it("customer.subscription.created and .updated answer 200; an update with cancel_at_period_end turns autoRenew off", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    await expectOk(event("customer.subscription.created", { id: gatewayId, status: "active", metadata: { subscriptionId: String(row.id) } }));
    await expectOk(event("customer.subscription.updated", { id: gatewayId, status: "active", cancel_at_period_end: false }));
    expect(await subscriptionRow(t, row.id)).toMatchObject({ status: "ACTIVE", autoRenew: true });

    await expectOk(event("customer.subscription.updated", { id: gatewayId, status: "active", cancel_at_period_end: true }));
    expect(await subscriptionRow(t, row.id)).toMatchObject({ status: "ACTIVE", autoRenew: false, gatewaySubscriptionId: gatewayId });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("answers 200 to an unknown event type and to an event naming no subscription of ours, changing nothing", async () => {
    const { ana, row } = await gatewaySubscription();
    const before = await billingCounts(t);
    await expectOk(event("charge.refund.updated", { id: "re_1", metadata: { subscriptionId: String(row.id) } }));
    await expectOk(event("invoice.payment_succeeded", { id: "in_stranger", amount_paid: 4990, subscription: "sub_not_ours" }));
    await expectOk(event("payment_intent.succeeded", { id: "pi_stranger", amount_received: 4990, metadata: { subscriptionId: "999999" } }));
    await expectOk(event("payment_intent.succeeded", { id: "pi_no_metadata", amount_received: 4990 }));
    const after = await billingCounts(t);
    expect({ ...after, gatewayEvents: 0 }).toEqual({ ...before, gatewayEvents: 0 });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
  });

  it.each(["99999999999", "2147483648", "1e3", " 12", "-1"])(
    "answers 200 to metadata.subscriptionId %j (no id of ours), records the event once and changes nothing else",
    async (subscriptionId) => {
      const { ana } = await gatewaySubscription();
      const before = await billingCounts(t);
      const stray = event("payment_intent.succeeded", { id: "pi_out_of_range", amount_received: 4990, metadata: { subscriptionId } });
      await expectOk(stray);
      expect(await billingCounts(t)).toEqual({ ...before, gatewayEvents: before.gatewayEvents + 1 });
      // Recorded as applied: a redelivery is a no-op, not a 400 the gateway would retry for days.
      await expectOk(stray);
      expect(await billingCounts(t)).toEqual({ ...before, gatewayEvents: before.gatewayEvents + 1 });
      const rows = await billingOf(t, ana.id);
      expect(rows.payments).toHaveLength(1);
      expect(rows.subscriptions.map((s) => s.status)).toEqual(["ACTIVE"]);
    },
  );

  it("refunds a late payment of a subscription a card checkout replaced, answers 200 and revives nothing", async () => {
    // A PENDING boleto subscription replaced by an ACTIVE card one: its late payment cannot activate it too.
    const { ana, id } = await pendingSubscription();
    const card = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(card.status).toBe(201);
    expect((await subscriptionRow(t, id)).status).toBe("CANCELED");
    const cardEndDate = (await subscriptionRow(t, card.body.id)).endDate;

    await expectOk(event("payment_intent.succeeded", { id: "pi_late", amount_received: 4990, metadata: { subscriptionId: String(id) } }));

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => [s.id, s.status])).toEqual([
      [id, "CANCELED"],
      [card.body.id, "ACTIVE"],
    ]);
    expect(rows.subscriptions[1].endDate).toEqual(cardEndDate);
    // The money is on record, returned at the gateway; the replaced subscription's invoice never reads PAID.
    const late = rows.payments.find((p) => p.transactionId === "pi_late");
    expect(late).toMatchObject({ status: "REFUNDED", subscriptionId: id, amountCents: 4990, refundId: expect.stringMatching(/^re_sandbox_/) });
    expect(rows.invoices.filter((i) => i.subscriptionId === id).map((i) => i.status)).toEqual(["CANCELED"]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Pagamento devolvido"]);
  });

  it("payment_intent.succeeded never revives a subscription the user canceled: recorded and refunded, still CANCELED, access still ended", async () => {
    const { ana, row } = await gatewaySubscription();
    const cancel = await t.post(`/api/subscriptions/${row.id}/cancel`, { token: ana.token, body: { cancelImmediately: true } });
    expect(cancel.status).toBe(200);
    const canceled = await subscriptionRow(t, row.id);

    await expectOk(event("payment_intent.succeeded", { id: "pi_after_cancel", amount_received: 4990, metadata: { subscriptionId: String(row.id) } }));

    const after = await subscriptionRow(t, row.id);
    expect(after).toMatchObject({ status: "CANCELED", endDate: canceled.endDate, renewalDate: null, autoRenew: false });
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect((await billingOf(t, ana.id)).payments.find((p) => p.transactionId === "pi_after_cancel")).toMatchObject({ status: "REFUNDED" });
  });

  it("payment_intent.succeeded after a failure (the gateway's retry went through) activates the FAILED subscription", async () => {
    const { ana, id } = await pendingSubscription();
    await expectOk(event("payment_intent.payment_failed", { id: "pi_retry", amount: 4990, metadata: { subscriptionId: String(id) } }));
    expect((await subscriptionRow(t, id)).status).toBe("FAILED");

    await expectOk(event("payment_intent.succeeded", { id: "pi_retry_ok", amount_received: 4990, metadata: { subscriptionId: String(id) } }));

    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect((await billingOf(t, ana.id)).payments.map((p) => [p.transactionId, p.status])).toEqual([
      ["pi_retry", "FAILED"],
      ["pi_retry_ok", "COMPLETED"],
    ]);
  });

  it("answers 400 when applying fails, rolls everything back and leaves the event unrecorded, so the redelivery applies it", async () => {
    const { ana, id } = await pendingSubscription();
    const before = await billingCounts(t);
    const body = event("payment_intent.succeeded", { id: "pi_refused_once", amount_received: 4990, metadata: { subscriptionId: String(id) } });
    // A fault inside the database while the payment is being written.
    await t.db.execute(sql.raw("create function refuse_payment() returns trigger language plpgsql as $$ begin raise exception 'payments are refused'; end $$"));
    await t.db.execute(sql.raw("create trigger refuse_payment before insert on payments for each row execute function refuse_payment()"));
    try {
      const res = await send(body);
      expect(res.status).toBe(400);
      expect(res.text).toBe("");
    } finally {
      await t.db.execute(sql.raw("drop function refuse_payment() cascade"));
    }
    expect(await billingCounts(t)).toEqual(before);
    expect((await subscriptionRow(t, id)).status).toBe("PENDING");

    await expectOk(body);
    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
    expect((await billingOf(t, ana.id)).payments).toMatchObject([{ transactionId: "pi_refused_once", status: "COMPLETED" }]);
  });
});

describe("card webhook idempotency", () => {
  it("applies an event delivered twice once: one payment, one e-mail", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    const renewal = event("invoice.payment_succeeded", { id: "in_twice", amount_paid: 4990, currency: "brl", subscription: gatewayId });

    await expectOk(renewal, { path: "/api/payments/webhook" });
    const once = await subscriptionRow(t, row.id);
    await expectOk(renewal, { path: "/api/webhooks/card" });

    expect((await billingOf(t, ana.id)).payments).toHaveLength(2);
    expect((await subscriptionRow(t, row.id)).endDate).toEqual(once.endDate);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
  });

  it("applies five concurrent deliveries of one event once", async () => {
    const { ana, row, gatewayId } = await gatewaySubscription();
    const renewal = JSON.stringify(event("invoice.payment_succeeded", { id: "in_concurrent", amount_paid: 4990, currency: "brl", subscription: gatewayId }));

    const results = await Promise.all(Array.from({ length: 5 }, (_, i) => sendRaw(renewal, { path: PATHS[i % 2] })));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => p.transactionId).filter((id) => id === "in_concurrent")).toHaveLength(1);
    expect(rows.invoices).toHaveLength(2);
    const after = await subscriptionRow(t, row.id);
    expect(after.endDate!.getTime()).toBeLessThan(row.endDate!.getTime() + 32 * 86_400_000);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
    expect((await billingCounts(t)).gatewayEvents).toBe(1);
  });

  it("applies five concurrent deliveries of a payment failure once", async () => {
    const { ana, id } = await pendingSubscription();
    const failure = JSON.stringify(event("payment_intent.payment_failed", { id: "pi_fail_conc", amount: 4990, metadata: { subscriptionId: String(id) } }));
    const results = await Promise.all(Array.from({ length: 5 }, () => sendRaw(failure)));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Falha no pagamento"]);
  });

  it("does not apply the same gateway payment twice when it comes under two event ids", async () => {
    const { ana, gatewayId } = await gatewaySubscription();
    const object = { id: "in_two_events", amount_paid: 4990, currency: "brl", subscription: gatewayId };
    await expectOk(event("invoice.payment_succeeded", object));
    await expectOk(event("invoice.payment_succeeded", object));
    expect((await billingOf(t, ana.id)).payments).toHaveLength(2);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
  });
});
