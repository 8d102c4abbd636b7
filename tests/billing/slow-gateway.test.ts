import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { makeStudent, relogin, type MadeUser } from "../factories/users.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";
import { startFakeStripe } from "../helpers/fake-stripe.js";
import type { RequestHold } from "../helpers/request-hold.js";
import { useTestApp, type TestApp } from "../helpers/test-app.js";
import { billingOf, cardBody, DAY_MS, planId } from "./support.js";

// Gateways whose answers the test holds: while checkouts (or renewals) wait on them, the service must hold no
// database connection and no lock, on PGlite (one connection for everything) as on PostgreSQL (a pool of 10).

const PIX_KEY = "pix_dev_key_for_slow_gateway_tests";
const pix = new FakePixGateway({ apiKey: PIX_KEY, devMode: true });
await pix.start();
const stripe = await startFakeStripe();
afterAll(async () => {
  await pix.stop();
  await stripe.stop();
});

/** As many concurrent gateway calls as an instance has database connections (tests/helpers/database.ts). */
const POOL_SIZE = 10;

/**
 * Waits until `count` requests are held at the gateway (or the hold's safety time ran out, which is what code that
 * calls the gateway inside a transaction gets), then asks a cheap question: it must answer while all are still held.
 */
async function cheapRequestWhileHeld(t: TestApp, hold: RequestHold, arrived: Promise<void>, user: MadeUser) {
  await Promise.race([arrived, hold.passed()]);
  const cheap = await t.get("/api/exercises?size=1", { token: user.token });
  const releasedBy = hold.releasedBy;
  hold.release();
  expect(cheap.status).toBe(200);
  expect(releasedBy).toBeNull();
}

describe("a slow PIX gateway", () => {
  const t = useTestApp({ PIX_API_URL: pix.url, PIX_API_KEY: PIX_KEY, PIX_DEV_MODE: "true" });
  beforeEach(() => pix.reset());

  it("does not delay other requests while checkouts wait on it", async () => {
    const buyers = await Promise.all(Array.from({ length: POOL_SIZE }, () => makeStudent(t)));
    const plan = await planId(t);
    const hold = pix.hold();
    const checkouts = Promise.all(
      buyers.map((buyer) => t.post("/api/payments/subscribe", { token: buyer.token, body: { planId: plan, paymentMethod: "PIX" } })),
    );

    await cheapRequestWhileHeld(t, hold, pix.waitForRequests("/v1/pixQrCode/create", POOL_SIZE), buyers[0]);

    const answers = await checkouts;
    expect(answers.map((answer) => answer.status)).toEqual(buyers.map(() => 201));
    expect(pix.charges.size).toBe(POOL_SIZE);
    for (const [i, buyer] of buyers.entries()) {
      const rows = await billingOf(t, buyer.id);
      expect(rows.subscriptions).toMatchObject([{ status: "PENDING", paymentMethod: "PIX" }]);
      expect(rows.pix).toMatchObject([{ id: answers[i].body.id, status: "PENDING" }]);
      expect(rows.invoices.map((invoice) => invoice.status)).toEqual(["PENDING"]);
    }
  });
});

describe("a slow card gateway", () => {
  const t = useTestApp({ STRIPE_SECRET_KEY: stripe.secretKey, STRIPE_API_BASE: stripe.url });
  beforeEach(() => stripe.reset());

  it("does not delay other requests while card checkouts wait on it", async () => {
    const buyers = await Promise.all(Array.from({ length: POOL_SIZE }, () => makeStudent(t)));
    const plan = await planId(t);
    const hold = stripe.hold();
    const checkouts = Promise.all(buyers.map((buyer) => t.post("/api/subscriptions", { token: buyer.token, body: cardBody(plan) })));

    await cheapRequestWhileHeld(t, hold, stripe.waitForRequests("POST /v1/payment_intents", POOL_SIZE), buyers[0]);

    const answers = await checkouts;
    expect(answers.map((answer) => [answer.status, answer.body.status])).toEqual(buyers.map(() => [201, "ACTIVE"]));
    expect(stripe.paymentIntents.size).toBe(POOL_SIZE);
    for (const buyer of buyers) {
      const rows = await billingOf(t, buyer.id);
      expect(rows.payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, idempotencyKey: expect.any(String) }]);
      expect(rows.invoices.map((invoice) => invoice.status)).toEqual(["PAID"]);
    }
  });

  it("does not delay other requests while renewal charges wait on it, and charges each renewal once", async () => {
    const buyers = await Promise.all(Array.from({ length: POOL_SIZE }, () => makeStudent(t)));
    const plan = await planId(t);
    for (const buyer of buyers) expect((await t.post("/api/subscriptions", { token: buyer.token, body: cardBody(plan) })).status).toBe(201);
    const [first] = await billingOf(t, buyers[0].id).then((rows) => rows.subscriptions);
    t.clock.set(new Date(first.endDate!.getTime() - DAY_MS));
    await relogin(t, buyers[0]);

    // As many renewal runs at once as there are connections (every instance runs the job).
    const hold = stripe.hold();
    const runs = Promise.all(buyers.map(() => t.app.services.renewals.run()));

    await cheapRequestWhileHeld(t, hold, stripe.waitForRequests("POST /v1/payment_intents", 2 * POOL_SIZE), buyers[0]);

    const results = await runs;
    expect(results.reduce((sum, result) => sum + result.renewed, 0)).toBe(POOL_SIZE);
    expect(stripe.paymentIntents.size).toBe(2 * POOL_SIZE);
    for (const buyer of buyers) {
      const rows = await billingOf(t, buyer.id);
      expect(rows.payments.map((payment) => payment.status)).toEqual(["COMPLETED", "COMPLETED"]);
      expect(rows.subscriptions[0].endDate!.getTime()).toBeGreaterThan(first.endDate!.getTime());
    }
  });
});
