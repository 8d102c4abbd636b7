import { and, eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { invoices, payments, pixTransactions, subscriptionPlans, subscriptions } from "../../src/tables/billing.table.js";
import { isValidBrCode } from "../../src/modules/billing/gateways/pix/br-code.js";
import { users } from "../../src/tables/user.table.js";
import { billingCounts, CARD_ACCEPTED, CARD_DECLINED, CARD_INSUFFICIENT_FUNDS, cardFields, planId, subscribeByCard } from "../factories/billing.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

const START = new Date("2025-03-15T12:34:56.789Z");
const ONE_MONTH_LATER = "2025-04-15T12:34:56.789Z";
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The barcode's general check digit, mod 11 with weights 2..9 from the right (0, 10, 11 → 1), per FEBRABAN. */
function febrabanMod11(digits: string): string {
  let sum = 0;
  [...digits].reverse().forEach((digit, i) => (sum += Number(digit) * (2 + (i % 8))));
  const dv = 11 - (sum % 11);
  return dv >= 10 || dv === 0 ? "1" : String(dv);
}

async function profileOf(user: MadeUser) {
  const res = await t.get("/api/users/profile", { token: user.token });
  expect(res.status).toBe(200);
  return res.body;
}

const subscriptionsOf = (userId: number) => t.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(subscriptions.id);
const paymentsOf = (userId: number) => t.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(payments.id);
const invoicesOf = (userId: number) => t.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(invoices.id);

describe("POST /api/subscriptions by card", () => {
  it("charges an accepted card: 201 ACTIVE with the exact SubscriptionDTO", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const mensal = await planId(t, "Mensal");

    const res = await subscribeByCard(t, ana, mensal);
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      userId: ana.id,
      userName: "Ana Souza",
      planId: mensal,
      planName: "Mensal",
      status: "ACTIVE",
      startDate: START.toISOString(),
      endDate: ONE_MONTH_LATER,
      renewalDate: ONE_MONTH_LATER,
      canceledAt: null,
      price: 49.9,
      currency: "BRL",
      paymentMethod: "CREDIT_CARD",
      lastFourDigits: "4242",
      autoRenew: true,
      createdAt: START.toISOString(),
      updatedAt: START.toISOString(),
    });
  });

  it("records one COMPLETED payment and one PAID invoice of 4990 cents, and nothing else", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t);
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"));

    const [subscription] = await subscriptionsOf(ana.id);
    expect(subscription).toMatchObject({ id: res.body.id, status: "ACTIVE", priceCents: 4990, lastFourDigits: "4242", gateway: "sandbox" });
    const paid = await paymentsOf(ana.id);
    expect(paid).toHaveLength(1);
    expect(paid[0]).toMatchObject({
      subscriptionId: res.body.id,
      amountCents: 4990,
      currency: "BRL",
      status: "COMPLETED",
      paymentMethod: "CREDIT_CARD",
      lastFourDigits: "4242",
      transactionId: expect.stringMatching(/^ch_sandbox_/),
      failureReason: null,
    });
    const issued = await invoicesOf(ana.id);
    expect(issued).toHaveLength(1);
    expect(issued[0]).toMatchObject({ subscriptionId: res.body.id, paymentId: paid[0].id, amountCents: 4990, currency: "BRL", status: "PAID" });
    expect(issued[0].paidAt).toEqual(START);
    expect(await billingCounts(t)).toEqual({ subscriptions: 1, payments: 1, invoices: 1, pix: 0 });
  });

  it("gives the user PREMIUM_MENSAL until the end of the period", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t);
    expect((await profileOf(ana)).subscriptionType).toBe("FREEMIUM");
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"));

    const profile = await profileOf(ana);
    expect(profile.subscriptionType).toBe("PREMIUM_MENSAL");
    expect(profile.subscriptionExpirationDate).toBe(res.body.endDate);
  });

  it("gives each plan its own subscriptionType and period length", async () => {
    t.clock.set(START);
    const cases = [
      ["Trimestral", "PREMIUM_TRIMESTRAL", "2025-06-15T12:34:56.789Z", 129.9],
      ["Semestral", "PREMIUM_SEMESTRAL", "2025-09-15T12:34:56.789Z", 239.9],
      ["Anual", "PREMIUM_ANUAL", "2026-03-15T12:34:56.789Z", 449.9],
    ] as const;
    for (const [name, type, endDate, price] of cases) {
      const student = await makeStudent(t);
      const res = await subscribeByCard(t, student, await planId(t, name));
      expect(res.status).toBe(201);
      expect(res.body).toMatchObject({ planName: name, price, endDate, renewalDate: endDate });
      expect((await profileOf(student)).subscriptionType).toBe(type);
    }
    const trainer = await makeTrainer(t);
    const res = await subscribeByCard(t, trainer, await planId(t, "Intermediário"));
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ planName: "Intermediário", price: 199.9, endDate: ONE_MONTH_LATER });
    expect((await profileOf(trainer)).subscriptionType).toBe("PERSONAL_INTERMEDIARIO");
  });

  it("ends a period started on the 31st on the last day of a shorter month", async () => {
    t.clock.set(new Date("2025-01-31T10:00:00.000Z"));
    const ana = await makeStudent(t);
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"));
    expect(res.body.startDate).toBe("2025-01-31T10:00:00.000Z");
    expect(res.body.endDate).toBe("2025-02-28T10:00:00.000Z");
  });

  it("accepts a card number typed with spaces and keeps only its last four digits", async () => {
    const ana = await makeStudent(t);
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardNumber: "5555 5555 5555 4444" });
    expect(res.status).toBe(201);
    expect(res.body.lastFourDigits).toBe("4444");
  });

  it("e-mails a payment confirmation", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t, { name: "Ana Souza" });
    await subscribeByCard(t, ana, await planId(t, "Mensal"));
    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to(ana.email);
    expect(mail.subject).toBe("Pagamento confirmado");
    expect(mail.text).toContain("Ana Souza");
    expect(mail.text).toContain("R$ 49,90");
    expect(mail.text).toContain("Mensal");
    expect(mail.text).toContain("15/04/2025");
  });

  it.each([
    [CARD_DECLINED, "card_declined", "0002"],
    [CARD_INSUFFICIENT_FUNDS, "insufficient_funds", "9995"],
  ])("refuses card %s with 422 details %s and records the failure", async (cardNumber, details, lastFour) => {
    t.clock.set(START);
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardNumber });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ message: "Pagamento recusado", success: false, details });

    const rows = await subscriptionsOf(ana.id);
    expect(rows).toHaveLength(1);
    expect(rows[0].status).toBe("FAILED");
    expect(await t.db.select().from(subscriptions).where(eq(subscriptions.status, "ACTIVE"))).toEqual([]);
    const failed = await paymentsOf(ana.id);
    expect(failed).toHaveLength(1);
    expect(failed[0]).toMatchObject({ status: "FAILED", amountCents: 4990, subscriptionId: rows[0].id, lastFourDigits: lastFour, failureReason: details });
    expect(await invoicesOf(ana.id)).toEqual([]);

    const profile = await profileOf(ana);
    expect(profile.subscriptionType).toBe("FREEMIUM");
    expect(profile.subscriptionExpirationDate).toBeNull();

    expect(await t.deliverMail()).toBe(1);
    const [mail] = t.smtp.to(ana.email);
    expect(mail.subject).toBe("Falha no pagamento");
    expect(mail.text).toContain("Mensal");
    expect(mail.text).toContain(details);
  });

  it("lets a user whose card was refused subscribe again with another card", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(t, "Mensal");
    expect((await subscribeByCard(t, ana, mensal, { cardNumber: CARD_DECLINED })).status).toBe(422);
    const res = await subscribeByCard(t, ana, mensal);
    expect(res.status).toBe(201);
    expect(res.body.status).toBe("ACTIVE");
    expect((await subscriptionsOf(ana.id)).map((row) => row.status)).toEqual(["FAILED", "ACTIVE"]);
    expect((await paymentsOf(ana.id)).map((row) => row.status)).toEqual(["FAILED", "COMPLETED"]);
  });
});

describe("POST /api/subscriptions validation", () => {
  async function expectRefused(user: MadeUser, body: Record<string, unknown>, fields: string[]) {
    const res = await t.post("/api/subscriptions", { invalidRequest: true, token: user.token, body });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe("Validation failed");
    expect(res.body.success).toBe(false);
    expect(res.body.errors.map((e: { field: string }) => e.field).sort()).toEqual([...fields].sort());
    for (const error of res.body.errors) expect(error.message).toEqual(expect.any(String));
    expect(await billingCounts(t)).toEqual({ subscriptions: 0, payments: 0, invoices: 0, pix: 0 });
    expect((await profileOf(user)).subscriptionType).toBe("FREEMIUM");
    return res.body.errors as Array<{ field: string; message: string }>;
  }

  it("refuses a Luhn-invalid card number on cardNumber", async () => {
    const ana = await makeStudent(t);
    const body = { planId: await planId(t, "Mensal"), paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardNumber: "4242424242424241" }) };
    const [error] = await expectRefused(ana, body, ["cardNumber"]);
    expect(error.message).toBe("Número do cartão inválido");
  });

  it("refuses a past expiry", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t);
    const plan = await planId(t, "Mensal");
    const [lastYear] = await expectRefused(
      ana,
      { planId: plan, paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardExpirationMonth: "12", cardExpirationYear: "2024" }) },
      ["cardExpirationYear"],
    );
    expect(lastYear.message).toBe("Cartão vencido");
    const [lastMonth] = await expectRefused(
      ana,
      { planId: plan, paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardExpirationMonth: "02", cardExpirationYear: "2025" }) },
      ["cardExpirationMonth"],
    );
    expect(lastMonth.message).toBe("Cartão vencido");
  });

  it("accepts a card in its expiry month", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t);
    const res = await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardExpirationMonth: "03", cardExpirationYear: "2025" });
    expect(res.status).toBe(201);
  });

  it.each(["12", "12345", "abc", ""])("refuses the CVV %j on cardCvv", async (cardCvv) => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: await planId(t, "Mensal"), paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardCvv }) }, ["cardCvv"]);
  });

  it("requires every card field when paying by card", async () => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: await planId(t, "Mensal"), paymentMethod: "CREDIT_CARD" }, [
      "cardNumber",
      "cardHolderName",
      "cardExpirationMonth",
      "cardExpirationYear",
      "cardCvv",
    ]);
  });

  it("refuses a planId sent as a string", async () => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: String(await planId(t, "Mensal")), paymentMethod: "CREDIT_CARD", ...cardFields(t) }, ["planId"]);
  });

  it.each([0, -1, 1.5, 2147483648, 99999999999])("refuses the planId %s on planId", async (id) => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: id, paymentMethod: "PIX" }, ["planId"]);
  });

  it("refuses an unknown payment method", async () => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: await planId(t, "Mensal"), paymentMethod: "CASH" }, ["paymentMethod"]);
  });

  it("refuses card fields of the wrong type on those fields only", async () => {
    const ana = await makeStudent(t);
    await expectRefused(
      ana,
      { planId: await planId(t, "Mensal"), paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardNumber: 4242424242424242, cardCvv: 123 }) },
      ["cardNumber", "cardCvv"],
    );
  });

  it("refuses a missing planId and paymentMethod", async () => {
    const ana = await makeStudent(t);
    await expectRefused(ana, {}, ["planId", "paymentMethod"]);
  });

  it("reports a bad planId and a bad card together", async () => {
    const ana = await makeStudent(t);
    await expectRefused(ana, { planId: "1", paymentMethod: "CREDIT_CARD", ...cardFields(t, { cardNumber: "4242424242424241", cardCvv: "12" }) }, [
      "planId",
      "cardNumber",
      "cardCvv",
    ]);
  });

  it("answers 401 without a token and writes nothing", async () => {
    const res = await t.post("/api/subscriptions", { body: { planId: 1, paymentMethod: "PIX" } });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
    expect(await billingCounts(t)).toEqual({ subscriptions: 0, payments: 0, invoices: 0, pix: 0 });
  });
});

describe("POST /api/subscriptions: which plan, and only one active", () => {
  const UNAVAILABLE = { message: "Plano não disponível para este usuário", success: false };

  it("refuses a trainer a student plan, and a student a trainer plan, with 400", async () => {
    const trainer = await makeTrainer(t);
    const student = await makeStudent(t);
    const toStudentPlan = await subscribeByCard(t, trainer, await planId(t, "Mensal"));
    expect(toStudentPlan.status).toBe(400);
    expect(toStudentPlan.body).toEqual(UNAVAILABLE);
    const toTrainerPlan = await t.post("/api/subscriptions", { token: student.token, body: { planId: await planId(t, "Básico"), paymentMethod: "PIX" } });
    expect(toTrainerPlan.status).toBe(400);
    expect(toTrainerPlan.body).toEqual(UNAVAILABLE);
    expect(await billingCounts(t)).toEqual({ subscriptions: 0, payments: 0, invoices: 0, pix: 0 });
  });

  it("refuses an inactive plan with 400", async () => {
    const student = await makeStudent(t);
    const anual = await planId(t, "Anual");
    // The catalogue survives the per-test reset: restore the plan whatever happens.
    try {
      await t.db.update(subscriptionPlans).set({ active: false }).where(eq(subscriptionPlans.id, anual));
      const res = await subscribeByCard(t, student, anual);
      expect(res.status).toBe(400);
      expect(res.body).toEqual(UNAVAILABLE);
    } finally {
      await t.db.update(subscriptionPlans).set({ active: true }).where(eq(subscriptionPlans.id, anual));
    }
    expect(await billingCounts(t)).toEqual({ subscriptions: 0, payments: 0, invoices: 0, pix: 0 });
  });

  it("answers 404 Plano não encontrado for an unknown plan", async () => {
    const student = await makeStudent(t);
    const res = await subscribeByCard(t, student, 999999);
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Plano não encontrado", success: false });
    expect(await billingCounts(t)).toEqual({ subscriptions: 0, payments: 0, invoices: 0, pix: 0 });
  });

  it("answers 409 to a second subscription while one is ACTIVE, by card or PIX, and charges nothing more", async () => {
    const ana = await makeStudent(t);
    expect((await subscribeByCard(t, ana, await planId(t, "Mensal"))).status).toBe(201);
    const again = await subscribeByCard(t, ana, await planId(t, "Anual"));
    expect(again.status).toBe(409);
    expect(again.body).toEqual({ message: "Você já possui uma assinatura ativa", success: false });
    const byPix = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Anual"), paymentMethod: "PIX" } });
    expect(byPix.status).toBe(409);
    expect(byPix.body).toEqual({ message: "Você já possui uma assinatura ativa", success: false });
    expect(await billingCounts(t)).toEqual({ subscriptions: 1, payments: 1, invoices: 1, pix: 0 });
    expect((await profileOf(ana)).subscriptionType).toBe("PREMIUM_MENSAL");
  });

  it("lets exactly one of 10 concurrent subscriptions of one user through and charges once", async () => {
    const ana = await makeStudent(t);
    const mensal = await planId(t, "Mensal");
    const results = await Promise.all(Array.from({ length: 10 }, () => subscribeByCard(t, ana, mensal)));
    expect(results.map((r) => r.status).sort()).toEqual([201, 409, 409, 409, 409, 409, 409, 409, 409, 409]);
    // Refused while the first card was being charged, or once it was.
    for (const refused of results.filter((r) => r.status === 409)) {
      expect([
        { message: "Pagamento em processamento. Aguarde a confirmação.", success: false },
        { message: "Você já possui uma assinatura ativa", success: false },
      ]).toContainEqual(refused.body);
    }
    const active = await t.db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, ana.id), eq(subscriptions.status, "ACTIVE")));
    expect(active).toHaveLength(1);
    expect(active[0].id).toBe(results.find((r) => r.status === 201)!.body.id);
    expect(await paymentsOf(ana.id)).toHaveLength(1);
    expect(await invoicesOf(ana.id)).toHaveLength(1);
    expect(await subscriptionsOf(ana.id)).toHaveLength(1);
  });

  it("keeps concurrent subscriptions of different users independent", async () => {
    const students = await Promise.all([1, 2, 3].map(() => makeStudent(t)));
    const mensal = await planId(t, "Mensal");
    const results = await Promise.all(students.map((student) => subscribeByCard(t, student, mensal)));
    expect(results.map((r) => r.status)).toEqual([201, 201, 201]);
    expect(await billingCounts(t)).toEqual({ subscriptions: 3, payments: 3, invoices: 3, pix: 0 });
  });
});

describe("POST /api/subscriptions by PIX or boleto", () => {
  it("answers 201 PENDING with a PIX charge whose BR Code is valid", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t, { name: "Ana Souza" });
    const mensal = await planId(t, "Mensal");
    const res = await t.post("/api/subscriptions", { token: ana.token, body: { planId: mensal, paymentMethod: "PIX" } });
    expect(res.status).toBe(201);
    expect(res.body).toEqual({
      id: expect.any(Number),
      userId: ana.id,
      userName: "Ana Souza",
      planId: mensal,
      planName: "Mensal",
      status: "PENDING",
      startDate: null,
      endDate: null,
      renewalDate: null,
      canceledAt: null,
      price: 49.9,
      currency: "BRL",
      paymentMethod: "PIX",
      lastFourDigits: null,
      autoRenew: true,
      createdAt: START.toISOString(),
      updatedAt: START.toISOString(),
      pix: {
        id: expect.any(String),
        subscriptionId: res.body.id,
        amount: 49.9,
        currency: "BRL",
        status: "PENDING",
        brCode: expect.any(String),
        brCodeBase64: expect.stringMatching(/^data:image\/png;base64,[A-Za-z0-9+/]+=*$/),
        expiresAt: expect.stringMatching(TIMESTAMP),
        createdAt: START.toISOString(),
      },
    });
    const { brCode, brCodeBase64, expiresAt } = res.body.pix;
    expect(brCode.startsWith("000201")).toBe(true);
    expect(brCode).toContain("br.gov.bcb.pix");
    expect(brCode).toContain("540549.90"); // field 54: the amount, "49.90"
    expect(isValidBrCode(brCode)).toBe(true);
    const png = Buffer.from(brCodeBase64.slice("data:image/png;base64,".length), "base64");
    expect(png.subarray(0, 8)).toEqual(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]));
    expect(new Date(expiresAt).getTime()).toBeGreaterThan(START.getTime());

    const [invoice] = await invoicesOf(ana.id);
    expect(invoice).toMatchObject({ subscriptionId: res.body.id, amountCents: 4990, status: "PENDING", paymentId: null, paidAt: null });
    const [pix] = await t.db.select().from(pixTransactions).where(eq(pixTransactions.id, res.body.pix.id));
    expect(pix).toMatchObject({ subscriptionId: res.body.id, invoiceId: invoice.id, amountCents: 4990, status: "PENDING", brCode });
    expect(await paymentsOf(ana.id)).toEqual([]);
    const profile = await profileOf(ana);
    expect(profile.subscriptionType).toBe("FREEMIUM");
    expect(profile.subscriptionExpirationDate).toBeNull();
    expect(await t.deliverMail()).toBe(0);
  });

  it("replaces an earlier PENDING subscription: the earlier one and its invoice are CANCELED", async () => {
    const ana = await makeStudent(t);
    const first = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
    const second = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Anual"), paymentMethod: "PIX" } });
    expect(second.status).toBe(201);
    expect(second.body).toMatchObject({ status: "PENDING", planName: "Anual", price: 449.9, pix: { amount: 449.9, status: "PENDING" } });
    expect(second.body.pix.id).not.toBe(first.body.pix.id);

    const rows = await subscriptionsOf(ana.id);
    expect(rows.map((row) => [row.id, row.status])).toEqual([
      [first.body.id, "CANCELED"],
      [second.body.id, "PENDING"],
    ]);
    expect(rows[0].canceledAt).not.toBeNull();
    const bills = await invoicesOf(ana.id);
    expect(bills.map((row) => [row.subscriptionId, row.status, row.amountCents])).toEqual([
      [first.body.id, "CANCELED", 4990],
      [second.body.id, "PENDING", 44990],
    ]);
    const charges = await t.db.select().from(pixTransactions).where(eq(pixTransactions.userId, ana.id));
    expect(Object.fromEntries(charges.map((row) => [row.id, row.status]))).toEqual({ [first.body.pix.id]: "CANCELLED", [second.body.pix.id]: "PENDING" });
    expect(await paymentsOf(ana.id)).toEqual([]);
  });

  it("answers 201 PENDING to a boleto, with a boleto to pay, a PENDING invoice and no charge", async () => {
    t.clock.set(START);
    const ana = await makeStudent(t);
    const res = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "BOLETO" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "PENDING", paymentMethod: "BOLETO", price: 49.9, startDate: null, endDate: null, lastFourDigits: null });
    expect(res.body).not.toHaveProperty("pix");
    const [invoice] = await invoicesOf(ana.id);
    expect(invoice).toMatchObject({ subscriptionId: res.body.id, amountCents: 4990, status: "PENDING", paymentId: null });
    expect(invoice.dueDate.getTime()).toBeGreaterThan(START.getTime());

    const { boleto } = res.body;
    expect(boleto).toEqual({
      barcode: expect.stringMatching(/^\d{44}$/),
      digitableLine: expect.any(String),
      dueDate: invoice.dueDate.toISOString().slice(0, 10),
      amount: 49.9,
    });
    // FEBRABAN: bank, currency 9, general check digit (mod 11), due-date factor, amount in cents (10 digits).
    expect(boleto.barcode.slice(3, 4)).toBe("9");
    expect(boleto.barcode.slice(9, 19)).toBe("0000004990");
    expect(boleto.barcode[4]).toBe(febrabanMod11(boleto.barcode.slice(0, 4) + boleto.barcode.slice(5)));
    const line = boleto.digitableLine.replace(/[^0-9]/g, "");
    expect(line).toHaveLength(47);
    expect(line.slice(32, 33)).toBe(boleto.barcode[4]);
    expect(line.slice(33)).toBe(boleto.barcode.slice(5, 19));

    expect(await billingCounts(t)).toEqual({ subscriptions: 1, payments: 0, invoices: 1, pix: 0 });
    expect((await profileOf(ana)).subscriptionType).toBe("FREEMIUM");
    const current = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(current.body).toMatchObject({ id: res.body.id, status: "PENDING", paymentMethod: "BOLETO" });
  });

  it("lets an accepted card subscription replace a PENDING PIX one, whose charge is void", async () => {
    const ana = await makeStudent(t);
    const pending = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
    const card = await subscribeByCard(t, ana, await planId(t, "Mensal"));
    expect(card.status).toBe(201);
    const rows = await subscriptionsOf(ana.id);
    expect(Object.fromEntries(rows.map((row) => [row.id, row.status]))).toEqual({ [pending.body.id]: "CANCELED", [card.body.id]: "ACTIVE" });
    const bills = await invoicesOf(ana.id);
    expect(Object.fromEntries(bills.map((row) => [row.subscriptionId, row.status]))).toEqual({ [pending.body.id]: "CANCELED", [card.body.id]: "PAID" });
    const [pix] = await t.db.select().from(pixTransactions).where(eq(pixTransactions.id, pending.body.pix.id));
    expect(pix.status).toBe("CANCELLED");
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).body.id).toBe(card.body.id);
  });

  it("keeps a PENDING PIX subscription payable when a card attempt is refused", async () => {
    const ana = await makeStudent(t);
    const pending = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
    const refused = await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardNumber: CARD_DECLINED });
    expect(refused.status).toBe(422);
    const rows = await subscriptionsOf(ana.id);
    expect(rows.map((row) => row.status)).toEqual(["PENDING", "FAILED"]);
    expect((await invoicesOf(ana.id)).map((row) => row.status)).toEqual(["PENDING"]);
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).body.id).toBe(pending.body.id);
  });
});

describe("GET /api/subscriptions/my-subscription", () => {
  it("answers 404 Assinatura não encontrada when the user has none", async () => {
    const ana = await makeStudent(t);
    const res = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Assinatura não encontrada", success: false });
  });

  it("answers 404 when the only subscription FAILED", async () => {
    const ana = await makeStudent(t);
    expect((await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardNumber: CARD_DECLINED })).status).toBe(422);
    const res = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ message: "Assinatura não encontrada", success: false });
  });

  it("returns the ACTIVE subscription, as POST answered it", async () => {
    const ana = await makeStudent(t);
    const created = await subscribeByCard(t, ana, await planId(t, "Mensal"));
    const res = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual(created.body);
  });

  it("returns the latest PENDING one when none is active", async () => {
    const ana = await makeStudent(t);
    await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
    const latest = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Trimestral"), paymentMethod: "BOLETO" } });
    const res = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ id: latest.body.id, status: "PENDING", planName: "Trimestral", paymentMethod: "BOLETO" });
  });

  it("shows each user only their own", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const anas = await subscribeByCard(t, ana, await planId(t, "Mensal"));
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).body.id).toBe(anas.body.id);
    expect((await t.get("/api/subscriptions/my-subscription", { token: bia.token })).status).toBe(404);
  });

  it("answers 401 without a token", async () => {
    const res = await t.get("/api/subscriptions/my-subscription");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

describe("GET /api/subscriptions/{id}", () => {
  it("answers the owner and an administrator 200, another user 403, an unknown id 404", async () => {
    const ana = await makeStudent(t);
    const bia = await makeStudent(t);
    const created = await subscribeByCard(t, ana, await planId(t, "Mensal"));
    const own = await t.get(`/api/subscriptions/${created.body.id}`, { token: ana.token });
    expect(own.status).toBe(200);
    expect(own.body).toEqual(created.body);
    const other = await t.get(`/api/subscriptions/${created.body.id}`, { token: bia.token });
    expect(other.status).toBe(403);
    expect(other.body).toEqual({ message: "Acesso negado", success: false });
    const unknown = await t.get("/api/subscriptions/999999", { token: ana.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "Assinatura não encontrada", success: false });
    const bad = await t.get("/api/subscriptions/abc", { invalidRequest: true, token: ana.token });
    expect(bad.status).toBe(400);
    expect(bad.body).toEqual({ message: "Parâmetro inválido: id", success: false });
  });
});

describe("card data is never stored or logged", () => {
  const CVV = "987";

  /** Every string value of every text-like column of every table, as one JSON text per table. */
  async function dumpTextColumns(): Promise<Record<string, string>> {
    const columns = rowsOf<{ table_name: string; column_name: string }>(
      await t.db.execute(sql`
        select c.table_name, c.column_name
        from information_schema.columns c
        join information_schema.tables tb on tb.table_schema = c.table_schema and tb.table_name = c.table_name
        where c.table_schema = 'public' and tb.table_type = 'BASE TABLE'
          and c.data_type in ('text', 'character varying', 'character', 'json', 'jsonb')
        order by c.table_name, c.ordinal_position`),
    );
    const byTable = new Map<string, string[]>();
    for (const { table_name, column_name } of columns) byTable.set(table_name, [...(byTable.get(table_name) ?? []), column_name]);
    const dump: Record<string, string> = {};
    for (const [table, names] of byTable) {
      const select = names.map((name) => `"${name}"::text as "${name}"`).join(", ");
      dump[table] = JSON.stringify(rowsOf(await t.db.execute(sql.raw(`select ${select} from "${table}"`))));
    }
    return dump;
  }

  /** The CVV as a value of its own: not inside a longer run of letters or digits (random ids, timestamps). */
  const cvvAlone = new RegExp(`(^|[^0-9A-Za-z])${CVV}([^0-9A-Za-z]|$)`);

  it("keeps neither card numbers nor the CVV in any table or log line, accepted or refused", async () => {
    const ana = await makeStudent(t, { name: "Ana Souza", email: "ana@example.com" });
    const bia = await makeStudent(t, { name: "Bia Lima", email: "bia@example.com" });
    const cris = await makeStudent(t, { name: "Cris Melo", email: "cris@example.com" });
    const mensal = await planId(t, "Mensal");
    expect((await subscribeByCard(t, ana, mensal, { cardCvv: CVV })).status).toBe(201);
    expect((await subscribeByCard(t, bia, mensal, { cardNumber: CARD_DECLINED, cardCvv: CVV })).status).toBe(422);
    expect((await subscribeByCard(t, cris, mensal, { cardNumber: CARD_INSUFFICIENT_FUNDS, cardCvv: CVV })).status).toBe(422);
    // A refused then accepted card of the same user, typed with spaces.
    expect((await subscribeByCard(t, bia, mensal, { cardNumber: "4242 4242 4242 4242", cardCvv: CVV })).status).toBe(201);
    // Validation failures echo nothing either.
    const invalid = await subscribeByCard(t, cris, mensal, { cardNumber: "4242424242424241", cardCvv: CVV, cardExpirationYear: "2020" });
    expect(invalid.status).toBe(400);
    expect(invalid.text).not.toContain("4242424242424241");
    expect(invalid.text).not.toMatch(cvvAlone);
    await t.deliverMail();

    const dump = await dumpTextColumns();
    expect(Object.keys(dump)).toEqual(expect.arrayContaining(["subscriptions", "payments", "invoices", "users", "mail_outbox"]));
    expect(dump.payments).toContain("4242"); // the last four digits are kept
    for (const [table, text] of Object.entries(dump)) {
      for (const number of [CARD_ACCEPTED, CARD_DECLINED, CARD_INSUFFICIENT_FUNDS, "4242424242424241", "4242 4242 4242 4242"]) {
        expect(text.includes(number), `${number} in ${table}`).toBe(false);
      }
      expect(cvvAlone.test(text), `CVV in ${table}`).toBe(false);
    }

    // Whatever the service logs (today: errors only) must not carry card data.
    const logs = t.logLines.join("\n");
    for (const number of [CARD_ACCEPTED, CARD_DECLINED, CARD_INSUFFICIENT_FUNDS, "4242424242424241", "4242 4242 4242 4242"]) {
      expect(logs).not.toContain(number);
    }
    expect(logs).not.toMatch(cvvAlone);
    for (const mail of t.smtp.received) {
      expect(mail.text).not.toContain(CARD_ACCEPTED);
      expect(mail.text).not.toMatch(cvvAlone);
    }
    // The users involved really did pay and fail.
    const statuses = await t.db.select({ status: payments.status }).from(payments).orderBy(payments.id);
    expect(statuses.map((row) => row.status)).toEqual(["COMPLETED", "FAILED", "FAILED", "COMPLETED"]);
    const [{ n }] = await t.db.select({ n: sql<number>`count(*)::int` }).from(users);
    expect(n).toBe(3);
  });
});
