import type { CardDetails } from "./card-gateway.js";

/**
 * Card checks of contract §8 that give a 400 before any gateway is called: Luhn, digits only, 12–19 digits,
 * expiry not past, CVV of 3–4 digits, a holder name. Messages name the problem, never the card data.
 */
export type CardField = "cardNumber" | "cardHolderName" | "cardExpirationMonth" | "cardExpirationYear" | "cardCvv";

/** The message of a past expiry (its field is the year when the year is past, else the month). */
export const CARD_EXPIRED_MESSAGE = "Cartão vencido";

export interface CardProblem {
  field: CardField;
  message: string;
}

/** Card number as typed, without the spaces people put between groups. */
export function normalizeCardNumber(number: string): string {
  return number.replace(/\s+/g, "");
}

/** Luhn (mod 10) check of a digits-only number; spaces are ignored, anything else makes it invalid. */
export function luhnValid(number: string): boolean {
  const digits = normalizeCardNumber(number);
  if (!/^\d{2,}$/.test(digits)) return false;
  let sum = 0;
  for (let i = 0; i < digits.length; i += 1) {
    let digit = digits.charCodeAt(digits.length - 1 - i) - 48;
    if (i % 2 === 1) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return sum % 10 === 0;
}

/**
 * A card is good through the last day of its expiry month. That day ends last at UTC−12, so the card counts as
 * expired from 12:00 UTC of the first day of the next month: no time zone sees a card refused on its last day.
 */
export function cardExpired(expMonth: number, expYear: number, now: Date): boolean {
  const endOfLastDay = Date.UTC(expYear, expMonth, 1, 12); // month is 1-based here, so this is the next month
  return now.getTime() >= endOfLastDay;
}

/** Every problem of one card, in field order; an empty list means the card may go to the gateway. */
export function cardProblems(card: Partial<CardDetails>, now: Date): CardProblem[] {
  const problems: CardProblem[] = [];
  const number = normalizeCardNumber(card.number ?? "");
  if (number === "") {
    problems.push({ field: "cardNumber", message: "Número do cartão é obrigatório" });
  } else if (!/^\d+$/.test(number)) {
    problems.push({ field: "cardNumber", message: "Número do cartão deve conter apenas dígitos" });
  } else if (number.length < 12 || number.length > 19) {
    problems.push({ field: "cardNumber", message: "Número do cartão deve ter entre 12 e 19 dígitos" });
  } else if (!luhnValid(number)) {
    problems.push({ field: "cardNumber", message: "Número do cartão inválido" });
  }

  if ((card.holderName ?? "").trim() === "") {
    problems.push({ field: "cardHolderName", message: "Nome do titular do cartão é obrigatório" });
  }

  const monthText = card.expMonth ?? "";
  const yearText = card.expYear ?? "";
  const month = /^\d{2}$/.test(monthText) ? Number(monthText) : NaN;
  const year = /^\d{4}$/.test(yearText) ? Number(yearText) : NaN;
  const monthValid = month >= 1 && month <= 12;
  if (monthText === "") {
    problems.push({ field: "cardExpirationMonth", message: "Mês de validade é obrigatório" });
  } else if (!monthValid) {
    problems.push({ field: "cardExpirationMonth", message: "Mês de validade inválido (use MM, de 01 a 12)" });
  }
  if (yearText === "") {
    problems.push({ field: "cardExpirationYear", message: "Ano de validade é obrigatório" });
  } else if (Number.isNaN(year)) {
    problems.push({ field: "cardExpirationYear", message: "Ano de validade inválido (use AAAA)" });
  } else if (monthValid && cardExpired(month, year, now)) {
    // A past year is the year's fault; this year's past month is the month's.
    const field = year < now.getUTCFullYear() ? "cardExpirationYear" : "cardExpirationMonth";
    problems.push({ field, message: CARD_EXPIRED_MESSAGE });
  }

  const cvv = card.cvv ?? "";
  if (cvv === "") {
    problems.push({ field: "cardCvv", message: "CVV é obrigatório" });
  } else if (!/^\d{3,4}$/.test(cvv)) {
    problems.push({ field: "cardCvv", message: "CVV deve ter 3 ou 4 dígitos" });
  }
  return problems;
}
