import { eq, sql } from "drizzle-orm";
import { extractText, getDocumentProxy } from "unpdf";
import { describe, expect, it } from "vitest";
import { invoices, payments } from "../../src/tables/billing.table.js";
import { CARD_DECLINED, planId, subscribeByCard } from "../factories/billing.js";
import { makeStudent, makeUser, type MadeUser, relogin } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp({ ADMIN_EMAILS: "boss@example.com" });

const DENIED = { message: "Acesso negado", success: false };
const TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** Moves the app clock (createdAt of payments and invoices comes from it) and refreshes the user's token. */
async function at(iso: string, user: MadeUser) {
  t.clock.set(new Date(iso));
  await relogin(t, user);
}

/** An accepted card subscription at `iso`, canceled at once so the user may subscribe again. */
async function paidAt(iso: string, user: MadeUser, plan: string) {
  await at(iso, user);
  const res = await subscribeByCard(t, user, await planId(t, plan));
  expect(res.status).toBe(201);
  const canceled = await t.post(`/api/subscriptions/${res.body.id}/cancel`, { token: user.token, body: { cancelImmediately: true } });
  expect(canceled.status).toBe(200);
  return res.body;
}

/**
 * Ana: Mensal paid on 03-10 at the last millisecond of the day, Trimestral paid on 03-11 at midnight, a declined
 * card on 03-12, Semestral paid on 03-13 and a PENDING PIX Mensal on 03-14. Bia: Mensal paid on 03-11.
 */
async function seed() {
  t.clock.set(new Date("2025-03-10T08:00:00.000Z"));
  const ana = await makeStudent(t, { name: "Ana Souza", email: "ana@example.com" });
  const bia = await makeStudent(t, { name: "Bia Lima", email: "bia@example.com" });
  const mensal = await paidAt("2025-03-10T23:59:59.999Z", ana, "Mensal");
  const trimestral = await paidAt("2025-03-11T00:00:00.000Z", ana, "Trimestral");
  const biaMensal = await paidAt("2025-03-11T10:00:00.000Z", bia, "Mensal");
  await at("2025-03-12T12:00:00.000Z", ana);
  const declined = await subscribeByCard(t, ana, await planId(t, "Mensal"), { cardNumber: CARD_DECLINED });
  expect(declined.status).toBe(422);
  const semestral = await paidAt("2025-03-13T15:30:00.000Z", ana, "Semestral");
  await at("2025-03-14T09:00:00.000Z", ana);
  const pix = await t.post("/api/subscriptions", { token: ana.token, body: { planId: await planId(t, "Mensal"), paymentMethod: "PIX" } });
  expect(pix.status).toBe(201);
  await relogin(t, bia);
  const boss = await makeUser(t, { name: "Chefe", email: "boss@example.com" });
  return { ana, bia, boss, mensal, trimestral, biaMensal, semestral, pix: pix.body };
}

const amounts = (page: { content: Array<{ amount: number }> }) => page.content.map((item) => item.amount);
const dates = (page: { content: Array<{ createdAt: string }> }) => page.content.map((item) => item.createdAt);
const SORTED = { sorted: true, unsorted: false, empty: false };

function pageOf(content: unknown[], { page = 0, size = 20, total = content.length } = {}) {
  const totalPages = Math.ceil(total / size);
  return {
    content,
    pageable: { sort: SORTED, pageNumber: page, pageSize: size, offset: page * size, paged: true, unpaged: false },
    totalPages,
    totalElements: total,
    last: page >= totalPages - 1,
    first: page === 0,
    sort: SORTED,
    number: page,
    numberOfElements: content.length,
    size,
    empty: content.length === 0,
  };
}

async function download(id: number | string, token?: string) {
  const response = await t.fetch(`${t.baseUrl}/api/invoices/${id}/download`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function pdfText(bytes: Buffer) {
  const { text } = await extractText(await getDocumentProxy(new Uint8Array(bytes)), { mergePages: true });
  return text;
}

describe("GET /api/payments", () => {
  it("answers the caller's payments as a Spring page, newest first, with every PaymentDTO field", async () => {
    const { ana, mensal, trimestral, semestral } = await seed();
    const res = await t.get("/api/payments", { token: ana.token });
    expect(res.status).toBe(200);
    const [paidInvoices] = [await t.db.select().from(invoices).where(eq(invoices.userId, ana.id)).orderBy(invoices.id)];
    const invoiceUrl = (subscriptionId: number) => `${t.baseUrl}/api/invoices/${paidInvoices.find((i) => i.subscriptionId === subscriptionId)!.id}/download`;
    const completed = (subscription: { id: number; planName: string; price: number }, createdAt: string) => ({
      id: expect.any(Number),
      userId: ana.id,
      userName: "Ana Souza",
      subscriptionId: subscription.id,
      planName: subscription.planName,
      amount: subscription.price,
      currency: "BRL",
      status: "COMPLETED",
      paymentMethod: "CREDIT_CARD",
      lastFourDigits: "4242",
      transactionId: expect.stringMatching(/^ch_sandbox_/),
      invoiceUrl: invoiceUrl(subscription.id),
      createdAt,
      updatedAt: createdAt,
    });
    expect(res.body).toEqual(
      pageOf([
        completed(semestral, "2025-03-13T15:30:00.000Z"),
        {
          id: expect.any(Number),
          userId: ana.id,
          userName: "Ana Souza",
          subscriptionId: expect.any(Number),
          planName: "Mensal",
          amount: 49.9,
          currency: "BRL",
          status: "FAILED",
          paymentMethod: "CREDIT_CARD",
          lastFourDigits: "0002",
          transactionId: expect.any(String),
          invoiceUrl: null,
          createdAt: "2025-03-12T12:00:00.000Z",
          updatedAt: "2025-03-12T12:00:00.000Z",
        },
        completed(trimestral, "2025-03-11T00:00:00.000Z"),
        completed(mensal, "2025-03-10T23:59:59.999Z"),
      ]),
    );
    expect(amounts(res.body)).toEqual([239.9, 49.9, 129.9, 49.9]);
  });

  it("shows each user only their own, even when asking for another user's", async () => {
    const { ana, bia, biaMensal } = await seed();
    const res = await t.get("/api/payments", { token: bia.token });
    expect(res.status).toBe(200);
    expect(res.body.totalElements).toBe(1);
    expect(res.body.content).toEqual([expect.objectContaining({ userId: bia.id, userName: "Bia Lima", subscriptionId: biaMensal.id, amount: 49.9 })]);
    const sneaky = await t.get(`/api/payments?userId=${ana.id}`, { token: bia.token });
    expect(sneaky.status).toBe(200);
    expect(sneaky.body.content.map((p: { userId: number }) => p.userId)).toEqual([bia.id]);
  });

  it("shows an administrator everyone's, or one user's with userId", async () => {
    const { ana, bia, boss } = await seed();
    const all = await t.get("/api/payments", { token: boss.token });
    expect(all.status).toBe(200);
    expect(all.body.totalElements).toBe(5);
    expect(new Set(all.body.content.map((p: { userId: number }) => p.userId))).toEqual(new Set([ana.id, bia.id]));
    const onlyBia = await t.get(`/api/payments?userId=${bia.id}`, { token: boss.token });
    expect(onlyBia.body.content.map((p: { userId: number }) => p.userId)).toEqual([bia.id]);
  });

  it("filters by status", async () => {
    const { ana } = await seed();
    const failed = await t.get("/api/payments?status=FAILED", { token: ana.token });
    expect(failed.status).toBe(200);
    expect(failed.body.content.map((p: { status: string }) => p.status)).toEqual(["FAILED"]);
    const completed = await t.get("/api/payments?status=COMPLETED", { token: ana.token });
    expect(amounts(completed.body)).toEqual([239.9, 129.9, 49.9]);
    const refunded = await t.get("/api/payments?status=REFUNDED", { token: ana.token });
    expect(refunded.status).toBe(200);
    expect(refunded.body).toEqual(pageOf([]));
    expect(refunded.body).toMatchObject({ empty: true, totalPages: 0, totalElements: 0, first: true, last: true });
  });

  it.each(["PAID", "completed", "X"])("answers 400 Parâmetro inválido: status to status=%s", async (status) => {
    const { ana } = await seed();
    const res = await t.get(`/api/payments?status=${status}`, { invalidRequest: true, token: ana.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: status", success: false });
  });

  it("filters by inclusive UTC days: startDate and endDate", async () => {
    const { ana } = await seed();
    const day = async (query: string) => {
      const res = await t.get(`/api/payments?${query}`, { token: ana.token });
      expect(res.status).toBe(200);
      return dates(res.body);
    };
    expect(await day("startDate=2025-03-10&endDate=2025-03-10")).toEqual(["2025-03-10T23:59:59.999Z"]);
    expect(await day("startDate=2025-03-11&endDate=2025-03-11")).toEqual(["2025-03-11T00:00:00.000Z"]);
    expect(await day("startDate=2025-03-11")).toEqual(["2025-03-13T15:30:00.000Z", "2025-03-12T12:00:00.000Z", "2025-03-11T00:00:00.000Z"]);
    expect(await day("endDate=2025-03-11")).toEqual(["2025-03-11T00:00:00.000Z", "2025-03-10T23:59:59.999Z"]);
    expect(await day("startDate=2025-03-11&endDate=2025-03-12&status=FAILED")).toEqual(["2025-03-12T12:00:00.000Z"]);
    expect(await day("startDate=2025-03-14")).toEqual([]);
    expect(await day("endDate=2025-03-09")).toEqual([]);
  });

  it.each([
    ["startDate", "startDate=2025-02-30"],
    ["startDate", "startDate=10/03/2025"],
    ["endDate", "endDate=2025-3-1"],
    ["endDate", "endDate=yesterday"],
    ["startDate", "startDate=0000-01-01"],
    ["endDate", "endDate=9999-12-31"],
  ])("answers 400 Parâmetro inválido: %s to %s", async (param, query) => {
    const user = await makeStudent(t);
    const res = await t.get(`/api/payments?${query}`, { invalidRequest: true, token: user.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("pages with size: every row once across the pages, with the page flags", async () => {
    const { ana } = await seed();
    const first = await t.get("/api/payments?size=2", { token: ana.token });
    expect(first.status).toBe(200);
    expect(first.body).toMatchObject({ number: 0, size: 2, numberOfElements: 2, totalElements: 4, totalPages: 2, first: true, last: false, empty: false });
    expect(first.body.pageable).toMatchObject({ pageNumber: 0, pageSize: 2, offset: 0 });
    const second = await t.get("/api/payments?size=2&page=1", { token: ana.token });
    expect(second.body).toMatchObject({ number: 1, size: 2, numberOfElements: 2, totalElements: 4, totalPages: 2, first: false, last: true, empty: false });
    expect(second.body.pageable).toMatchObject({ pageNumber: 1, pageSize: 2, offset: 2 });
    const beyond = await t.get("/api/payments?size=2&page=2", { token: ana.token });
    expect(beyond.body).toMatchObject({ content: [], number: 2, numberOfElements: 0, totalElements: 4, empty: true });

    const all = await t.get("/api/payments", { token: ana.token });
    const paged = [...first.body.content, ...second.body.content].map((p: { id: number }) => p.id);
    expect(paged).toEqual(all.body.content.map((p: { id: number }) => p.id));
    expect(new Set(paged).size).toBe(4);
  });

  it("clamps size to 100 and refuses bad paging parameters", async () => {
    const user = await makeStudent(t);
    const big = await t.get("/api/payments?size=500", { token: user.token });
    expect(big.status).toBe(200);
    expect(big.body.size).toBe(100);
    for (const [param, query] of [
      ["size", "size=0"],
      ["size", "size=abc"],
      ["page", "page=-1"],
      ["page", "page=1.5"],
    ]) {
      const res = await t.get(`/api/payments?${query}`, { invalidRequest: true, token: user.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
    }
  });

  it("sorts by amount ascending, by createdAt either way, and by several keys", async () => {
    const { ana } = await seed();
    const byAmount = await t.get("/api/payments?sort=amount,asc", { token: ana.token });
    expect(byAmount.status).toBe(200);
    expect(amounts(byAmount.body)).toEqual([49.9, 49.9, 129.9, 239.9]);
    expect(byAmount.body.sort).toEqual(SORTED);
    const newest = await t.get("/api/payments?sort=createdAt,desc", { token: ana.token });
    expect(dates(newest.body)).toEqual(["2025-03-13T15:30:00.000Z", "2025-03-12T12:00:00.000Z", "2025-03-11T00:00:00.000Z", "2025-03-10T23:59:59.999Z"]);
    const oldest = await t.get("/api/payments?sort=createdAt,asc", { token: ana.token });
    expect(dates(oldest.body)).toEqual([...dates(newest.body)].reverse());
    const twoKeys = await t.get("/api/payments?sort=amount,desc&sort=createdAt,asc", { token: ana.token });
    expect(dates(twoKeys.body)).toEqual(["2025-03-13T15:30:00.000Z", "2025-03-11T00:00:00.000Z", "2025-03-10T23:59:59.999Z", "2025-03-12T12:00:00.000Z"]);
  });

  it.each(["password,asc", "amount,up", "userName", "amount,asc,desc"])("answers 400 Parâmetro inválido: sort to sort=%s", async (sort) => {
    const user = await makeStudent(t);
    const res = await t.get(`/api/payments?sort=${sort}`, { invalidRequest: true, token: user.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Parâmetro inválido: sort", success: false });
  });

  it("answers 401 without a token", async () => {
    const res = await t.get("/api/payments");
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

describe("GET /api/invoices", () => {
  it("answers the caller's invoices as a Spring page with every InvoiceDTO field", async () => {
    const { ana, mensal, trimestral, semestral, pix } = await seed();
    const res = await t.get("/api/invoices", { token: ana.token });
    expect(res.status).toBe(200);
    const paymentIds = new Map((await t.db.select().from(payments).where(eq(payments.userId, ana.id))).map((p) => [p.subscriptionId, p.id] as const));
    const paid = (subscription: { id: number; planName: string; price: number }, at: string) => ({
      id: expect.any(Number),
      userId: ana.id,
      userName: "Ana Souza",
      subscriptionId: subscription.id,
      planName: subscription.planName,
      amount: subscription.price,
      currency: "BRL",
      status: "PAID",
      dueDate: at,
      paidAt: at,
      paymentId: paymentIds.get(subscription.id),
      invoiceUrl: expect.stringMatching(new RegExp(`^${t.baseUrl}/api/invoices/\\d+/download$`)),
      createdAt: at,
      updatedAt: at,
    });
    expect(res.body).toEqual(
      pageOf([
        {
          id: expect.any(Number),
          userId: ana.id,
          userName: "Ana Souza",
          subscriptionId: pix.id,
          planName: "Mensal",
          amount: 49.9,
          currency: "BRL",
          status: "PENDING",
          dueDate: expect.stringMatching(TIMESTAMP),
          paidAt: null,
          paymentId: null,
          invoiceUrl: expect.any(String),
          createdAt: "2025-03-14T09:00:00.000Z",
          updatedAt: "2025-03-14T09:00:00.000Z",
        },
        paid(semestral, "2025-03-13T15:30:00.000Z"),
        paid(trimestral, "2025-03-11T00:00:00.000Z"),
        paid(mensal, "2025-03-10T23:59:59.999Z"),
      ]),
    );
    for (const invoice of res.body.content) expect(invoice.invoiceUrl).toBe(`${t.baseUrl}/api/invoices/${invoice.id}/download`);
  });

  it("shows each user only their own, and an administrator all", async () => {
    const { bia, boss } = await seed();
    const own = await t.get("/api/invoices", { token: bia.token });
    expect(own.body.content.map((i: { userName: string }) => i.userName)).toEqual(["Bia Lima"]);
    const all = await t.get("/api/invoices", { token: boss.token });
    expect(all.body.totalElements).toBe(5);
  });

  it("filters by status, dates, pages and sorts", async () => {
    const { ana } = await seed();
    const paid = await t.get("/api/invoices?status=PAID", { token: ana.token });
    expect(paid.body.content.map((i: { status: string }) => i.status)).toEqual(["PAID", "PAID", "PAID"]);
    const pending = await t.get("/api/invoices?status=PENDING", { token: ana.token });
    expect(pending.body.content.map((i: { amount: number }) => i.amount)).toEqual([49.9]);
    const overdue = await t.get("/api/invoices?status=OVERDUE", { token: ana.token });
    expect(overdue.body).toEqual(pageOf([]));
    const day = await t.get("/api/invoices?startDate=2025-03-11&endDate=2025-03-13", { token: ana.token });
    expect(dates(day.body)).toEqual(["2025-03-13T15:30:00.000Z", "2025-03-11T00:00:00.000Z"]);
    const byAmount = await t.get("/api/invoices?sort=amount,asc&size=2", { token: ana.token });
    expect(amounts(byAmount.body)).toEqual([49.9, 49.9]);
    expect(byAmount.body).toMatchObject({ totalElements: 4, totalPages: 2, last: false });
    const rest = await t.get("/api/invoices?sort=amount,asc&size=2&page=1", { token: ana.token });
    expect(amounts(rest.body)).toEqual([129.9, 239.9]);
  });

  it.each([
    ["status", "status=COMPLETED"],
    ["sort", "sort=dueDate,asc"],
    ["startDate", "startDate=2025-13-01"],
  ])("answers 400 Parâmetro inválido: %s to %s", async (param, query) => {
    const user = await makeStudent(t);
    const res = await t.get(`/api/invoices?${query}`, { invalidRequest: true, token: user.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: `Parâmetro inválido: ${param}`, success: false });
  });

  it("answers 401 without a token", async () => {
    expect((await t.get("/api/invoices")).status).toBe(401);
  });
});

describe("GET /api/payments/{id} and /api/invoices/{id}", () => {
  it("answers the owner and an administrator 200, another user 403", async () => {
    const { ana, bia, boss } = await seed();
    const list = await t.get("/api/payments", { token: ana.token });
    for (const payment of list.body.content) {
      const own = await t.get(`/api/payments/${payment.id}`, { token: ana.token });
      expect(own.status).toBe(200);
      expect(own.body).toEqual(payment);
    }
    const [payment] = list.body.content;
    const byAdmin = await t.get(`/api/payments/${payment.id}`, { token: boss.token });
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.body).toEqual(payment);
    const byOther = await t.get(`/api/payments/${payment.id}`, { token: bia.token });
    expect(byOther.status).toBe(403);
    expect(byOther.body).toEqual(DENIED);

    const invoicesList = await t.get("/api/invoices", { token: ana.token });
    for (const invoice of invoicesList.body.content) {
      const own = await t.get(`/api/invoices/${invoice.id}`, { token: ana.token });
      expect(own.status).toBe(200);
      expect(own.body).toEqual(invoice);
    }
    const [invoice] = invoicesList.body.content;
    expect((await t.get(`/api/invoices/${invoice.id}`, { token: boss.token })).body).toEqual(invoice);
    const otherInvoice = await t.get(`/api/invoices/${invoice.id}`, { token: bia.token });
    expect(otherInvoice.status).toBe(403);
    expect(otherInvoice.body).toEqual(DENIED);
  });

  it("answers 404 Pagamento não encontrado / Fatura não encontrada, and 400 for a non-numeric id", async () => {
    const user = await makeStudent(t);
    const payment = await t.get("/api/payments/999999", { token: user.token });
    expect(payment.status).toBe(404);
    expect(payment.body).toEqual({ message: "Pagamento não encontrado", success: false });
    const invoice = await t.get("/api/invoices/999999", { token: user.token });
    expect(invoice.status).toBe(404);
    expect(invoice.body).toEqual({ message: "Fatura não encontrada", success: false });
    for (const path of ["/api/payments/abc", "/api/invoices/abc", "/api/invoices/abc/download"]) {
      const res = await t.get(path, { invalidRequest: true, token: user.token });
      expect(res.status).toBe(400);
      expect(res.body).toEqual({ message: "Parâmetro inválido: id", success: false });
    }
  });

  it("answers 401 without a token", async () => {
    expect((await t.get("/api/payments/1")).status).toBe(401);
    expect((await t.get("/api/invoices/1")).status).toBe(401);
  });
});

describe("GET /api/invoices/{id}/download", () => {
  it("answers a real PDF naming the invoice, the user, the plan and the amount", async () => {
    const { ana } = await seed();
    const [invoice] = (await t.get("/api/invoices?status=PAID&sort=createdAt,asc", { token: ana.token })).body.content;
    expect(invoice.planName).toBe("Mensal");
    const res = await download(invoice.id, ana.token);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/^application\/pdf/);
    expect(res.headers.get("content-disposition")).toBe(`attachment; filename="fatura-${invoice.id}.pdf"`);
    expect(res.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const text = await pdfText(res.bytes);
    expect(text).toContain(`Fatura nº ${invoice.id}`);
    expect(text).toContain("Ana Souza");
    expect(text).toContain("ana@example.com");
    expect(text).toContain("Mensal");
    expect(text).toContain("R$ 49,90");
    expect(text).toContain("10/03/2025");
  });

  it("is reachable at the invoiceUrl of the payment", async () => {
    const { ana } = await seed();
    const [payment] = (await t.get("/api/payments?status=COMPLETED&sort=amount,desc", { token: ana.token })).body.content;
    const response = await t.fetch(payment.invoiceUrl, { headers: { authorization: `Bearer ${ana.token}` } });
    expect(response.status).toBe(200);
    expect(await pdfText(Buffer.from(await response.arrayBuffer()))).toContain("R$ 239,90");
  });

  it("lets an administrator download it and refuses another user with 403", async () => {
    const { ana, bia, boss } = await seed();
    const [invoice] = (await t.get("/api/invoices", { token: ana.token })).body.content;
    const byAdmin = await download(invoice.id, boss.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.bytes.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    const byOther = await t.get(`/api/invoices/${invoice.id}/download`, { token: bia.token });
    expect(byOther.status).toBe(403);
    expect(byOther.body).toEqual(DENIED);
    expect(byOther.headers.get("content-disposition")).toBeNull();
  });

  it("answers 404 for an unknown invoice and 401 without a token", async () => {
    const { ana } = await seed();
    const unknown = await t.get("/api/invoices/999999/download", { token: ana.token });
    expect(unknown.status).toBe(404);
    expect(unknown.body).toEqual({ message: "Fatura não encontrada", success: false });
    const [invoice] = (await t.get("/api/invoices", { token: ana.token })).body.content;
    const anonymous = await t.get(`/api/invoices/${invoice.id}/download`);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ message: "Token inválido ou expirado", success: false });
  });
});

describe("totals are exact", () => {
  it("adds N payments of 49.90 to exactly N × 4990 cents, in the API and in the database", async () => {
    t.clock.set(new Date("2025-05-01T10:00:00.000Z"));
    const ana = await makeStudent(t);
    const N = 7;
    for (let i = 0; i < N; i += 1) await paidAt(new Date(Date.UTC(2025, 4, 1 + i, 10)).toISOString(), ana, "Mensal");

    const list = await t.get("/api/payments?size=100", { token: ana.token });
    expect(list.body.totalElements).toBe(N);
    for (const payment of list.body.content) expect(payment.amount).toBe(49.9);
    const cents = list.body.content.reduce((sum: number, p: { amount: number }) => sum + Math.round(p.amount * 100), 0);
    expect(cents).toBe(N * 4990);

    const invoiceList = await t.get("/api/invoices?size=100", { token: ana.token });
    expect(invoiceList.body.content.reduce((sum: number, i: { amount: number }) => sum + Math.round(i.amount * 100), 0)).toBe(N * 4990);

    const [totals] = rowsOf<{ payments: number; invoices: number }>(
      await t.db.execute(sql`select
        (select sum(amount_cents)::int from payments where user_id = ${ana.id} and status = 'COMPLETED') as payments,
        (select sum(amount_cents)::int from invoices where user_id = ${ana.id} and status = 'PAID') as invoices`),
    );
    expect(totals).toEqual({ payments: N * 4990, invoices: N * 4990 });
  });
});
