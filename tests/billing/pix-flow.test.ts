import { describe, expect, it } from "vitest";
import { isValidBrCode, parseEmv } from "../../src/modules/billing/gateways/pix/br-code.js";
import { makeStudent, type MadeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { billingCounts, billingOf, cardBody, download, ISO, mailsTo, planId, profileOf, subjectsTo } from "./support.js";

const SECRET = "pix-webhook-secret-for-tests";
const t = useTestApp({ WEBHOOK_SECRET: SECRET });

/** POST /api/payments/subscribe with PIX: the PIX transaction. */
async function subscribeByPix(user: MadeUser) {
  const res = await t.post("/api/payments/subscribe", { token: user.token, body: { planId: await planId(t), paymentMethod: "PIX" } });
  expect(res.status).toBe(201);
  return res.body as { id: string; subscriptionId: number; status: string };
}

/** Delivers a PIX webhook; `secret` null sends no X-Webhook-Secret header. */
function pixWebhook(body: unknown, secret: string | null = SECRET, raw?: string) {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (secret !== null) headers["x-webhook-secret"] = secret;
  return t.post("/api/webhooks/pix/payment", { headers, raw: raw ?? JSON.stringify(body) });
}

const paid = (id: string, status = "PAID") => ({ event: "billing.paid", data: { id, status } });

describe("PIX checkout: POST /api/payments/subscribe", () => {
  it("answers 201 with a PENDING PIX transaction carrying a valid BR Code and QR image", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", { token: ana.token, body: { planId: await planId(t), paymentMethod: "PIX" } });

    expect(res.status).toBe(201);
    expect(Object.keys(res.body).sort()).toEqual(["amount", "brCode", "brCodeBase64", "createdAt", "currency", "expiresAt", "id", "status", "subscriptionId"]);
    expect(res.body).toMatchObject({ id: expect.any(String), subscriptionId: expect.any(Number), amount: 49.9, currency: "BRL", status: "PENDING" });
    expect(isValidBrCode(res.body.brCode)).toBe(true);
    expect(parseEmv(res.body.brCode).find((field) => field.id === "54")?.value).toBe("49.90");
    expect(res.body.brCodeBase64).toMatch(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/);
    expect(res.body.createdAt).toMatch(ISO);
    expect(res.body.expiresAt).toMatch(ISO);
    expect(Date.parse(res.body.expiresAt)).toBeGreaterThan(Date.parse(res.body.createdAt));

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toHaveLength(1);
    expect(rows.subscriptions[0]).toMatchObject({ id: res.body.subscriptionId, status: "PENDING", paymentMethod: "PIX" });
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);
    expect(rows.payments).toHaveLength(0);
    expect(rows.pix).toHaveLength(1);
    expect(rows.pix[0]).toMatchObject({ id: res.body.id, status: "PENDING", amountCents: 4990, invoiceId: rows.invoices[0].id });
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
  });

  it("shows the PENDING subscription before payment on both subscription endpoints", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: pix.subscriptionId, status: "PENDING", paymentMethod: "PIX", planName: "Mensal" });
    const current = await t.get("/api/payments/subscriptions/current", { token: ana.token });
    expect(current.status).toBe(200);
    expect(current.body).toMatchObject({ id: pix.subscriptionId, status: "PENDING", subscriptionType: "MENSAL" });
  });
});

describe("the caller's subscription before any checkout", () => {
  it("answers 404 on both subscription endpoints", async () => {
    const ana = await makeStudent(t);
    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine).toMatchObject({ status: 404, body: { success: false } });
    const current = await t.get("/api/payments/subscriptions/current", { token: ana.token });
    expect(current).toMatchObject({ status: 404, body: mine.body });
  });
});

describe("GET /api/billing/status/{transactionId}", () => {
  it("gives the owner the PENDING transaction", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const res = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pix.id, subscriptionId: pix.subscriptionId, status: "PENDING", amount: 49.9, currency: "BRL" });
  });

  it("answers 403 to another user and 404 to an unknown id", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const other = await t.get(`/api/billing/status/${pix.id}`, { token: bia.token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ message: "Acesso negado", success: false });
    const unknown = await t.get("/api/billing/status/pix_char_does_not_exist", { token: ana.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.success).toBe(false);
    const anonymous = await t.get(`/api/billing/status/${pix.id}`);
    expect(anonymous.status).toBe(401);
  });

  it.each([
    ["a U+0000 character", "pix%00id"],
    ["more than 200 characters", "p".repeat(201)],
  ])("answers 400 Parâmetro inválido: id to an id with %s, changing nothing", async (_label, id) => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const before = await billingCounts(t);
    const res = await t.get(`/api/billing/status/${id}`, { invalidRequest: true, token: ana.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    expect(await billingCounts(t)).toEqual(before);
    expect((await billingOf(t, ana.id)).pix.map((row) => [row.id, row.status])).toEqual([[pix.id, "PENDING"]]);
  });
});

describe("GET /api/billing/status/{transactionId} after the QR code expires", () => {
  it("reads EXPIRED once the charge's expiry has passed, and leaves the subscription PENDING", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    t.clock.set(new Date((await billingOf(t, ana.id)).pix[0].expiresAt.getTime() + 1_000));

    const res = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body.status).toBe("EXPIRED");
    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("EXPIRED");
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
  });
});

describe("POST /api/webhooks/pix/payment", () => {
  it.each(["PAID", "EXPIRED"])("answers 400 with an empty body to a data.id with U+0000 (status %s), changing nothing", async (status) => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const before = await billingCounts(t);
    const res = await pixWebhook({ event: "billing.paid", data: { id: `${pix.id}\u0000`, status } });
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
    expect(await billingCounts(t)).toEqual(before);
    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("PENDING");
    expect(rows.subscriptions[0].status).toBe("PENDING");
  });

  it("settles the whole purchase: transaction PAID, subscription ACTIVE, invoice PAID, one payment, PREMIUM user, one e-mail, a PDF", async () => {
    const ana = await makeStudent(t, { name: "Ana Pix" });
    const pix = await subscribeByPix(ana);

    const res = await pixWebhook(paid(pix.id));
    expect(res.status).toBe(200);
    expect(res.text).toBe("");

    const status = await t.get(`/api/billing/status/${pix.id}`, { token: ana.token });
    expect(status.body.status).toBe("PAID");

    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine.status).toBe(200);
    expect(mine.body).toMatchObject({ id: pix.subscriptionId, status: "ACTIVE", planName: "Mensal", price: 49.9, paymentMethod: "PIX", autoRenew: true });
    expect(mine.body.startDate).toMatch(ISO);
    expect(mine.body.endDate).toMatch(ISO);

    const current = await t.get("/api/payments/subscriptions/current", { token: ana.token });
    expect(current.status).toBe(200);
    expect(Object.keys(current.body).sort()).toEqual(
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
    expect(current.body).toMatchObject({
      id: pix.subscriptionId,
      userId: ana.id,
      subscriptionType: "MENSAL",
      paymentId: pix.id,
      paymentMethod: "PIX",
      status: "ACTIVE",
      autoRenew: true,
      user: { id: ana.id, name: "Ana Pix", email: ana.email, userType: "ALUNO" },
    });
    for (const field of ["startDate", "endDate", "createdAt", "updatedAt"]) expect(current.body[field]).toMatch(ISO);
    // One month of access from the payment.
    expect(Date.parse(current.body.endDate) - Date.parse(current.body.startDate)).toBeGreaterThanOrEqual(28 * 24 * 3600 * 1000);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions).toHaveLength(1);
    expect(rows.payments).toHaveLength(1);
    expect(rows.payments[0]).toMatchObject({
      status: "COMPLETED",
      amountCents: 4990,
      paymentMethod: "PIX",
      transactionId: pix.id,
      subscriptionId: pix.subscriptionId,
    });
    expect(rows.invoices).toHaveLength(1);
    expect(rows.invoices[0]).toMatchObject({ status: "PAID", paymentId: rows.payments[0].id });
    expect(rows.invoices[0].paidAt).not.toBeNull();

    const profile = await profileOf(t, ana.token);
    expect(profile.subscriptionType).toBe("PREMIUM_MENSAL");
    expect(profile.subscriptionExpirationDate).toBe(current.body.endDate);

    const mails = await mailsTo(t, ana.email);
    expect(mails.map((m) => m.subject)).toEqual(["Pagamento confirmado"]);
    expect(mails[0].text).toContain("R$ 49,90");
    expect(mails[0].text).toContain("Mensal");

    const invoices = await t.get("/api/invoices", { token: ana.token });
    expect(invoices.body.content).toHaveLength(1);
    expect(invoices.body.content[0]).toMatchObject({ status: "PAID", amount: 49.9, planName: "Mensal" });
    const pdf = await download(t, `/api/invoices/${rows.invoices[0].id}/download`, ana.token);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.headers.get("content-disposition")).toBe(`attachment; filename="fatura-${rows.invoices[0].id}.pdf"`);
    expect(pdf.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
  });

  it.each([
    ["a wrong secret", "not-the-secret"],
    ["a secret of another length", `${SECRET}x`],
    ["an empty secret", ""],
    ["no secret header", null],
  ])("answers 403 with an empty body to %s and changes nothing", async (_label, secret) => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const before = await billingCounts(t);

    const res = await pixWebhook(paid(pix.id), secret);
    expect(res.status).toBe(403);
    expect(res.text).toBe("");

    expect(await billingCounts(t)).toEqual(before);
    expect((await billingOf(t, ana.id)).subscriptions[0].status).toBe("PENDING");
    expect((await t.get(`/api/billing/status/${pix.id}`, { token: ana.token })).body.status).toBe("PENDING");
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
  });

  it("answers 400 with an empty body to malformed JSON with the right secret", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const before = await billingCounts(t);

    const res = await t.withInvalidRequests(() => pixWebhook(undefined, SECRET, `{"data": {"id": "${pix.id}", "status": "PAID"`));
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
    expect(await billingCounts(t)).toEqual(before);
  });

  it("answers 400 with an empty body to a JSON body without data.id", async () => {
    const res = await t.withInvalidRequests(() => pixWebhook({ event: "billing.paid", data: { status: "PAID" } }));
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
  });

  it("answers 200 to an unknown transaction id and writes nothing", async () => {
    const ana = await makeStudent(t);
    await subscribeByPix(ana);
    const before = await billingCounts(t);

    const res = await pixWebhook(paid("pix_char_unknown"));
    expect(res.status).toBe(200);
    expect(res.text).toBe("");
    expect(await billingCounts(t)).toEqual(before);
  });

  it.each(["paid", "Paid"])("reads the status %s as PAID", async (word) => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    expect((await pixWebhook(paid(pix.id, word))).status).toBe(200);
    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("PAID");
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED"]);
  });

  it("applies the same webhook delivered twice only once", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    expect((await pixWebhook(paid(pix.id))).status).toBe(200);
    const endDate = (await billingOf(t, ana.id)).subscriptions[0].endDate;
    t.clock.advance(60_000);
    expect((await pixWebhook(paid(pix.id))).status).toBe(200);

    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toHaveLength(1);
    expect(rows.invoices).toHaveLength(1);
    expect(rows.subscriptions[0].endDate).toEqual(endDate);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("applies five concurrent deliveries of the same webhook only once", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const results = await Promise.all(Array.from({ length: 5 }, () => pixWebhook(paid(pix.id))));
    expect(results.map((r) => r.status)).toEqual([200, 200, 200, 200, 200]);

    const rows = await billingOf(t, ana.id);
    expect(rows.payments).toHaveLength(1);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("marks the transaction EXPIRED on an EXPIRED status and leaves the subscription PENDING", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const res = await pixWebhook({ event: "billing.expired", data: { id: pix.id, status: "EXPIRED" } });
    expect(res.status).toBe(200);
    expect(res.text).toBe("");

    expect((await t.get(`/api/billing/status/${pix.id}`, { token: ana.token })).body.status).toBe("EXPIRED");
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect(await mailsTo(t, ana.email)).toHaveLength(0);
  });

  it("refunds a charge paid after a card checkout replaced it, answers 200, and activates nothing twice", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const card = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
    expect(card.status).toBe(201);
    expect((await billingOf(t, ana.id)).pix[0].status).toBe("CANCELLED");

    // The customer had the QR code in the bank app already and pays it anyway.
    for (let delivery = 0; delivery < 2; delivery += 1) {
      const res = await pixWebhook(paid(pix.id));
      expect(res.status).toBe(200);
      expect(res.text).toBe("");
    }

    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("PAID");
    expect(rows.subscriptions.map((s) => [s.id, s.status])).toEqual([
      [pix.subscriptionId, "CANCELED"],
      [card.body.id, "ACTIVE"],
    ]);
    expect(rows.payments.map((p) => [p.status, p.paymentMethod])).toEqual([
      ["COMPLETED", "CREDIT_CARD"],
      ["REFUNDED", "PIX"],
    ]);
    expect(rows.payments[1].refundId).toMatch(/^pix_refund_/);
    // The replaced subscription's invoice never reads PAID: its money came and went back.
    expect(rows.invoices.find((i) => i.subscriptionId === pix.subscriptionId)).toMatchObject({ status: "REFUNDED", paymentId: rows.payments[1].id });
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Pagamento devolvido"]);
  });

  it("refunds a charge paid after the user canceled its subscription, answers 200 and leaves the subscription CANCELED", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const cancel = await t.post(`/api/subscriptions/${pix.subscriptionId}/cancel`, { token: ana.token, body: {} });
    expect(cancel.status).toBe(200);
    expect((await billingOf(t, ana.id)).pix[0].status).toBe("CANCELLED");

    const res = await pixWebhook(paid(pix.id));
    expect(res.status).toBe(200);

    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("PAID");
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["CANCELED"]);
    expect(rows.payments).toMatchObject([{ status: "REFUNDED", paymentMethod: "PIX", transactionId: pix.id }]);
    expect(rows.invoices).toMatchObject([{ status: "REFUNDED", paymentId: rows.payments[0].id }]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("FREEMIUM");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento devolvido"]);
  });

  it("still releases the plan when an EXPIRED transaction is reported PAID (any state → PAID)", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    expect((await pixWebhook({ data: { id: pix.id, status: "EXPIRED" } })).status).toBe(200);
    expect((await pixWebhook(paid(pix.id))).status).toBe(200);

    const rows = await billingOf(t, ana.id);
    expect(rows.pix[0].status).toBe("PAID");
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(rows.payments).toHaveLength(1);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
  });

  it("ignores a PENDING status", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);
    const before = await billingCounts(t);
    expect((await pixWebhook({ data: { id: pix.id, status: "PENDING" } })).status).toBe(200);
    expect(await billingCounts(t)).toEqual(before);
    expect((await billingOf(t, ana.id)).pix[0].status).toBe("PENDING");
  });
});

describe("POST /api/pages/pix-qrcode/simulate-payment (sandbox)", () => {
  it("pays the owner's charge through the webhook's path: one payment, subscription ACTIVE", async () => {
    const ana = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: pix.id } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: pix.id, status: "PAID", subscriptionId: pix.subscriptionId });

    // A webhook arriving afterwards for the same charge changes nothing.
    expect((await pixWebhook(paid(pix.id))).status).toBe(200);

    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("ACTIVE");
    expect(rows.payments.map((p) => [p.status, p.transactionId])).toEqual([["COMPLETED", pix.id]]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PAID"]);
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);
  });

  it("answers 403 to another user and pays nothing", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const pix = await subscribeByPix(ana);

    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: bia.token, body: { id: pix.id } });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ message: "Acesso negado", success: false });
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.payments).toHaveLength(0);
  });

  it("answers 404 to an unknown id", async () => {
    const ana = await makeStudent(t);
    const before = await billingCounts(t);
    const res = await t.post("/api/pages/pix-qrcode/simulate-payment", { token: ana.token, body: { id: "pix_char_nope" } });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Transação não encontrada", success: false });
    expect(await billingCounts(t)).toEqual(before);
  });
});
