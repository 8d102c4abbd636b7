import { extractText, getDocumentProxy, getMeta } from "unpdf";
import { describe, expect, it } from "vitest";
import { formatDateBr } from "../../src/platform/dates.js";
import { invoicePdfFileName, renderInvoicePdf, toWinAnsi, type InvoicePdfData } from "../../src/modules/billing/invoice-pdf.js";

const invoice = (overrides: Partial<InvoicePdfData> = {}): InvoicePdfData => ({
  id: 1234,
  issuedAt: new Date("2025-03-07T12:00:00Z"),
  dueDate: new Date("2025-03-14T12:00:00Z"),
  paidAt: null,
  status: "PENDING",
  amountCents: 4990,
  currency: "BRL",
  planName: "Mensal",
  user: { name: "Maria Silva", email: "maria@example.com" },
  paymentMethod: null,
  transactionId: null,
  ...overrides,
});

async function read(pdf: Buffer) {
  const doc = await getDocumentProxy(new Uint8Array(pdf));
  const { totalPages, text } = await extractText(doc, { mergePages: true });
  const { info } = await getMeta(doc);
  return { totalPages, text, info: info as Record<string, unknown> };
}

describe("renderInvoicePdf", () => {
  it("produces a complete one-page PDF", async () => {
    const pdf = await renderInvoicePdf(invoice());
    expect(Buffer.isBuffer(pdf)).toBe(true);
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.toString("latin1").trimEnd().endsWith("%%EOF")).toBe(true);
    expect((await read(pdf)).totalPages).toBe(1);
  });

  it("names the invoice id, the customer, the plan, the amount, the status and the dates", async () => {
    const { text } = await read(await renderInvoicePdf(invoice()));
    expect(text).toContain("Fatura nº 1234");
    expect(text).toContain("Fitness Training Service");
    expect(text).toContain("Maria Silva");
    expect(text).toContain("maria@example.com");
    expect(text).toContain("Assinatura Mensal");
    expect(text).toContain("R$ 49,90");
    expect(text).toContain("Pendente");
    expect(text).toContain("07/03/2025");
    expect(text).toContain("14/03/2025");
  });

  it("formats thousands the Brazilian way", async () => {
    const { text } = await read(await renderInvoicePdf(invoice({ amountCents: 123456 })));
    expect(text).toContain("R$ 1.234,56");
    expect(text).not.toContain("R$ 49,90");
  });

  it("keeps Portuguese accents (ç, ã, á, é, º)", async () => {
    const { text } = await read(
      await renderInvoicePdf(
        invoice({
          planName: "Intermediário",
          user: { name: "João Conceição Araújo", email: "joao@example.com" },
          paymentMethod: "CREDIT_CARD",
          transactionId: "tx_1",
        }),
      ),
    );
    expect(text).toContain("João Conceição Araújo");
    expect(text).toContain("Assinatura Intermediário");
    expect(text).toContain("Situação");
    expect(text).toContain("Emissão");
    expect(text).toContain("Descrição");
    expect(text).toContain("Cartão de crédito");
    expect(text).toContain("nº");
  });

  it.each([
    ["PENDING", "Pendente"],
    ["PAID", "Paga"],
    ["OVERDUE", "Vencida"],
    ["CANCELED", "Cancelada"],
  ] as const)("shows status %s as %s", async (status, label) => {
    const { text } = await read(await renderInvoicePdf(invoice({ status })));
    expect(text).toMatch(new RegExp(`Situação:\\s*${label}\\b`));
  });

  it("shows the payment date, method and transaction id of a paid invoice", async () => {
    const { text } = await read(
      await renderInvoicePdf(
        invoice({
          status: "PAID",
          paidAt: new Date("2025-03-08T23:59:59Z"),
          paymentMethod: "PIX",
          transactionId: "E12345678202503082359abcdef",
        }),
      ),
    );
    expect(text).toMatch(/Pagamento:\s*08\/03\/2025/);
    expect(text).toMatch(/Forma de pagamento:\s*PIX/);
    expect(text).toMatch(/ID da transação:\s*E12345678202503082359abcdef/);
  });

  it("shows no payment date nor payment section on a pending invoice", async () => {
    const { text } = await read(await renderInvoicePdf(invoice()));
    expect(text).not.toMatch(/Pagamento:/);
    expect(text).not.toContain("Forma de pagamento");
    expect(text).not.toContain("ID da transação");
  });

  it("prints dates in UTC whatever the time of day", async () => {
    const { text } = await read(await renderInvoicePdf(invoice({ issuedAt: new Date("2025-12-31T23:30:00Z"), dueDate: new Date("2026-01-01T00:15:00Z") })));
    expect(text).toMatch(/Emissão:\s*31\/12\/2025/);
    expect(text).toMatch(/Vencimento:\s*01\/01\/2026/);
  });

  it("sets the metadata and renders the same invoice to the same bytes", async () => {
    const data = invoice({ id: 77 });
    const first = await renderInvoicePdf(data);
    const second = await renderInvoicePdf({ ...data, user: { ...data.user } });
    expect(first.equals(second)).toBe(true);

    const { info } = await read(first);
    expect(info.Title).toBe("Fatura 77");
    expect(info.Author).toBe("Fitness Training Service");
    expect(info.CreationDate).toBe("D:20250307120000Z");

    const other = await renderInvoicePdf({ ...data, amountCents: 4991 });
    expect(other.equals(first)).toBe(false);
  });

  it("stays on one page with very long values, and never writes characters Helvetica cannot show", async () => {
    const { totalPages, text } = await read(
      await renderInvoicePdf(
        invoice({
          planName: "Plano ".repeat(60),
          user: { name: "Dvořák Łukasz\n".repeat(40), email: `${"a".repeat(300)}@example.com` },
          paymentMethod: "SOMETHING_ELSE",
          transactionId: "x".repeat(500),
        }),
      ),
    );
    expect(totalPages).toBe(1);
    expect(text).toContain("Dvorák ?ukasz");
    expect(text).toContain("SOMETHING_ELSE");
  });

  it("labels a non-BRL amount with its own currency", async () => {
    const { text } = await read(await renderInvoicePdf(invoice({ currency: "usd", amountCents: 1999 })));
    expect(text).toContain("USD 19,99");
    expect(text).not.toContain("R$");
  });
});

describe("invoice PDF helpers", () => {
  it("formats dates as DD/MM/YYYY in UTC", () => {
    expect(formatDateBr(new Date("2025-03-07T23:59:59Z"))).toBe("07/03/2025");
    expect(formatDateBr(new Date("2024-12-01T00:00:00Z"))).toBe("01/12/2024");
  });

  it("keeps WinAnsi text and replaces what Helvetica cannot show", () => {
    expect(toWinAnsi("João Conceição º ª € – “ok”")).toBe("João Conceição º ª € – “ok”");
    expect(toWinAnsi("Dvořák")).toBe("Dvorák");
    expect(toWinAnsi("Łukasz 日本")).toBe("?ukasz ??");
    expect(toWinAnsi("a\nb\tc\u0085d")).toBe("a b c d");
    expect(toWinAnsi("Joa\u0303o")).toBe("João");
  });

  it("names the file fatura-<id>.pdf", () => {
    expect(invoicePdfFileName(42)).toBe("fatura-42.pdf");
  });
});
