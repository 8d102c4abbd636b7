import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { isValidBrCode } from "../../src/modules/billing/gateways/pix/br-code.js";
import { makeStudent, type MadeUser } from "../factories/users.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";
import { useTestApp, type TestApp } from "../helpers/test-app.js";
import { billingCounts, billingOf, planId, profileOf, subjectsTo } from "./support.js";

const API_KEY = "pix_dev_key_for_tests_0123456789";
const SECRET = "pix-http-webhook-secret";

// The gateway's v1 HTTP API, faked on loopback; started before the apps read their configuration.
const fake = new FakePixGateway({ apiKey: API_KEY, devMode: true });
await fake.start();
// A gateway that is down: its port was opened and closed again, so connections are refused.
const downFake = new FakePixGateway({ apiKey: API_KEY, devMode: true });
await downFake.start();
await downFake.stop();
afterAll(() => fake.stop());

async function subscribeByPix(t: TestApp, user: MadeUser) {
  return t.post("/api/payments/subscribe", { token: user.token, body: { planId: await planId(t), paymentMethod: "PIX" } });
}

describe("PIX through the HTTP gateway in dev mode", () => {
  const t = useTestApp({ PIX_API_URL: fake.url, PIX_API_KEY: API_KEY, PIX_DEV_MODE: "true", WEBHOOK_SECRET: SECRET });
  beforeEach(() => fake.reset());

  it("creates the charge at the gateway (4990 cents, Bearer key, our reference) and answers its transaction", async () => {
    const ana = await makeStudent(t);
    const res = await subscribeByPix(t, ana);
    expect(res.status).toBe(201);

    const [create] = fake.requestsTo("/v1/pixQrCode/create");
    expect(create.method).toBe("POST");
    expect(create.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(create.body).toMatchObject({ amount: 4990, metadata: { externalId: String(res.body.subscriptionId) } });
    expect(fake.requests).toHaveLength(1);

    const charge = fake.charges.get(res.body.id)!;
    expect(charge).toBeDefined();
    expect(res.body).toMatchObject({
      id: charge.id,
      amount: 49.9,
      currency: "BRL",
      status: "PENDING",
      brCode: charge.brCode,
      brCodeBase64: charge.brCodeBase64,
    });
    expect(isValidBrCode(res.body.brCode)).toBe(true);
    expect(res.body.expiresAt).toBe(charge.expiresAt);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toMatchObject([{ id: res.body.subscriptionId, status: "PENDING", gateway: "http" }]);
    expect(rows.pix).toMatchObject([{ id: charge.id, status: "PENDING", amountCents: 4990 }]);
  });

  it("polls the gateway while PENDING and answers PENDING while it is unpaid", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;

    const res = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("PENDING");
    const [check] = fake.requestsTo("/v1/pixQrCode/check");
    expect(check.query).toEqual({ id: pix.id });
    expect(check.headers.authorization).toBe(`Bearer ${API_KEY}`);
  });

  it("settles the subscription on a status poll once the gateway says PAID, without any webhook", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.setStatus(pix.id, "PAID");

    const res = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pix.id, status: "PAID" });

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", amountCents: 4990, paymentMethod: "PIX", transactionId: pix.id }]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    const current = await t.get("/api/payments/subscriptions/current", { token: ana.token });
    expect(current.body).toMatchObject({ id: pix.subscriptionId, status: "ACTIVE", paymentId: pix.id, subscriptionType: "MENSAL" });

    // Later polls, and the gateway's own webhook arriving late, find the work done.
    const checksBefore = fake.requestsTo("/v1/pixQrCode/check").length;
    expect((await t.get(`/api/billing/status/${pix.id}`, { token: ana.token })).body.status).toBe("PAID");
    expect(fake.requestsTo("/v1/pixQrCode/check")).toHaveLength(checksBefore); // a settled charge is not asked again
    const late = await t.post("/api/webhooks/pix/payment", {
      headers: { "content-type": "application/json", "x-webhook-secret": SECRET },
      raw: JSON.stringify({ event: "billing.paid", data: { id: pix.id, status: "PAID" } }),
    });
    expect(late.status).toBe(200);
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("settles concurrent polls of a paid charge once", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.setStatus(pix.id, "PAID");

    const polls = await Promise.all(Array.from({ length: 5 }, () => t.get(`/api/billing/status/${pix.id}`, { token: ana.token })));
    expect(polls.map((p) => [p.status, p.body.status])).toEqual(Array.from({ length: 5 }, () => [200, "PAID"]));
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("reads EXPIRED from the gateway on a poll and keeps the subscription PENDING", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.setStatus(pix.id, "EXPIRED");

    expect((await t.get(`/api/billing/status/${pix.id}`, { token: ana.token })).body.status).toBe("EXPIRED");
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
  });

  it("answers the stored PENDING transaction when the gateway fails during a poll", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.answerNext({ status: 500, body: JSON.stringify({ data: null, error: "boom" }) });

    const res = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("PENDING");
  });

  it("simulate-payment pays the charge at the gateway and here: one payment, subscription ACTIVE", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: pix.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pix.id, status: "PAID" });

    const [simulate] = fake.requestsTo("/v1/pixQrCode/simulate-payment");
    expect(simulate.method).toBe("POST");
    expect(simulate.query).toEqual({ id: pix.id });
    expect(simulate.headers.authorization).toBe(`Bearer ${API_KEY}`);
    expect(fake.charges.get(pix.id)!.status).toBe("PAID");

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(rows.payments).toMatchObject([{ status: "COMPLETED", transactionId: pix.id }]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("simulate-payment answers 403 to another user without calling the gateway", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: bia.token, body: { id: pix.id } });
    expect(res.status).toBe(403);
    expect(fake.requestsTo("/v1/pixQrCode/simulate-payment")).toHaveLength(0);
    expect(fake.charges.get(pix.id)!.status).toBe("PENDING");
  });

  it("simulate-payment answers 502 and pays nothing when the gateway refuses", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.answerNext({ status: 500, body: JSON.stringify({ data: null, error: "boom" }) });

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: pix.id } });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
  });

  it.each([
    ["a 500", { status: 500, body: JSON.stringify({ data: null, error: "Internal error" }) }],
    ["a body that is not JSON", { status: 200, body: "<html>bad gateway</html>", contentType: "text/html" }],
    ["a 401", { status: 401, body: JSON.stringify({ data: null, error: "Token inválido" }) }],
  ])("answers 502 to checkout when the gateway gives %s, and writes nothing", async (_label, answer) => {
    const ana = await makeStudent(t);
    const before = await billingCounts(t);
    fake.answerNext(answer);

    const res = await subscribeByPix(t, ana);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    expect(await billingCounts(t)).toEqual(before);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toHaveLength(0);
    expect(rows.invoices).toHaveLength(0);
    expect(t.logLines.join("")).not.toContain(API_KEY);
  });
});

describe("PIX through the HTTP gateway without PIX_DEV_MODE", () => {
  const t = useTestApp({ PIX_API_URL: fake.url, PIX_API_KEY: API_KEY });
  beforeEach(() => fake.reset());

  it("answers 404 to simulate-payment and never calls the gateway's simulate endpoint", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(t, ana);
    expect(pix.status).toBe(201);

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: pix.body.id } });
    expect(res.status).toBe(404);
    expect(res.body.success).toBe(false);
    expect(fake.requestsTo("/v1/pixQrCode/simulate-payment")).toHaveLength(0);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
  });

  it("still settles a charge the gateway reports PAID on a poll", async () => {
    const ana = await makeStudent(t);
    const pix = (await subscribeByPix(t, ana)).body;
    fake.setStatus(pix.id, "PAID");
    expect((await t.get(`/api/billing/status/${pix.id}`, { token: ana.token })).body.status).toBe("PAID");
    expect((await billingOf(t, ana.id)).subscriptions[0].status).toBe("ACTIVE");
  });
});

describe("PIX through an HTTP gateway that is down", () => {
  const t = useTestApp({ PIX_API_URL: downFake.url, PIX_API_KEY: API_KEY, PIX_DEV_MODE: "true" });

  it("answers 502 to checkout and writes no subscription, invoice or transaction", async () => {
    const ana = await makeStudent(t);
    const before = await billingCounts(t);

    const res = await subscribeByPix(t, ana);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ message: "Gateway de pagamento indisponível. Tente novamente em instantes.", success: false });
    expect(await billingCounts(t)).toEqual(before);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toHaveLength(0);
    expect(rows.invoices).toHaveLength(0);
    expect(rows.pix).toHaveLength(0);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
  });
});
