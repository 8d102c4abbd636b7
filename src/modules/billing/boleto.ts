import { z } from "zod";
import { centsToAmount } from "../../platform/money.js";
import { DAY_MS } from "../../platform/dates.js";

/**
 * Boleto bancário (FEBRABAN layout) for the sandbox: a 44-digit barcode and its 47-digit "linha digitável",
 * with the mod 10 field check digits and the mod 11 general check digit. The free field carries the invoice id,
 * so a boleto is derived from its invoice and nothing else needs storing.
 */
export const boletoSchema = z
  .object({
    barcode: z.string().describe("Its barcode's 44 digits (FEBRABAN layout)"),
    digitableLine: z.string().describe("Its 47-digit 'linha digitável', grouped as banks print it, to type into a bank app"),
    dueDate: z.string().describe("The last day to pay it (YYYY-MM-DD): 3 days after subscribing"),
    amount: z.number().describe("What it pays, in currency units (49.9 is R$ 49,90)"),
  })
  .meta({ id: "Boleto", description: "A boleto bancário paying a BOLETO subscription's first period (the sandbox's bank code, 999, is no real bank's)" });
export type Boleto = z.output<typeof boletoSchema>;

/** The sandbox's bank code (no real bank uses 999). */
const SANDBOX_BANK = "999";
const CURRENCY_REAL = "9";
const FACTOR_BASE = Date.UTC(1997, 9, 7);

/** FEBRABAN due-date factor: days since 1997-10-07, restarting at 1000 after 9999 (from 2025-02-22). */
export function dueDateFactor(dueDate: Date): string {
  const days = Math.floor((Date.UTC(dueDate.getUTCFullYear(), dueDate.getUTCMonth(), dueDate.getUTCDate()) - FACTOR_BASE) / DAY_MS);
  const factor = days <= 9999 ? days : ((days - 10_000) % 9000) + 1000;
  return String(factor).padStart(4, "0");
}

/** Mod 10 check digit (weights 2, 1 from the right; digits of products summed). */
export function mod10(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) {
    let product = Number(digits[digits.length - 1 - i]) * (i % 2 === 0 ? 2 : 1);
    if (product > 9) product -= 9;
    sum += product;
  }
  return String((10 - (sum % 10)) % 10);
}

/** The barcode's general check digit: mod 11 with weights 2…9 from the right; 0, 10 and 11 become 1. */
export function mod11(digits: string): string {
  let sum = 0;
  for (let i = 0; i < digits.length; i++) sum += Number(digits[digits.length - 1 - i]) * (2 + (i % 8));
  const dv = 11 - (sum % 11);
  return dv === 0 || dv === 10 || dv === 11 ? "1" : String(dv);
}

export function buildBoleto(input: { invoiceId: number; amountCents: number; dueDate: Date }): Boleto {
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents < 0 || input.amountCents > 99_999_999_99) {
    throw new RangeError("boleto amount out of range");
  }
  const freeField = String(input.invoiceId).padStart(25, "0");
  const factor = dueDateFactor(input.dueDate);
  const value = String(input.amountCents).padStart(10, "0");
  const withoutDv = `${SANDBOX_BANK}${CURRENCY_REAL}${factor}${value}${freeField}`;
  const dv = mod11(withoutDv);
  const barcode = `${SANDBOX_BANK}${CURRENCY_REAL}${dv}${factor}${value}${freeField}`;

  const field1 = `${SANDBOX_BANK}${CURRENCY_REAL}${freeField.slice(0, 5)}`;
  const field2 = freeField.slice(5, 15);
  const field3 = freeField.slice(15, 25);
  const f1 = field1 + mod10(field1);
  const f2 = field2 + mod10(field2);
  const f3 = field3 + mod10(field3);
  const digitableLine = `${f1.slice(0, 5)}.${f1.slice(5)} ${f2.slice(0, 5)}.${f2.slice(5)} ${f3.slice(0, 5)}.${f3.slice(5)} ${dv} ${factor}${value}`;
  return { barcode, digitableLine, dueDate: input.dueDate.toISOString().slice(0, 10), amount: centsToAmount(input.amountCents) };
}
