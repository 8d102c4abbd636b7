import { describe, expect, it } from "vitest";
import type { CardDetails } from "../../src/modules/billing/gateways/card/card-gateway.js";
import { cardProblems, luhnValid } from "../../src/modules/billing/gateways/card/card-validation.js";

const NOW = new Date("2025-06-15T15:00:00.000Z");

function card(overrides: Partial<CardDetails> = {}): CardDetails {
  return { number: "4242424242424242", holderName: "Ana Souza", expMonth: "12", expYear: "2030", cvv: "123", ...overrides };
}

function fields(overrides: Partial<CardDetails>, now = NOW): string[] {
  return cardProblems(card(overrides), now).map((p) => p.field);
}

describe("luhnValid", () => {
  it.each(["4242424242424242", "4000000000000002", "4000000000009995", "5555555555554444", "79927398713", "4242 4242 4242 4242"])("accepts %s", (number) =>
    expect(luhnValid(number)).toBe(true),
  );

  it.each(["4242424242424241", "79927398710", "4242-4242-4242-4242", "4242abcd42424242", "", "   ", "0"])("refuses %j", (number) =>
    expect(luhnValid(number)).toBe(false),
  );
});

describe("cardProblems", () => {
  it("finds nothing wrong with a good card", () => {
    expect(cardProblems(card(), NOW)).toEqual([]);
  });

  it("accepts the contract's test cards, spaces between groups and the 12- and 19-digit extremes", () => {
    for (const number of ["4000000000000002", "4000000000009995", "4242 4242 4242 4242", "424242424242", "4242424242424242428"]) {
      expect(cardProblems(card({ number }), NOW), number).toEqual([]);
    }
  });

  it("refuses a Luhn-invalid number", () => {
    expect(cardProblems(card({ number: "4242424242424241" }), NOW)).toEqual([{ field: "cardNumber", message: "Número do cartão inválido" }]);
  });

  it("refuses a number with anything but digits and spaces", () => {
    expect(cardProblems(card({ number: "4242-4242-4242-4242" }), NOW)).toEqual([
      { field: "cardNumber", message: "Número do cartão deve conter apenas dígitos" },
    ]);
  });

  it.each(["42424242428", "42424242424242424242"])("refuses %s for its length (12 to 19 digits)", (number) => {
    expect(cardProblems(card({ number }), NOW)).toEqual([{ field: "cardNumber", message: "Número do cartão deve ter entre 12 e 19 dígitos" }]);
  });

  it("refuses a blank holder name", () => {
    expect(cardProblems(card({ holderName: "   " }), NOW)).toEqual([{ field: "cardHolderName", message: "Nome do titular do cartão é obrigatório" }]);
  });

  it.each(["00", "13", "1", "ab", "012"])("refuses month %j (MM, 01 to 12)", (expMonth) => {
    expect(fields({ expMonth })).toEqual(["cardExpirationMonth"]);
  });

  it.each(["30", "20301", "abcd"])("refuses year %j (YYYY)", (expYear) => {
    expect(fields({ expYear })).toEqual(["cardExpirationYear"]);
  });

  it("refuses a past month of this year on the month, a past year on the year", () => {
    expect(cardProblems(card({ expMonth: "05", expYear: "2025" }), NOW)).toEqual([{ field: "cardExpirationMonth", message: "Cartão vencido" }]);
    expect(cardProblems(card({ expMonth: "12", expYear: "2024" }), NOW)).toEqual([{ field: "cardExpirationYear", message: "Cartão vencido" }]);
  });

  it("accepts a card through the last day of its expiry month", () => {
    expect(fields({ expMonth: "06", expYear: "2025" })).toEqual([]);
    expect(fields({ expMonth: "06", expYear: "2025" }, new Date("2025-06-30T23:59:59.000Z"))).toEqual([]);
    // Still June 30th at UTC−12:
    expect(fields({ expMonth: "06", expYear: "2025" }, new Date("2025-07-01T11:59:59.000Z"))).toEqual([]);
    expect(fields({ expMonth: "06", expYear: "2025" }, new Date("2025-07-01T12:00:00.000Z"))).toEqual(["cardExpirationMonth"]);
  });

  it("handles December expiries across the year boundary", () => {
    expect(fields({ expMonth: "12", expYear: "2025" }, new Date("2025-12-31T20:00:00.000Z"))).toEqual([]);
    expect(fields({ expMonth: "12", expYear: "2025" }, new Date("2026-01-02T00:00:00.000Z"))).toEqual(["cardExpirationYear"]);
  });

  it.each(["12", "12345", "12a", " 123", ""])("refuses CVV %j (3 or 4 digits)", (cvv) => {
    expect(fields({ cvv })).toEqual(["cardCvv"]);
  });

  it.each(["123", "1234"])("accepts CVV %s", (cvv) => {
    expect(fields({ cvv })).toEqual([]);
  });

  it("reports every problem of one card together, in field order", () => {
    const problems = cardProblems({ number: "1234", holderName: "", expMonth: "13", expYear: "25", cvv: "1" }, NOW);
    expect(problems.map((p) => p.field)).toEqual(["cardNumber", "cardHolderName", "cardExpirationMonth", "cardExpirationYear", "cardCvv"]);
  });

  it("reports missing fields as required", () => {
    expect(cardProblems({}, NOW)).toEqual([
      { field: "cardNumber", message: "Número do cartão é obrigatório" },
      { field: "cardHolderName", message: "Nome do titular do cartão é obrigatório" },
      { field: "cardExpirationMonth", message: "Mês de validade é obrigatório" },
      { field: "cardExpirationYear", message: "Ano de validade é obrigatório" },
      { field: "cardCvv", message: "CVV é obrigatório" },
    ]);
  });

  it("never repeats the card number or CVV in a message", () => {
    const problems = cardProblems(card({ number: "4242424242424241", cvv: "98765" }), NOW);
    const text = JSON.stringify(problems);
    expect(text).not.toContain("4242424242424241");
    expect(text).not.toContain("98765");
  });
});
