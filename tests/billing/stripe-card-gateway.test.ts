import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { CardGatewayError, type CardChargeInput, type CardDetails, type CardSubscriptionInput } from "../../src/modules/billing/gateways/card/card-gateway.js";
import { StripeCardGateway, stripeAddressOf } from "../../src/modules/billing/gateways/card/stripe-card-gateway.js";
import { parseStripeForm, startFakeStripe, type FakeStripe } from "../helpers/fake-stripe.js";

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

function subscriptionInput(overrides: Partial<CardSubscriptionInput> = {}): CardSubscriptionInput {
  return { ...input(), interval: "MONTHLY", planName: "Mensal", ...overrides };
}

let fake: FakeStripe;
let gateway: StripeCardGateway;

beforeAll(async () => {
  fake = await startFakeStripe();
  gateway = new StripeCardGateway(fake.secretKey, fake.url, { maxNetworkRetries: 0 });
});

afterEach(() => {
  fake.reset();
  fake.declineOn = "confirm";
});

afterAll(async () => {
  await fake.stop();
});

describe("StripeCardGateway.charge", () => {
  it("is named stripe", () => {
    expect(gateway.name).toBe("stripe");
  });

  it("creates a customer and a card payment method, attaches it and confirms a payment intent", async () => {
    const result = await gateway.charge(input({ card: card("4242 4242 4242 4242") }));

    const [intent] = [...fake.paymentIntents.values()];
    const [customer] = [...fake.customers.values()];
    expect(result).toEqual({
      status: "succeeded",
      transactionId: intent.id,
      lastFour: "4242",
      customerId: customer.id,
      paymentMethodId: intent.payment_method,
    });
    expect(customer).toMatchObject({ email: "ana@example.com", name: "Ana Souza", metadata: { subscriptionId: "42" } });
    expect(fake.paymentMethods.get(String(intent.payment_method))!.object.customer).toBe(customer.id);

    expect(fake.requests.map((r) => `${r.method} ${r.path.replace(/(pm|cus)_[0-9a-f]+/, ":id")}`)).toEqual([
      "POST /v1/customers",
      "POST /v1/payment_methods",
      "POST /v1/payment_methods/:id/attach",
      "POST /v1/payment_intents",
    ]);
    expect(fake.requestsTo("POST", "/v1/payment_methods")[0].params).toMatchObject({
      type: "card",
      card: { number: "4242424242424242", exp_month: "12", exp_year: "2030", cvc: "123" },
      billing_details: { name: "Ana Souza" },
    });
    expect(fake.requestsTo("POST", "/v1/payment_intents")[0].params).toEqual({
      amount: "4990",
      currency: "brl",
      customer: customer.id,
      payment_method: intent.payment_method,
      confirm: "true",
      automatic_payment_methods: { enabled: "true", allow_redirects: "never" },
      metadata: { subscriptionId: "42" },
      description: "Plano Mensal",
    });
  });

  it("sends the key as a bearer token", async () => {
    await gateway.charge(input({ card: card("4242424242424242") }));
    for (const request of fake.requests) expect(request.headers.authorization).toBe(`Bearer ${fake.secretKey}`);
  });

  it("reuses a given customer instead of creating one", async () => {
    const first = await gateway.charge(input({ card: card("4242424242424242") }));
    if (first.status !== "succeeded") throw new Error("expected success");
    fake.requests.length = 0;

    const second = await gateway.charge(input({ card: card("5555555555554444"), customerId: first.customerId! }));
    expect(second).toMatchObject({ status: "succeeded", customerId: first.customerId, lastFour: "4444" });
    expect(fake.requestsTo("POST", "/v1/customers")).toHaveLength(0);
  });

  it.each([
    ["4000000000000002", "card_declined", "0002"],
    ["4000000000009995", "insufficient_funds", "9995"],
  ])("maps the decline of %s to %s", async (number, failureCode, lastFour) => {
    const result = await gateway.charge(input({ card: card(number) }));
    const [intent] = [...fake.paymentIntents.values()];
    expect(result).toEqual({ status: "failed", transactionId: intent.id, lastFour, failureCode });
    expect(intent.status).toBe("requires_payment_method");
  });

  it.each([
    ["4000000000000002", "card_declined"],
    ["4000000000009995", "insufficient_funds"],
  ])("maps the decline of %s to %s also when the card is refused on attach", async (number, failureCode) => {
    fake.declineOn = "attach";
    const result = await gateway.charge(input({ card: card(number) }));
    expect(result).toEqual({ status: "failed", transactionId: null, lastFour: number.slice(-4), failureCode });
    expect(fake.requestsTo("POST", "/v1/payment_intents")).toHaveLength(0);
  });

  it("treats a payment intent that needs authentication as refused", async () => {
    const result = await gateway.charge(input({ card: card("4000002760003184") }));
    const [intent] = [...fake.paymentIntents.values()];
    expect(result).toEqual({ status: "failed", transactionId: intent.id, lastFour: "3184", failureCode: "authentication_required" });
  });

  it("refuses a number the gateway calls incorrect without throwing", async () => {
    const result = await gateway.charge(input({ card: card("4242424242424241") }));
    expect(result).toEqual({ status: "failed", transactionId: null, lastFour: "4241", failureCode: "incorrect_number" });
  });

  describe("with a payment method id", () => {
    it("attaches Stripe's test token and charges the attached copy", async () => {
      const result = await gateway.charge(input({ paymentMethodId: "pm_card_visa" }));
      const [intent] = [...fake.paymentIntents.values()];
      expect(result).toMatchObject({ status: "succeeded", transactionId: intent.id, lastFour: "4242" });
      if (result.status !== "succeeded") return;
      expect(result.paymentMethodId).toMatch(/^pm_[0-9a-f]+$/);
      expect(result.paymentMethodId).toBe(intent.payment_method);
      expect(fake.requestsTo("POST", "/v1/payment_methods")).toHaveLength(0);
      expect(fake.requestsTo("POST", "/v1/payment_methods/pm_card_visa/attach")).toHaveLength(1);
    });

    it.each([
      ["pm_card_chargeDeclined", "card_declined", "0002"],
      ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds", "9995"],
    ])("maps the decline of %s to %s", async (paymentMethodId, failureCode, lastFour) => {
      const result = await gateway.charge(input({ paymentMethodId }));
      expect(result).toMatchObject({ status: "failed", failureCode, lastFour, transactionId: expect.stringMatching(/^pi_/) });
    });

    it("refuses an id the gateway does not know", async () => {
      const result = await gateway.charge(input({ paymentMethodId: "pm_does_not_exist" }));
      expect(result).toEqual({ status: "failed", transactionId: null, lastFour: null, failureCode: "resource_missing" });
    });

    it("raises an error, not a refusal, when the saved customer is gone at the gateway", async () => {
      const error = await gateway.charge(input({ customerId: "cus_gone", paymentMethodId: "pm_card_visa" })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(CardGatewayError);
      expect(error).toMatchObject({ statusCode: 404, code: "resource_missing" });
    });

    it("charges a renewal with the saved customer and payment method, without attaching again", async () => {
      const first = await gateway.charge(input({ card: card("4242424242424242") }));
      if (first.status !== "succeeded") throw new Error("expected success");
      fake.requests.length = 0;

      const renewal = await gateway.charge(input({ customerId: first.customerId!, paymentMethodId: first.paymentMethodId!, description: "Renovação" }));
      expect(renewal).toMatchObject({
        status: "succeeded",
        customerId: first.customerId,
        paymentMethodId: first.paymentMethodId,
        lastFour: "4242",
      });
      expect(fake.requests.map((r) => `${r.method} ${r.path}`)).toEqual([`GET /v1/payment_methods/${first.paymentMethodId}`, "POST /v1/payment_intents"]);
    });
  });
});

describe("StripeCardGateway.createSubscription", () => {
  it.each([
    ["MONTHLY", "month", "1"],
    ["QUARTERLY", "month", "3"],
    ["SEMIANNUAL", "month", "6"],
    ["ANNUAL", "year", "1"],
  ] as const)("creates a %s subscription billed every %s × %s", async (interval, unit, count) => {
    const result = await gateway.createSubscription(subscriptionInput({ card: card("4242424242424242"), interval, planName: "Plano X", amountCents: 12990 }));

    const [subscription] = [...fake.subscriptions.values()];
    const [customer] = [...fake.customers.values()];
    const [product] = [...fake.products.values()];
    const [intent] = [...fake.paymentIntents.values()];
    expect(result).toEqual({
      status: "succeeded",
      gatewaySubscriptionId: subscription.id,
      transactionId: intent.id,
      lastFour: "4242",
      customerId: customer.id,
      paymentMethodId: intent.payment_method,
    });
    expect(product).toMatchObject({ name: "Plano X" });
    expect(customer.invoice_settings).toMatchObject({ default_payment_method: intent.payment_method });
    expect(fake.requestsTo("POST", "/v1/subscriptions")[0].params).toEqual({
      customer: customer.id,
      items: [
        {
          price_data: {
            currency: "brl",
            product: product.id,
            unit_amount: "12990",
            recurring: { interval: unit, interval_count: count },
          },
        },
      ],
      description: "Plano Mensal",
      metadata: { subscriptionId: "42" },
      payment_behavior: "error_if_incomplete",
      expand: ["latest_invoice.payments"],
    });
    expect(subscription.status).toBe("active");
  });

  it("subscribes with a payment method id", async () => {
    const result = await gateway.createSubscription(subscriptionInput({ paymentMethodId: "pm_card_visa" }));
    expect(result).toMatchObject({ status: "succeeded", lastFour: "4242", gatewaySubscriptionId: expect.stringMatching(/^sub_/) });
  });

  it.each([
    ["pm_card_chargeDeclined", "card_declined"],
    ["pm_card_chargeDeclinedInsufficientFunds", "insufficient_funds"],
  ])("creates no subscription when %s is refused (%s)", async (paymentMethodId, failureCode) => {
    const result = await gateway.createSubscription(subscriptionInput({ paymentMethodId }));
    expect(result).toMatchObject({ status: "failed", failureCode, transactionId: expect.stringMatching(/^pi_/) });
    expect(result).not.toHaveProperty("gatewaySubscriptionId");
    expect(fake.subscriptions.size).toBe(0);
  });

  it("refuses a card that needs authentication", async () => {
    const result = await gateway.createSubscription(subscriptionInput({ card: card("4000002760003184") }));
    expect(result).toMatchObject({ status: "failed", failureCode: "authentication_required" });
    expect(fake.subscriptions.size).toBe(0);
  });
});

describe("StripeCardGateway.saveCard", () => {
  const save = (number: string, customerId?: string) =>
    gateway.saveCard({ card: card(number), customerId, customerEmail: "ana@example.com", customerName: "Ana Souza", metadata: { subscriptionId: "42" } });

  it("attaches the card to a new customer as its default payment method, charging nothing", async () => {
    const result = await save("5555555555554444");
    const [customer] = [...fake.customers.values()];
    expect(result).toEqual({ status: "succeeded", customerId: customer.id, paymentMethodId: expect.stringMatching(/^pm_/), lastFour: "4444" });
    expect(customer.invoice_settings).toMatchObject({ default_payment_method: result.status === "succeeded" ? result.paymentMethodId : null });
    expect(fake.paymentIntents.size).toBe(0);
  });

  it("reuses the customer it is given", async () => {
    const first = await save("4242424242424242");
    if (first.status !== "succeeded") throw new Error("expected success");
    const second = await save("5555555555554444", first.customerId);
    expect(second).toMatchObject({ status: "succeeded", customerId: first.customerId, lastFour: "4444" });
    expect(fake.customers.size).toBe(1);
  });

  it("reports a card refused on attach as a failure with its code", async () => {
    fake.declineOn = "attach";
    const result = await save("4000000000000002");
    expect(result).toMatchObject({ status: "failed", failureCode: "card_declined" });
  });
});

describe("StripeCardGateway.cancelSubscription", () => {
  it("cancels the subscription at the gateway", async () => {
    const created = await gateway.createSubscription(subscriptionInput({ paymentMethodId: "pm_card_visa" }));
    if (created.status !== "succeeded") throw new Error("expected success");
    await gateway.cancelSubscription(created.gatewaySubscriptionId);
    expect(fake.subscriptions.get(created.gatewaySubscriptionId)!.status).toBe("canceled");
    expect(fake.requestsTo("DELETE", `/v1/subscriptions/${created.gatewaySubscriptionId}`)).toHaveLength(1);
  });

  it("does nothing for a subscription the gateway does not know", async () => {
    await expect(gateway.cancelSubscription("sub_unknown")).resolves.toBeUndefined();
    expect(fake.requestsTo("DELETE", "/v1/subscriptions/sub_unknown")).toHaveLength(1);
  });
});

describe("StripeCardGateway.findCharge", () => {
  it("finds a charge by the paymentKey of its metadata, with what the charge answered", async () => {
    const key = "5f0c-find-charge";
    const charged = await gateway.charge(input({ card: card("4242424242424242"), idempotencyKey: key, metadata: { subscriptionId: "42", paymentKey: key } }));
    expect(await gateway.findCharge(key)).toEqual(charged);
    expect(fake.requestsTo("GET", "/v1/payment_intents/search")[0].params).toEqual({ query: `metadata['paymentKey']:'${key}'` });
  });

  it("finds a gateway subscription's first charge", async () => {
    const key = "5f0c-find-subscription";
    const subscribed = await gateway.createSubscription(
      subscriptionInput({ paymentMethodId: "pm_card_visa", idempotencyKey: key, metadata: { subscriptionId: "42", paymentKey: key } }),
    );
    expect(await gateway.findCharge(key)).toEqual(subscribed);
  });

  it("reports a declined charge as failed, and no charge as none", async () => {
    const key = "5f0c-find-declined";
    const declined = await gateway.charge(input({ card: card("4000000000000002"), idempotencyKey: key, metadata: { subscriptionId: "42", paymentKey: key } }));
    expect(declined).toMatchObject({ status: "failed", failureCode: "card_declined" });
    expect(await gateway.findCharge(key)).toMatchObject({
      status: "failed",
      transactionId: declined.transactionId,
      failureCode: "card_declined",
      lastFour: "0002",
    });
    expect(await gateway.findCharge("5f0c-never-charged")).toEqual({ status: "none" });
  });
});

describe("StripeCardGateway.refund", () => {
  it("refunds a payment intent once per idempotency key", async () => {
    const paid = await gateway.charge(input({ paymentMethodId: "pm_card_visa" }));
    if (paid.status !== "succeeded") throw new Error("expected success");
    const refund = { transactionId: paid.transactionId, amountCents: 4990, idempotencyKey: `refund:${paid.transactionId}`, metadata: { paymentId: "7" } };
    const first = await gateway.refund(refund);
    expect(await gateway.refund(refund)).toEqual(first);
    expect([...fake.refunds.values()]).toMatchObject([{ id: first.refundId, payment_intent: paid.transactionId, amount: 4990, metadata: { paymentId: "7" } }]);
    expect(fake.requestsTo("POST", "/v1/refunds").map((r) => r.headers["idempotency-key"])).toEqual([refund.idempotencyKey, refund.idempotencyKey]);
  });

  it("refunds the payment intent that paid a gateway subscription's invoice", async () => {
    const subscribed = await gateway.createSubscription(subscriptionInput({ paymentMethodId: "pm_card_visa" }));
    if (subscribed.status !== "succeeded") throw new Error("expected success");
    const [invoiceId] = fake.invoices.keys();
    await gateway.refund({ transactionId: invoiceId, amountCents: 4990, idempotencyKey: `refund:${invoiceId}`, metadata: {} });
    expect([...fake.refunds.values()]).toMatchObject([{ payment_intent: subscribed.transactionId, amount: 4990 }]);
  });

  it("raises an error when the gateway refuses (nothing left to refund)", async () => {
    const paid = await gateway.charge(input({ paymentMethodId: "pm_card_visa" }));
    if (paid.status !== "succeeded") throw new Error("expected success");
    await gateway.refund({ transactionId: paid.transactionId, amountCents: 4990, idempotencyKey: "k1", metadata: {} });
    const error = await gateway.refund({ transactionId: paid.transactionId, amountCents: 4990, idempotencyKey: "k2", metadata: {} }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardGatewayError);
    expect(error).toMatchObject({ statusCode: 400, code: "amount_too_large", message: expect.stringContaining("devolver o pagamento") });
  });
});

describe("StripeCardGateway errors", () => {
  it("raises an error without the key when the key is refused", async () => {
    const wrongKey = "sk_test_this_key_is_wrong_0123456789";
    const wrong = new StripeCardGateway(wrongKey, fake.url, { maxNetworkRetries: 0 });
    const error = await wrong.charge(input({ card: card("4242424242424242") })).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(CardGatewayError);
    expect(error).toMatchObject({ statusCode: 401 });
    // The fake echoes the refused key in its message (Stripe masks it); none of it reaches our error.
    expect(fake.requests[0].headers.authorization).toBe(`Bearer ${wrongKey}`);
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain("this_key_is_wrong");
    expect(JSON.stringify(error)).not.toContain("this_key_is_wrong");
    await expect(wrong.cancelSubscription("sub_x")).rejects.toThrow(CardGatewayError);
  });

  it("raises gateway outages (5xx) as errors, with no card data in them", async () => {
    fake.failNext(500);
    const error = await gateway.charge(input({ card: card("4242424242424242", { cvv: "8642" }) })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardGatewayError);
    expect(error).toMatchObject({ statusCode: 500, message: expect.stringContaining("criar o cliente") });
    const seen = inspect(error, { showHidden: true, depth: 10 });
    expect(seen).not.toContain("4242424242424242");
    expect(seen).not.toContain("8642");

    fake.failNext(503);
    await expect(gateway.createSubscription(subscriptionInput({ paymentMethodId: "pm_card_visa" }))).rejects.toMatchObject({
      statusCode: 503,
    });
  });

  it("raises an outage in the middle of a charge without the card number", async () => {
    const first = await gateway.charge(input({ card: card("4242424242424242") }));
    if (first.status !== "succeeded") throw new Error("expected success");
    fake.failNext(500, 1);
    // The customer is reused, so the first call after it is the payment method's.
    const error = await gateway.charge(input({ card: card("5555555555554444"), customerId: first.customerId! })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardGatewayError);
    expect((error as Error).message).toContain("preparar a forma de pagamento");
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain("5555555555554444");
  });

  it("raises network failures as errors", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise<void>((resolve) => closed.close(() => resolve()));

    const offline = new StripeCardGateway(fake.secretKey, `http://127.0.0.1:${port}`, { maxNetworkRetries: 0 });
    const error = await offline.charge(input({ card: card("4242424242424242") })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CardGatewayError);
    expect(error).toMatchObject({ statusCode: null });
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain("4242424242424242");
    expect(inspect(error, { showHidden: true, depth: 10 })).not.toContain(fake.secretKey);
  });

  it("says a failed charge may have happened only when the charging request went unanswered", async () => {
    fake.failNext(500);
    const customerOutage = await gateway.charge(input({ paymentMethodId: "pm_card_visa" })).catch((e: unknown) => e);
    expect(customerOutage).toMatchObject({ statusCode: 500, chargeMayHaveHappened: false });

    const saved = await gateway.charge(input({ paymentMethodId: "pm_card_visa" }));
    if (saved.status !== "succeeded") throw new Error("expected success");
    const renewal = input({ customerId: saved.customerId!, paymentMethodId: saved.paymentMethodId! });
    fake.failNext(500, 1, "POST /v1/payment_intents");
    expect(await gateway.charge(renewal).catch((e: unknown) => e)).toMatchObject({ statusCode: 500, chargeMayHaveHappened: true });
    fake.failNext(400, 1, "POST /v1/payment_intents");
    expect(await gateway.charge(renewal).catch((e: unknown) => e)).toMatchObject({ statusCode: 400, chargeMayHaveHappened: false });
  });

  it("sends every request of a flow with a key derived from the charge's, so running it again charges once", async () => {
    const key = "0b7e3c52-charge-key";
    const first = await gateway.charge(input({ card: card("4242424242424242"), idempotencyKey: key }));
    const again = await gateway.charge(input({ card: card("4242424242424242"), idempotencyKey: key }));
    expect(again).toEqual(first);
    expect(fake.requests.filter((r) => r.method === "POST").map((r) => r.headers["idempotency-key"])).toEqual([
      `${key}:customer`,
      `${key}:payment_method`,
      `${key}:attach`,
      `${key}:payment`,
      `${key}:customer`,
      `${key}:payment_method`,
      `${key}:attach`,
      `${key}:payment`,
    ]);
    expect(fake.paymentIntents.size).toBe(1);
    expect(fake.customers.size).toBe(1);
  });

  it("retries an outage with an idempotency key, charging once", async () => {
    const retrying = new StripeCardGateway(fake.secretKey, fake.url, { maxNetworkRetries: 1 });
    fake.failNext(500);
    const result = await retrying.charge(input({ paymentMethodId: "pm_card_visa" }));
    expect(result).toMatchObject({ status: "succeeded" });
    const [failed, retried] = fake.requestsTo("POST", "/v1/customers");
    expect(retried.headers["idempotency-key"]).toBe(failed.headers["idempotency-key"]);
    expect(fake.customers.size).toBe(1);
    expect(fake.paymentIntents.size).toBe(1);
  });
});

describe("card data handling", () => {
  it("sends the card number and CVV only to the payment-method endpoint, exactly as given", async () => {
    await gateway.charge(input({ card: card("4000 0566 5566 5556", { cvv: "4321" }) }));

    const withCard = fake.requests.filter((r) => r.rawBody.includes("4000056655665556"));
    expect(withCard.map((r) => r.path)).toEqual(["/v1/payment_methods"]);
    expect(fake.requests.filter((r) => r.rawBody.includes("cvc")).map((r) => r.path)).toEqual(["/v1/payment_methods"]);
    expect(withCard[0].params.card).toEqual({ number: "4000056655665556", exp_month: "12", exp_year: "2030", cvc: "4321" });
    // The fake's stored object is what Stripe returns: last four only.
    expect(inspect([...fake.paymentMethods.values()], { depth: 10 })).not.toContain("4000056655665556");
  });

  it("sends no CVV when paying with a payment method id", async () => {
    await gateway.charge(input({ paymentMethodId: "pm_card_visa" }));
    expect(fake.requests.some((r) => r.rawBody.includes("cvc") || r.rawBody.includes("card["))).toBe(false);
  });

  it("prints nothing while charging", async () => {
    const spies = [vi.spyOn(console, "log"), vi.spyOn(console, "info"), vi.spyOn(console, "warn"), vi.spyOn(console, "error"), vi.spyOn(console, "debug")];
    try {
      await gateway.charge(input({ card: card("4000000000009995") }));
      await gateway.charge(input({ card: card("4242424242424242") }));
      for (const spy of spies) expect(spy).not.toHaveBeenCalled();
    } finally {
      for (const spy of spies) spy.mockRestore();
    }
  });
});

describe("stripeAddressOf (STRIPE_API_BASE)", () => {
  it("splits a base URL into the SDK's host, port and protocol", () => {
    expect(stripeAddressOf("http://127.0.0.1:1234")).toEqual({ host: "127.0.0.1", port: 1234, protocol: "http" });
    expect(stripeAddressOf("https://stripe.internal/")).toEqual({ host: "stripe.internal", port: 443, protocol: "https" });
    expect(stripeAddressOf("http://[::1]:8080/v1")).toEqual({ host: "::1", port: 8080, protocol: "http" });
  });

  it("refuses what the SDK cannot honour", () => {
    expect(() => stripeAddressOf("ftp://127.0.0.1")).toThrow();
    expect(() => stripeAddressOf("http://127.0.0.1:1234/stripe")).toThrow();
  });
});

describe("fake Stripe form decoding", () => {
  it("reads the SDK's bracket notation into nested values", () => {
    expect(
      parseStripeForm(
        "customer=cus_1&items[0][price_data][unit_amount]=4990&items[0][price_data][recurring][interval]=month" +
          "&metadata[subscriptionId]=42&expand[0]=latest_invoice.payments&tags[]=a&tags[]=b&description=Plano%20Mensal",
      ),
    ).toEqual({
      customer: "cus_1",
      items: [{ price_data: { unit_amount: "4990", recurring: { interval: "month" } } }],
      metadata: { subscriptionId: "42" },
      expand: ["latest_invoice.payments"],
      tags: ["a", "b"],
      description: "Plano Mensal",
    });
  });
});
