import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { makeStudent, relogin, type MadeUser } from "../factories/users.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";
import { useSecondInstance, useTestApp, type TestApp } from "../helpers/test-app.js";
import { addMonths, billingOf, cardBody, planId, profileOf, subjectsTo } from "./support.js";

// One PIX charge per purchase, through the gateway's HTTP API faked on loopback: concurrent or repeated requests
// share it, and a charge that can no longer be wanted is canceled at the gateway.

const API_KEY = "pix_dev_key_for_charge_tests";
const SECRET = "pix-charges-webhook-secret";
const fake = new FakePixGateway({ apiKey: API_KEY, devMode: true });
await fake.start();
afterAll(() => fake.stop());

const ADMIN = "billing-admin@example.com";
const env = { PIX_API_URL: fake.url, PIX_API_KEY: API_KEY, PIX_DEV_MODE: "true", WEBHOOK_SECRET: SECRET, ADMIN_EMAILS: ADMIN };
const t = useTestApp(env);
const other = useSecondInstance(t, env);
beforeEach(() => fake.reset());

/** POST /api/subscriptions by PIX on `app` (either instance). */
async function subscribeByPix(app: TestApp, user: MadeUser, plan: string) {
  return app.post("/api/subscriptions", { token: user.token, body: { planId: await planId(t, plan), paymentMethod: "PIX" } });
}

/** The gateway's webhook telling a charge was paid (after the fake marks it PAID, as the payer's bank does). */
async function payAtGateway(id: string) {
  fake.setStatus(id, "PAID");
  const res = await t.post("/api/webhooks/pix/payment", {
    headers: { "content-type": "application/json", "x-webhook-secret": SECRET },
    raw: JSON.stringify({ event: "billing.paid", data: { id, status: "PAID" } }),
  });
  expect(res.status).toBe(200);
}

describe("PIX subscription requests of one user", () => {
  it("make one charge when 20 arrive at once on two instances, and paying it activates one subscription", async () => {
    const ana = await makeStudent(t);
    const plan = await planId(t, "Mensal");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? subscribeByPix(t, ana, "Mensal").then((res) => ({ status: res.status, pixId: res.body.pix?.id }))
          : other
              .post("/api/payments/subscribe", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } })
              .then((res) => ({ status: res.status, pixId: res.body.id })),
      ),
    );

    expect(answers.map((answer) => answer.status)).toEqual(Array(20).fill(201));
    expect(fake.charges.size).toBe(1);
    const [charge] = fake.charges.keys();
    expect(new Set(answers.map((answer) => answer.pixId))).toEqual(new Set([charge]));
    // However many asked the gateway, they all sent the one key.
    expect(new Set(fake.requestsTo("/v1/pixQrCode/create").map((r) => r.headers["idempotency-key"])).size).toBe(1);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["PENDING"]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);
    expect(rows.pix.map((p) => p.id)).toEqual([charge]);

    await payAtGateway(charge);
    const paid = await billingOf(t, ana.id);
    expect(paid.subscriptions.map((s) => s.status)).toEqual(["ACTIVE"]);
    expect(paid.payments.map((p) => [p.status, p.transactionId])).toEqual([["COMPLETED", charge]]);
    expect(paid.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
  });

  it("keep one QR code to pay when the gateway makes a charge per request, canceling the others there", async () => {
    fake.ignoreIdempotencyKeys = true;
    const ana = await makeStudent(t);
    // The first request's charge is held at the gateway until a request of the other instance asks it for one too.
    const hold = fake.hold();
    const answers = Promise.all(Array.from({ length: 20 }, (_, i) => subscribeByPix(i % 2 === 0 ? t : other, ana, "Mensal")));
    await fake.waitForRequests("/v1/pixQrCode/create", 2);
    hold.release();

    const answered = new Set((await answers).map((res) => `${res.status} ${res.body.pix?.id}`));
    const rows = await billingOf(t, ana.id);
    const live = rows.pix.filter((p) => p.status === "PENDING");
    expect(live).toHaveLength(1);
    expect(answered).toEqual(new Set([`201 ${live[0].id}`]));
    expect(rows.pix.length).toBe(fake.charges.size);
    expect(fake.charges.size).toBeGreaterThan(1);
    expect([...fake.charges.values()].filter((charge) => charge.status === "PENDING").map((charge) => charge.id)).toEqual([live[0].id]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);

    // Its QR code paid, and a canceled charge paid anyway: one period, the second payment returned.
    await payAtGateway(live[0].id);
    const duplicate = rows.pix.find((p) => p.status === "CANCELLED")!;
    await payAtGateway(duplicate.id);
    const paid = await billingOf(t, ana.id);
    expect(paid.payments.map((p) => [p.status, p.transactionId])).toEqual([
      ["COMPLETED", live[0].id],
      ["REFUNDED", duplicate.id],
    ]);
    const [subscription] = paid.subscriptions;
    expect(subscription.status).toBe("ACTIVE");
    expect(subscription.endDate).toEqual(addMonths(subscription.startDate!, 1));
  });

  it("answer a repeated request for the same plan with the same QR code, asking the gateway nothing more", async () => {
    const ana = await makeStudent(t);
    const first = await subscribeByPix(t, ana, "Mensal");
    const again = await subscribeByPix(other, ana, "Mensal");
    expect(again.status).toBe(201);
    expect(again.body).toEqual({ ...first.body, updatedAt: again.body.updatedAt });
    expect(fake.requestsTo("/v1/pixQrCode/create")).toHaveLength(1);
    expect((await billingOf(t, ana.id)).subscriptions).toHaveLength(1);
  });

  it("make a new charge once the pending one has expired, replacing it", async () => {
    const ana = await makeStudent(t);
    const first = await subscribeByPix(t, ana, "Mensal");
    t.clock.set(new Date(Date.parse(first.body.pix.expiresAt) + 1_000));
    await relogin(t, ana);
    const again = await subscribeByPix(t, ana, "Mensal");
    expect(again.status).toBe(201);
    expect(again.body.pix.id).not.toBe(first.body.pix.id);
    expect((await billingOf(t, ana.id)).subscriptions.map((s) => s.status)).toEqual(["CANCELED", "PENDING"]);
  });
});

describe("a replaced or canceled PIX subscription", () => {
  it("has its charge canceled at the gateway when another plan replaces it", async () => {
    const ana = await makeStudent(t);
    const mensal = await subscribeByPix(t, ana, "Mensal");
    const anual = await subscribeByPix(t, ana, "Anual");
    expect(anual.status).toBe(201);

    expect(fake.requestsTo("/v1/pixQrCode/cancel").map((r) => r.query)).toEqual([{ id: mensal.body.pix.id }]);
    expect(fake.charges.get(mensal.body.pix.id)!.status).toBe("CANCELLED");
    expect(fake.charges.get(anual.body.pix.id)!.status).toBe("PENDING");
    const rows = await billingOf(t, ana.id);
    expect(Object.fromEntries(rows.pix.map((p) => [p.id, [p.status, p.gatewayCancelDue]]))).toEqual({
      [mensal.body.pix.id]: ["CANCELLED", false],
      [anual.body.pix.id]: ["PENDING", false],
    });
  });

  it("has its charge canceled at the gateway when a card subscription replaces it", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(t, ana, "Mensal");
    expect((await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) })).status).toBe(201);
    expect(fake.charges.get(pix.body.pix.id)!.status).toBe("CANCELLED");
  });

  it("has its charge canceled at the gateway when the user cancels it", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(t, ana, "Mensal");
    expect((await t.post(`/api/subscriptions/${pix.body.id}/cancel`, { token: ana.token, body: {} })).status).toBe(200);
    expect(fake.charges.get(pix.body.pix.id)!.status).toBe("CANCELLED");
  });

  it("keeps a cancel the gateway refused due, without failing the request, and the job cancels it later", async () => {
    const ana = await makeStudent(t);
    const mensal = await subscribeByPix(t, ana, "Mensal");
    fake.answerNext({ path: "/cancel", status: 500, body: JSON.stringify({ data: null, error: "boom" }) });

    const anual = await subscribeByPix(t, ana, "Anual");
    expect(anual.status).toBe(201);
    expect(fake.charges.get(mensal.body.pix.id)!.status).toBe("PENDING");
    expect((await billingOf(t, ana.id)).pix.find((p) => p.id === mensal.body.pix.id)).toMatchObject({ status: "CANCELLED", gatewayCancelDue: true });

    expect(await other.app.services.gatewayFollowUps.run()).toMatchObject({ pixCanceled: 1 });
    expect(fake.charges.get(mensal.body.pix.id)!.status).toBe("CANCELLED");
    expect((await billingOf(t, ana.id)).pix.find((p) => p.id === mensal.body.pix.id)).toMatchObject({ status: "CANCELLED", gatewayCancelDue: false });
    expect(await t.app.services.gatewayFollowUps.run()).toMatchObject({ pixCanceled: 0 });
  });
});

describe("money received for a subscription no longer wanted", () => {
  it("is refunded at the gateway: 20 requests for two plans at once, every charge made then paid, one subscription ACTIVE", async () => {
    const ana = await makeStudent(t);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => subscribeByPix(i % 2 === 0 ? t : other, ana, i % 4 < 2 ? "Mensal" : "Anual")));
    // Each answer is its QR code, or a 409 for a request a newer one overtook while the gateway made its charge.
    for (const answer of answers) expect([201, 409]).toContain(answer.status);

    // The payers were quicker than the cancels: every charge the gateway made is paid.
    const charges = [...fake.charges.keys()];
    for (const charge of charges) await payAtGateway(charge);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions.filter((s) => s.status === "ACTIVE")).toHaveLength(1);
    expect(rows.payments.filter((p) => p.status === "COMPLETED")).toHaveLength(1);
    const stray = rows.payments.filter((p) => p.status !== "COMPLETED");
    expect(stray.map((p) => p.status)).toEqual(Array(charges.length - 1).fill("REFUNDED"));
    expect(fake.refunds.map((r) => r.chargeId).sort()).toEqual(stray.map((p) => p.transactionId).sort());
    expect(fake.refunds.every((r) => r.amount === fake.charges.get(r.chargeId)!.amount)).toBe(true);
    // No invoice of a subscription that is not ACTIVE reads PAID.
    const active = rows.subscriptions.find((s) => s.status === "ACTIVE")!;
    expect(rows.invoices.filter((i) => i.status === "PAID").map((i) => i.subscriptionId)).toEqual([active.id]);
    for (const invoice of rows.invoices.filter((i) => i.subscriptionId !== active.id)) expect(["CANCELED", "REFUNDED"]).toContain(invoice.status);
  });

  it("stays REFUND_DUE, listed for administrators, while the gateway refuses the refund, and the job refunds it later", async () => {
    const ana = await makeStudent(t);
    const admin = await makeStudent(t, { email: ADMIN });
    const mensal = await subscribeByPix(t, ana, "Mensal");
    expect((await subscribeByPix(t, ana, "Anual")).status).toBe(201);
    fake.answerNext({ path: "/refund", status: 503, body: JSON.stringify({ data: null, error: "indisponível" }) });
    await payAtGateway(mensal.body.pix.id);

    const [due] = (await billingOf(t, ana.id)).payments;
    expect(due).toMatchObject({ status: "REFUND_DUE", transactionId: mensal.body.pix.id, amountCents: 4990, refundId: null });
    const listed = await t.get("/api/payments?status=REFUND_DUE", { token: admin.token });
    expect(listed.status).toBe(200);
    expect(listed.body.content).toMatchObject([{ id: due.id, userId: ana.id, status: "REFUND_DUE", amount: 49.9, transactionId: mensal.body.pix.id }]);
    const query = `query { payments(filter: { status: REFUND_DUE }) { content { id status userId } } }`;
    expect((await t.graphql(query, {}, admin.token)).data.payments.content).toEqual([{ id: due.id, status: "REFUND_DUE", userId: ana.id }]);
    expect((await t.get("/api/payments?status=REFUND_DUE", { token: ana.token })).body.content.map((p: { id: number }) => p.id)).toEqual([due.id]);

    expect(await other.app.services.gatewayFollowUps.run()).toMatchObject({ refunded: 1 });
    expect(fake.refunds.map((r) => r.chargeId)).toEqual([mensal.body.pix.id]);
    expect((await billingOf(t, ana.id)).payments).toMatchObject([{ id: due.id, status: "REFUNDED", refundId: fake.refunds[0].id }]);
    expect((await t.get("/api/payments?status=REFUND_DUE", { token: admin.token })).body.content).toEqual([]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento devolvido"]);
    // Run again: nothing is refunded twice.
    expect(await t.app.services.gatewayFollowUps.run()).toMatchObject({ refunded: 0 });
    expect(fake.refunds).toHaveLength(1);
  });

  it("is refunded when the gateway reports a replaced charge paid while canceling it", async () => {
    const ana = await makeStudent(t);
    const mensal = await subscribeByPix(t, ana, "Mensal");
    fake.setStatus(mensal.body.pix.id, "PAID"); // paid, but its webhook has not arrived yet
    expect((await subscribeByPix(t, ana, "Anual")).status).toBe(201);

    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toMatchObject([{ status: "REFUNDED", transactionId: mensal.body.pix.id }]);
    expect(fake.refunds.map((r) => r.chargeId)).toEqual([mensal.body.pix.id]);
    expect(rows.pix.find((p) => p.id === mensal.body.pix.id)).toMatchObject({ status: "PAID", gatewayCancelDue: false });
  });
});
