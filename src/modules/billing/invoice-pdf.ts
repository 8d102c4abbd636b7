import { formatBrl } from "../../platform/money.js";
import type { InvoiceStatus } from "../../tables/billing.table.js";
import { formatDateBr } from "../../platform/dates.js";

/** What the invoice PDF shows; nothing else goes into the document. */
export interface InvoicePdfData {
  id: number;
  issuedAt: Date;
  dueDate: Date;
  paidAt: Date | null;
  status: InvoiceStatus;
  amountCents: number;
  currency: string;
  planName: string;
  user: { name: string; email: string };
  paymentMethod: string | null;
  transactionId: string | null;
}

const ISSUER = "Fitness Training Service";

const STATUS_LABELS: Record<InvoicePdfData["status"], string> = {
  PENDING: "Pendente",
  PAID: "Paga",
  OVERDUE: "Vencida",
  CANCELED: "Cancelada",
  REFUNDED: "Estornada",
};

const PAYMENT_METHOD_LABELS: Record<string, string> = {
  CREDIT_CARD: "Cartão de crédito",
  PIX: "PIX",
  BOLETO: "Boleto",
};

/** The PDF file name the download endpoint sends. */
export const invoicePdfFileName = (id: number): string => `fatura-${id}.pdf`;

/** 4990 BRL → "R$ 49,90"; another currency keeps its own code instead of a misleading "R$". */
function formatAmount(cents: number, currency: string): string {
  const brl = formatBrl(cents);
  return currency.toUpperCase() === "BRL" ? brl : brl.replace("R$", currency.toUpperCase());
}

/** Code points above U+00FF that the standard fonts' WinAnsiEncoding still has a glyph for. */
const WIN_ANSI_EXTRA = new Set([
  0x0152, 0x0153, 0x0160, 0x0161, 0x0178, 0x017d, 0x017e, 0x0192, 0x02c6, 0x02dc, 0x2013, 0x2014, 0x2018, 0x2019, 0x201a, 0x201c, 0x201d, 0x201e, 0x2020,
  0x2021, 0x2022, 0x2026, 0x2030, 0x2039, 0x203a, 0x20ac, 0x2122,
]);

const isWinAnsi = (codePoint: number): boolean =>
  (codePoint >= 0x20 && codePoint <= 0x7e) || (codePoint >= 0xa0 && codePoint <= 0xff) || WIN_ANSI_EXTRA.has(codePoint);

/**
 * Helvetica (a standard, non-embedded font) can only show WinAnsi characters; pdfkit writes anything else as garbage.
 * Portuguese text passes unchanged; other letters lose what WinAnsi lacks ("Dvořák" → "Dvorák"), a character with
 * no WinAnsi base becomes "?" ("Łukasz" → "?ukasz"), control characters and line breaks become spaces.
 */
export function toWinAnsi(text: string): string {
  let out = "";
  for (const char of text.normalize("NFC")) {
    const codePoint = char.codePointAt(0)!;
    if (isWinAnsi(codePoint)) {
      out += char;
      continue;
    }
    if (codePoint < 0x20 || (codePoint >= 0x7f && codePoint < 0xa0)) {
      out += " ";
      continue;
    }
    const base = [...char.normalize("NFD")].filter((c) => isWinAnsi(c.codePointAt(0)!)).join("");
    out += base || "?";
  }
  return out;
}

// A4 is 595.28 × 841.89 pt.
const MARGIN = 50;
const PAGE_WIDTH = 595.28;
const CONTENT_WIDTH = PAGE_WIDTH - 2 * MARGIN;
const COLOR_TEXT = "#1f2933";
const COLOR_MUTED = "#616e7c";
const COLOR_RULE = "#cbd2d9";
const COLOR_HEADER_BG = "#f0f4f8";

/**
 * Renders a one-page A4 invoice in Portuguese. The same invoice always renders to the same bytes: the creation date
 * is the issue date, and pdfkit's file ID is a hash of the document info. pdfkit (and its fonts) is loaded with the
 * first invoice asked for, not with the service.
 */
export async function renderInvoicePdf(invoice: InvoicePdfData): Promise<Buffer> {
  const { default: PDFDocument } = await import("pdfkit");
  const doc = new PDFDocument({
    size: "A4",
    margin: MARGIN,
    lang: "pt-BR",
    displayTitle: true,
    info: {
      Title: `Fatura ${invoice.id}`,
      Author: ISSUER,
      Subject: `Fatura nº ${invoice.id}`,
      Creator: ISSUER,
      CreationDate: invoice.issuedAt,
      ModDate: invoice.issuedAt,
    },
  });

  const done = new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    doc.on("data", (chunk: Buffer) => chunks.push(chunk));
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });

  try {
    drawInvoice(doc, invoice);
  } finally {
    doc.end();
  }
  return done;
}

function drawInvoice(doc: PDFKit.PDFDocument, invoice: InvoicePdfData): void {
  const left = MARGIN;
  const right = MARGIN + CONTENT_WIDTH;
  const text = (value: string) => toWinAnsi(value);

  // Header: issuer on the left, invoice number on the right.
  let y = MARGIN;
  doc.fillColor(COLOR_TEXT).font("Helvetica-Bold").fontSize(20);
  doc.text(ISSUER, left, y, { width: CONTENT_WIDTH / 2 + 40, lineBreak: false });
  doc.font("Helvetica-Bold").fontSize(16);
  doc.text(`Fatura nº ${invoice.id}`, left + CONTENT_WIDTH / 2, y + 3, {
    width: CONTENT_WIDTH / 2,
    align: "right",
    lineBreak: false,
  });
  y += 40;
  rule(doc, y);
  y += 20;

  // Customer (left) and invoice facts (right).
  const columnWidth = CONTENT_WIDTH / 2 - 10;
  const factsX = left + CONTENT_WIDTH / 2 + 10;

  label(doc, "Cliente", left, y);
  let customerY = y + 16;
  doc.fillColor(COLOR_TEXT).font("Helvetica-Bold").fontSize(11);
  customerY = wrapped(doc, text(invoice.user.name), left, customerY, columnWidth, 3) + 2;
  doc.font("Helvetica").fontSize(10);
  customerY = wrapped(doc, text(invoice.user.email), left, customerY, columnWidth, 2);

  label(doc, "Dados da fatura", factsX, y);
  let factsY = y + 16;
  const facts: Array<[string, string]> = [
    ["Situação", STATUS_LABELS[invoice.status]],
    ["Emissão", formatDateBr(invoice.issuedAt)],
    ["Vencimento", formatDateBr(invoice.dueDate)],
  ];
  if (invoice.paidAt) facts.push(["Pagamento", formatDateBr(invoice.paidAt)]);
  for (const [name, value] of facts) {
    doc.fillColor(COLOR_MUTED).font("Helvetica").fontSize(10);
    doc.text(`${name}:`, factsX, factsY, { width: 80, lineBreak: false });
    doc.fillColor(COLOR_TEXT).font(name === "Situação" ? "Helvetica-Bold" : "Helvetica");
    doc.text(value, factsX + 80, factsY, { width: columnWidth - 80, lineBreak: false });
    factsY += 16;
  }

  y = Math.max(customerY, factsY) + 24;

  // Line items: one subscription line and the total.
  const amountWidth = 130;
  const descriptionWidth = CONTENT_WIDTH - amountWidth - 20;
  doc.rect(left, y, CONTENT_WIDTH, 24).fill(COLOR_HEADER_BG);
  doc.fillColor(COLOR_MUTED).font("Helvetica-Bold").fontSize(10);
  doc.text("Descrição", left + 10, y + 8, { width: descriptionWidth, lineBreak: false });
  doc.text("Valor", right - amountWidth - 10, y + 8, { width: amountWidth, align: "right", lineBreak: false });
  y += 34;

  const amount = formatAmount(invoice.amountCents, invoice.currency);
  doc.fillColor(COLOR_TEXT).font("Helvetica").fontSize(11);
  const itemBottom = wrapped(doc, text(`Assinatura ${invoice.planName}`), left + 10, y, descriptionWidth, 2);
  doc.text(amount, right - amountWidth - 10, y, { width: amountWidth, align: "right", lineBreak: false });
  y = Math.max(itemBottom, y + 14) + 10;
  rule(doc, y);
  y += 12;

  doc.font("Helvetica-Bold").fontSize(13);
  doc.text("Total", left + 10, y, { width: descriptionWidth, lineBreak: false });
  doc.text(amount, right - amountWidth - 10, y, { width: amountWidth, align: "right", lineBreak: false });
  y += 40;

  // Payment details, only when known.
  const payment: Array<[string, string]> = [];
  if (invoice.paymentMethod) {
    payment.push(["Forma de pagamento", PAYMENT_METHOD_LABELS[invoice.paymentMethod] ?? text(invoice.paymentMethod)]);
  }
  if (invoice.transactionId) payment.push(["ID da transação", text(invoice.transactionId)]);
  if (payment.length > 0) {
    label(doc, "Pagamento", left, y);
    y += 16;
    for (const [name, value] of payment) {
      doc.fillColor(COLOR_MUTED).font("Helvetica").fontSize(10);
      doc.text(`${name}:`, left, y, { width: 120, lineBreak: false });
      doc.fillColor(COLOR_TEXT);
      y = wrapped(doc, value, left + 120, y, CONTENT_WIDTH - 120, 2) + 4;
    }
  }
}

function rule(doc: PDFKit.PDFDocument, y: number): void {
  doc
    .moveTo(MARGIN, y)
    .lineTo(MARGIN + CONTENT_WIDTH, y)
    .lineWidth(1)
    .strokeColor(COLOR_RULE)
    .stroke();
}

/** A small-caps section label. pdfkit never resets the character spacing it sets (Tc), so save/restore bounds it. */
function label(doc: PDFKit.PDFDocument, value: string, x: number, y: number): void {
  doc.save();
  doc.fillColor(COLOR_MUTED).font("Helvetica-Bold").fontSize(9);
  doc.text(value.toUpperCase(), x, y, { characterSpacing: 0.5, lineBreak: false });
  doc.restore();
}

/** Text that may wrap, up to maxLines lines (then cut with an ellipsis); returns the y below it. */
function wrapped(doc: PDFKit.PDFDocument, value: string, x: number, y: number, width: number, maxLines: number): number {
  const lineHeight = doc.currentLineHeight(true);
  const height = Math.min(doc.heightOfString(value, { width }), lineHeight * maxLines);
  doc.text(value, x, y, { width, height: height + 1, ellipsis: true });
  return y + height;
}
