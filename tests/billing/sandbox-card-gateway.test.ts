import { inspect } from "node:util";
import { describe, expect, it } from "vitest";
import type { CardChargeInput, CardDetails } from "../../src/modules/billing/gateways/card/card-gateway.js";
import { SandboxCardGateway } from "../../src/modules/billing/gateways/card/sandbox-card-gateway.js";

const NOW = new Date("2025-06-15T15:00:00.000Z");

function card(number: string, overrides: Partial<CardDetails> = {}): CardDetails {
  return { number, holderName: "Ana Souza", expMonth: "12", expYear: "2030", cvv: "123", ...overrides };
}

function input(overrides: Partial<CardChargeInput> = {}): CardChargeInput {
  return {
    amountCents: 4990,
    currency: "BRL",
    customerEmail: "ana@example.com",
    customerName: "Ana Souza",
    description: "Plano Mensal",
    metadata: { subscriptionId: "42" },
    ...overrides,
  };
}

const gateway = new SandboxCardGateway(() => NOW);

describe("SandboxCardGateway", () => {
  it("is named sandbox", () => {
    expect(gateway.name).toBe("sandbox");
  });

  it("answers a key it charged before with that charge, finds it by key, and knows no other", async () => {
    const first = await gateway.charge(input({ card: card("4242424242424242"), idempotencyKey: "sandbox-key-1" }));
    expect(await gateway.charge(input({ card: card("4242424242424242"), idempotencyKey: "sandbox-key-1" }))).toEqual(first);
    expect(await gateway.findCharge("sandbox-key-1")).toEqual(first);
    expect(await gateway.findCharge("sandbox-key-unknown")).toEqual({ status: "none" });
    expect(await gateway.refund({ transactionId: first.transactionId!, amountCents: 4990, idempotencyKey: "r", metadata: {} })).toEqual({
      refundId: expect.stringMatching(/^re_sandbox_/),
    });
  });

  it("accepts 4242424242424242 with sandbox ids and the last four digits", async () => {
    const result = await gateway.charge(input({ card: card("4242424242424242") }));
    expect(result).toEqual({
      status: "succeeded",
      transactionId: expect.stringMatching(/^ch_sandbox_[0-9a-f]+$/),
      lastFour: "4242",
      customerId: expect.stringMatching(/^cus_sandbox_[0-9a-f]+$/),
      paymentMethodId: expect.stringMatching(/^pm_sandbox_4242_[0-9a-f]+$/),
    });
  });

  it("accepts a card typed with spaces", async () => {
    const result = await gateway.charge(input({ card: card("4242 4242 4242 4242") }));
    expect(result).toMatchObject({ status: "succeeded", lastFour: "4242" });
  });

  it.each([
    ["4000000000000002", "card_declined", "0002"],
    ["4000000000009995", "insufficient_funds", "9995"],
  ])("refuses %s with %s", async (number, failureCode, lastFour) => {
    const result = await gateway.charge(input({ card: card(number) }));
    expect(result).toEqual({
      status: "failed",
      transactionId: expect.stringMatching(/^ch_sandbox_[0-9a-f]+$/),
      lastFour,
      failureCode,
    });
  });

  it("accepts any other Luhn-valid number", async () => {
    const result = await gateway.charge(input({ card: card("5555555555554444") }));
    expect(result).toMatchObject({ status: "succeeded", lastFour: "4444" });
  });

  it.each([
    ["a Luhn-invalid number", card("4242424242424241"), "incorrect_number"],
    ["a past expiry", card("4242424242424242", { expMonth: "05", expYear: "2025" }), "expired_card"],
    ["a CVV of 2 digits", card("4242424242424242", { cvv: "12" }), "invalid_cvc"],
    ["a bad month", card("4242424242424242", { expMonth: "13" }), "invalid_expiry_month"],
  ])("refuses %s like a gateway would (the service checks first)", async (_what, details, failureCode) => {
    const result = await gateway.charge(input({ card: details }));
    expect(result).toMatchObject({ status: "failed", failureCode });
  });

  it("judges the expiry by its clock", async () => {
    const later = new SandboxCardGateway(() => new Date("2031-02-01T00:00:00.000Z"));
    expect(await later.charge(input({ card: card("4242424242424242") }))).toMatchObject({
      status: "failed",
      failureCode: "expired_card",
    });
  });

  it.each([
    ["pm_card_visa", "succeeded", "4242", undefined],
    ["pm_card_chargeDeclined", "failed", "0002", "card_declined"],
    ["pm_card_chargeDeclinedInsufficientFunds", "failed", "9995", "insufficient_funds"],
  ])("answers the Stripe test payment method %s", async (paymentMethodId, status, lastFour, failureCode) => {
    const result = await gateway.charge(input({ paymentMethodId }));
    expect(result).toMatchObject({ status, lastFour, ...(failureCode ? { failureCode } : {}) });
  });

  it("refuses a payment method it never issued", async () => {
    expect(await gateway.charge(input({ paymentMethodId: "pm_1Nunknown" }))).toEqual({
      status: "failed",
      transactionId: expect.stringMatching(/^ch_sandbox_/),
      lastFour: null,
      failureCode: "resource_missing",
    });
  });

  it("charges again with the customer and payment method of an earlier success (renewals)", async () => {
    const first = await gateway.charge(input({ card: card("5555555555554444") }));
    if (first.status !== "succeeded") throw new Error("expected success");
    const renewal = await gateway.charge(input({ customerId: first.customerId!, paymentMethodId: first.paymentMethodId!, metadata: { subscriptionId: "42" } }));
    expect(renewal).toMatchObject({
      status: "succeeded",
      customerId: first.customerId,
      paymentMethodId: first.paymentMethodId,
      lastFour: "4444",
    });
    if (renewal.status === "succeeded") expect(renewal.transactionId).not.toBe(first.transactionId);
  });

  it("creates a subscription with a sandbox subscription id", async () => {
    const result = await gateway.createSubscription({
      ...input({ card: card("4242424242424242") }),
      interval: "QUARTERLY",
      planName: "Trimestral",
    });
    expect(result).toMatchObject({
      status: "succeeded",
      gatewaySubscriptionId: expect.stringMatching(/^sub_sandbox_[0-9a-f]+$/),
      transactionId: expect.stringMatching(/^ch_sandbox_/),
      lastFour: "4242",
    });
  });

  it("creates no subscription for a refused card", async () => {
    const result = await gateway.createSubscription({
      ...input({ paymentMethodId: "pm_card_chargeDeclined" }),
      interval: "MONTHLY",
      planName: "Mensal",
    });
    expect(result).toEqual({ status: "failed", transactionId: expect.any(String), lastFour: "0002", failureCode: "card_declined" });
    expect(result).not.toHaveProperty("gatewaySubscriptionId");
  });

  it("cancels any subscription id without complaint", async () => {
    await expect(gateway.cancelSubscription("sub_sandbox_unknown")).resolves.toBeUndefined();
  });

  it("gives every call fresh ids", async () => {
    const ids = new Set<string>();
    for (let i = 0; i < 20; i += 1) {
      const result = await gateway.charge(input({ card: card("4242424242424242") }));
      if (result.status === "succeeded") ids.add(result.transactionId).add(result.customerId!);
    }
    expect(ids.size).toBe(40);
  });

  it("keeps neither the card number nor the CVV", async () => {
    const number = "4000056655665556";
    const results = [
      await gateway.charge(input({ card: card(number, { cvv: "987" }) })),
      await gateway.charge(input({ card: card("4000000000000002", { cvv: "987" }) })),
      await gateway.createSubscription({ ...input({ card: card(number, { cvv: "987" }) }), interval: "ANNUAL", planName: "Anual" }),
    ];
    const seen = inspect({ gateway, results }, { showHidden: true, depth: 10 });
    expect(seen).not.toContain(number);
    expect(seen).not.toContain("4000000000000002");
    expect(seen).not.toMatch(/\b987\b/); // hex ids may hold "987" inside a word, never alone
  });

  it("needs a card or a payment method id", async () => {
    await expect(gateway.charge(input())).rejects.toThrow(/card or paymentMethodId/);
  });
});

describe("SandboxCardGateway.saveCard", () => {
  const save = (number: string, customerId?: string) =>
    gateway.saveCard({ card: card(number), customerId, customerEmail: "ana@example.com", customerName: "Ana", metadata: {} });

  it("issues a payment method a later charge accepts, keeping only the last four digits", async () => {
    const saved = await save("5555555555554444", "cus_sandbox_1");
    expect(saved).toEqual({
      status: "succeeded",
      customerId: "cus_sandbox_1",
      paymentMethodId: expect.stringMatching(/^pm_sandbox_4444_[0-9a-f]+$/),
      lastFour: "4444",
    });
    if (saved.status !== "succeeded") throw new Error("expected success");
    expect(inspect(saved)).not.toContain("5555555555554444");
    const charged = await gateway.charge({ ...input(), paymentMethodId: saved.paymentMethodId });
    expect(charged).toMatchObject({ status: "succeeded", lastFour: "4444" });
  });

  it.each([
    ["4000000000000002", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
  ])("refuses test card %s with %s", async (number, failureCode) => {
    expect(await save(number)).toEqual({ status: "failed", lastFour: number.slice(-4), failureCode });
  });
});
