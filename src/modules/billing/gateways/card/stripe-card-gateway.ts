import Stripe from "stripe";
import {
  CardGatewayError,
  type CardChargeInput,
  type CardChargeResult,
  type CardGateway,
  type CardRefundInput,
  type CardSaveInput,
  type CardSaveResult,
  type CardSubscriptionInput,
  type CardSubscriptionResult,
} from "./card-gateway.js";
import { normalizeCardNumber } from "./card-validation.js";

/**
 * The card gateway on Stripe, through the official SDK. Card data goes from the input straight into the SDK
 * call and is dropped; errors that leave this file are rebuilt from safe fields, with the secret key and any
 * card-number-like digit run removed from the gateway's message.
 */

export interface StripeCardGatewayOptions {
  /** SDK retries of network errors, 409 and 5xx, with idempotency keys (SDK default 2). */
  maxNetworkRetries?: number;
  /** Per-request timeout in ms (default 30 s; the SDK's own default is 80 s). */
  timeoutMs?: number;
}

const RECURRING: Record<CardSubscriptionInput["interval"], { interval: "month" | "year"; interval_count: number }> = {
  MONTHLY: { interval: "month", interval_count: 1 },
  QUARTERLY: { interval: "month", interval_count: 3 },
  SEMIANNUAL: { interval: "month", interval_count: 6 },
  ANNUAL: { interval: "year", interval_count: 1 },
};

/** Which part of a flow failed: an invalid request while preparing the payment method is the customer's problem. */
type Step = "customer" | "payment_method" | "default_payment_method" | "product" | "payment" | "subscription" | "cancel" | "refund" | "find";

const STEP_LABEL: Record<Step, string> = {
  customer: "criar o cliente",
  payment_method: "preparar a forma de pagamento",
  default_payment_method: "definir a forma de pagamento padrão",
  product: "criar o produto",
  payment: "cobrar",
  subscription: "criar a assinatura",
  cancel: "cancelar a assinatura",
  refund: "devolver o pagamento",
  find: "consultar a cobrança",
};

/** Reads `STRIPE_API_BASE` (`http://127.0.0.1:1234`) into the SDK's host/port/protocol; a path other than /v1 is refused. */
export function stripeAddressOf(apiBase: string): { host: string; port: number; protocol: "http" | "https" } {
  const url = new URL(apiBase);
  const protocol = url.protocol.slice(0, -1);
  if (protocol !== "http" && protocol !== "https") throw new Error("STRIPE_API_BASE deve ser uma URL http(s)");
  if (!/^\/(v1\/?)?$/.test(url.pathname)) throw new Error("STRIPE_API_BASE não pode ter caminho (o SDK usa /v1)");
  return {
    host: url.hostname.replace(/^\[(.*)\]$/, "$1"),
    port: url.port ? Number(url.port) : protocol === "https" ? 443 : 80,
    protocol,
  };
}

function idOf(value: string | { id: string } | null | undefined): string | null {
  if (value === null || value === undefined) return null;
  return typeof value === "string" ? value : value.id;
}

/**
 * The failure code a refused payment reports (`details` of the 422/400). Stripe sends `code: card_declined` with
 * a `decline_code` naming the reason; `generic_decline` says no more than `card_declined`, so that one keeps
 * the code (contract §8: card 4000000000000002 is refused with `card_declined`).
 */
function failureCodeOf(error: { code?: string; decline_code?: string }): string {
  if (error.decline_code && error.decline_code !== "generic_decline") return error.decline_code;
  return error.code ?? "card_declined";
}

function paymentIntentFailureCode(intent: Stripe.PaymentIntent): string {
  const last = intent.last_payment_error;
  if (last) return failureCodeOf({ code: last.code ?? undefined, decline_code: last.decline_code ?? undefined });
  if (intent.status === "requires_action") return "authentication_required";
  return `payment_intent_${intent.status}`;
}

export class StripeCardGateway implements CardGateway {
  readonly name = "stripe" as const;
  readonly #stripe: Stripe;
  readonly #secretKey: string;

  constructor(secretKey: string, apiBase?: string, options: StripeCardGatewayOptions = {}) {
    if (secretKey.trim() === "") throw new Error("StripeCardGateway: STRIPE_SECRET_KEY vazio");
    this.#secretKey = secretKey;
    this.#stripe = new Stripe(secretKey, {
      ...(apiBase ? stripeAddressOf(apiBase) : {}),
      maxNetworkRetries: options.maxNetworkRetries ?? 2,
      timeout: options.timeoutMs ?? 30_000,
      appInfo: { name: "fitness-training-service" },
    });
  }

  async charge(input: CardChargeInput): Promise<CardChargeResult> {
    const flow = new Flow(input);
    try {
      const customerId = await flow.step("customer", () => this.customerFor(input, flow));
      const paymentMethod = await flow.step("payment_method", () => this.paymentMethodFor(input, customerId, flow));
      flow.lastFour = paymentMethod.card?.last4 ?? flow.lastFour;
      const intent = await flow.step("payment", () =>
        this.#stripe.paymentIntents.create(
          {
            amount: input.amountCents,
            currency: "brl",
            customer: customerId,
            payment_method: paymentMethod.id,
            confirm: true,
            automatic_payment_methods: { enabled: true, allow_redirects: "never" },
            metadata: input.metadata,
            description: input.description,
          },
          flow.requestOptions("payment"),
        ),
      );
      if (intent.status !== "succeeded") {
        return { status: "failed", transactionId: intent.id, lastFour: flow.lastFour, failureCode: paymentIntentFailureCode(intent) };
      }
      return {
        status: "succeeded",
        transactionId: intent.id,
        lastFour: flow.lastFour,
        customerId,
        paymentMethodId: paymentMethod.id,
      };
    } catch (error) {
      return flow.declineOrThrow(error, this.#secretKey);
    }
  }

  async createSubscription(input: CardSubscriptionInput): Promise<CardSubscriptionResult> {
    const flow = new Flow(input);
    try {
      const customerId = await flow.step("customer", () => this.customerFor(input, flow));
      const paymentMethod = await flow.step("payment_method", () => this.paymentMethodFor(input, customerId, flow));
      flow.lastFour = paymentMethod.card?.last4 ?? flow.lastFour;
      await flow.step("default_payment_method", () =>
        this.#stripe.customers.update(
          customerId,
          { invoice_settings: { default_payment_method: paymentMethod.id } },
          flow.requestOptions("default_payment_method"),
        ),
      );
      const product = await flow.step("product", () =>
        this.#stripe.products.create({ name: input.planName, metadata: input.metadata }, flow.requestOptions("product")),
      );
      const subscription = await flow.step("subscription", () =>
        this.#stripe.subscriptions.create(
          {
            customer: customerId,
            items: [
              {
                price_data: {
                  currency: "brl",
                  product: product.id,
                  unit_amount: input.amountCents,
                  recurring: RECURRING[input.interval],
                },
              },
            ],
            description: input.description,
            metadata: input.metadata,
            payment_behavior: "error_if_incomplete",
            // Since API 2025-03-31 an invoice names its payments in `payments` (Invoice.payment_intent is gone).
            expand: ["latest_invoice.payments"],
          },
          flow.requestOptions("subscription"),
        ),
      );
      const invoice = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
      const paymentIntentId = idOf(invoice?.payments?.data[0]?.payment.payment_intent);
      const transactionId = paymentIntentId ?? idOf(subscription.latest_invoice) ?? subscription.id;
      if (subscription.status !== "active" && subscription.status !== "trialing") {
        // error_if_incomplete should have answered 402 instead; do not leave an unpaid subscription behind.
        await this.#stripe.subscriptions.cancel(subscription.id).catch(() => undefined);
        return { status: "failed", transactionId, lastFour: flow.lastFour, failureCode: `subscription_${subscription.status}` };
      }
      return {
        status: "succeeded",
        transactionId,
        lastFour: flow.lastFour,
        customerId,
        paymentMethodId: paymentMethod.id,
        gatewaySubscriptionId: subscription.id,
      };
    } catch (error) {
      return flow.declineOrThrow(error, this.#secretKey);
    }
  }

  async saveCard(input: CardSaveInput): Promise<CardSaveResult> {
    const charge: CardChargeInput = { ...input, amountCents: 0, currency: "BRL", description: "" };
    const flow = new Flow(charge);
    try {
      const customerId = await flow.step("customer", () => this.customerFor(charge, flow));
      const paymentMethod = await flow.step("payment_method", () => this.paymentMethodFor(charge, customerId, flow));
      await flow.step("default_payment_method", () =>
        this.#stripe.customers.update(customerId, { invoice_settings: { default_payment_method: paymentMethod.id } }),
      );
      return { status: "succeeded", customerId, paymentMethodId: paymentMethod.id, lastFour: paymentMethod.card?.last4 ?? flow.lastFour };
    } catch (error) {
      const { lastFour, failureCode } = flow.declineOrThrow(error, this.#secretKey);
      return { status: "failed", lastFour, failureCode };
    }
  }

  async cancelSubscription(gatewaySubscriptionId: string): Promise<void> {
    try {
      await this.#stripe.subscriptions.cancel(gatewaySubscriptionId);
    } catch (error) {
      if (error instanceof Stripe.errors.StripeError && (error.statusCode === 404 || error.code === "resource_missing")) {
        return; // a subscription the gateway does not know: nothing to cancel
      }
      throw safeError("cancel", error, [this.#secretKey]);
    }
  }

  /**
   * Finds the charge by the `paymentKey` our metadata carries (Stripe's search; it lags writes by about a minute,
   * so it is asked only of charges some minutes old): a payment intent, else a subscription whose first invoice it is.
   */
  async findCharge(idempotencyKey: string): Promise<CardSubscriptionResult | CardChargeResult | { status: "none" } | null> {
    if (!/^[\w-]+$/.test(idempotencyKey)) throw new Error("StripeCardGateway: chave de idempotência inválida");
    const query = `metadata['paymentKey']:'${idempotencyKey}'`;
    try {
      const [intent] = (await this.#stripe.paymentIntents.search({ query })).data;
      if (intent) return await this.intentOutcome(intent);
      const [subscription] = (await this.#stripe.subscriptions.search({ query, expand: ["data.latest_invoice.payments"] })).data;
      return subscription ? await this.subscriptionOutcome(subscription) : { status: "none" };
    } catch (error) {
      throw safeError("find", error, [this.#secretKey]);
    }
  }

  private async intentOutcome(intent: Stripe.PaymentIntent): Promise<CardChargeResult | null> {
    if (intent.status === "processing" || intent.status === "requires_confirmation" || intent.status === "requires_capture") return null;
    const paymentMethodId = idOf(intent.payment_method);
    const lastFour = paymentMethodId ? ((await this.#stripe.paymentMethods.retrieve(paymentMethodId)).card?.last4 ?? null) : null;
    if (intent.status !== "succeeded") return { status: "failed", transactionId: intent.id, lastFour, failureCode: paymentIntentFailureCode(intent) };
    return { status: "succeeded", transactionId: intent.id, lastFour, customerId: idOf(intent.customer), paymentMethodId };
  }

  private async subscriptionOutcome(subscription: Stripe.Subscription): Promise<CardSubscriptionResult> {
    const invoice = typeof subscription.latest_invoice === "object" ? subscription.latest_invoice : null;
    const transactionId = idOf(invoice?.payments?.data[0]?.payment.payment_intent) ?? idOf(subscription.latest_invoice) ?? subscription.id;
    const customerId = idOf(subscription.customer);
    const customer = customerId ? await this.#stripe.customers.retrieve(customerId) : null;
    const paymentMethodId =
      idOf(subscription.default_payment_method) ?? (customer && !customer.deleted ? idOf(customer.invoice_settings.default_payment_method) : null);
    const lastFour = paymentMethodId ? ((await this.#stripe.paymentMethods.retrieve(paymentMethodId)).card?.last4 ?? null) : null;
    if (subscription.status !== "active" && subscription.status !== "trialing") {
      return { status: "failed", transactionId, lastFour, failureCode: `subscription_${subscription.status}` };
    }
    return { status: "succeeded", transactionId, lastFour, customerId, paymentMethodId, gatewaySubscriptionId: subscription.id };
  }

  async refund(input: CardRefundInput): Promise<{ refundId: string }> {
    try {
      const refund = await this.#stripe.refunds.create(
        { ...(await this.refundTarget(input.transactionId)), amount: input.amountCents, metadata: input.metadata },
        { idempotencyKey: input.idempotencyKey },
      );
      return { refundId: refund.id };
    } catch (error) {
      throw safeError("refund", error, [this.#secretKey]);
    }
  }

  /** What a refund names: the charge or payment intent we recorded, or the payment intent that paid an invoice we recorded. */
  private async refundTarget(transactionId: string): Promise<{ charge: string } | { payment_intent: string }> {
    if (transactionId.startsWith("ch_")) return { charge: transactionId };
    if (!transactionId.startsWith("in_")) return { payment_intent: transactionId };
    const invoice = await this.#stripe.invoices.retrieve(transactionId, { expand: ["payments"] });
    const paymentIntent = idOf(invoice.payments?.data[0]?.payment.payment_intent);
    if (!paymentIntent) throw new Error(`a fatura ${transactionId} não tem pagamento a devolver`);
    return { payment_intent: paymentIntent };
  }

  private async customerFor(input: CardChargeInput, flow: Flow): Promise<string> {
    if (input.customerId) return input.customerId;
    const customer = await this.#stripe.customers.create(
      { email: input.customerEmail, name: input.customerName, metadata: input.metadata },
      flow.requestOptions("customer"),
    );
    return customer.id;
  }

  /** A payment method attached to the customer: made from the raw card, or the given id (attached when needed). */
  private async paymentMethodFor(input: CardChargeInput, customerId: string, flow: Flow): Promise<Stripe.PaymentMethod> {
    let id: string;
    if (input.card) {
      const created = await this.#stripe.paymentMethods.create(
        {
          type: "card",
          card: {
            number: normalizeCardNumber(input.card.number),
            exp_month: Number(input.card.expMonth),
            exp_year: Number(input.card.expYear),
            cvc: input.card.cvv,
          },
          billing_details: { name: input.card.holderName, email: input.customerEmail },
        },
        flow.requestOptions("payment_method"),
      );
      id = created.id;
    } else {
      id = input.paymentMethodId ?? "";
      if (input.customerId) {
        // A renewal reuses the method saved on the customer; attaching it again is not needed.
        const existing = await this.#stripe.paymentMethods.retrieve(id);
        if (idOf(existing.customer) === customerId) return existing;
      }
    }
    // Attaching a test token (pm_card_visa) yields a new payment method: use the id that comes back.
    return this.#stripe.paymentMethods.attach(id, { customer: customerId }, flow.requestOptions("attach"));
  }
}

const CARD_DATA_CODE = /^(resource_missing|incorrect_|invalid_(number|expiry|cvc|card)|expired_card|payment_method_)/;

/** One charge or subscription attempt: the step in progress and the last four digits known so far. */
class Flow {
  current: Step = "customer";
  lastFour: string | null;
  readonly #cardNumber: string | null;
  readonly #idempotencyKey: string | undefined;

  constructor(input: CardChargeInput) {
    if (!input.card && !input.paymentMethodId) throw new Error("StripeCardGateway: a charge needs card or paymentMethodId");
    const number = input.card ? normalizeCardNumber(input.card.number) : null;
    this.#cardNumber = number;
    this.lastFour = number && /^\d{4,}$/.test(number) ? number.slice(-4) : null;
    this.#idempotencyKey = input.idempotencyKey;
  }

  step<T>(step: Step, run: () => Promise<T>): Promise<T> {
    this.current = step;
    return run();
  }

  /** The SDK options of one POST of the flow: its own idempotency key, derived from the charge's. */
  requestOptions(request: string): Stripe.RequestOptions | undefined {
    return this.#idempotencyKey ? { idempotencyKey: `${this.#idempotencyKey}:${request}` } : undefined;
  }

  /** A decline becomes a failed result; anything else is thrown as a CardGatewayError free of secrets. */
  declineOrThrow(error: unknown, secretKey: string): Extract<CardChargeResult, { status: "failed" }> {
    if (error instanceof Stripe.errors.StripeCardError) {
      return {
        status: "failed",
        transactionId: error.payment_intent?.id ?? null,
        lastFour: error.payment_method?.card?.last4 ?? this.lastFour,
        failureCode: failureCodeOf(error),
      };
    }
    // A payment method the gateway cannot find or refuses as card data (unknown pm_ id, bad number) is a refusal
    // too; other invalid requests (an unknown customer, raw card data not enabled on the account) are ours.
    if (
      error instanceof Stripe.errors.StripeInvalidRequestError &&
      this.current === "payment_method" &&
      error.param !== "customer" &&
      (error.statusCode === 404 || CARD_DATA_CODE.test(error.code ?? ""))
    ) {
      return { status: "failed", transactionId: null, lastFour: this.lastFour, failureCode: error.code ?? "invalid_payment_method" };
    }
    throw safeError(this.current, error, [secretKey, this.#cardNumber], this.current === "payment" || this.current === "subscription");
  }
}

/** Removes the key, anything shaped like a Stripe key, and digit runs as long as a card number. */
function redact(text: string, secrets: (string | null)[]): string {
  let out = text;
  for (const secret of secrets) if (secret) out = out.split(secret).join("[removido]");
  return out.replace(/\b(?:sk|rk|pk|whsec)_[A-Za-z0-9_*]+/g, "[chave removida]").replace(/\d(?:[ -]?\d){11,18}/g, "[número removido]");
}

/**
 * The error to throw for a failed step. `movesMoney`: the step is the one that charges; whether it may have charged
 * is then unknown unless Stripe answered a 4xx (the request was refused before anything ran; 409 excepted, which is
 * another request with the same idempotency key still running).
 */
function safeError(step: Step, error: unknown, secrets: (string | null)[], movesMoney = false): CardGatewayError {
  if (error instanceof Stripe.errors.StripeError) {
    const status = error.statusCode ?? null;
    const what = [status ? `HTTP ${status}` : "sem resposta", error.type, error.code].filter(Boolean).join(" ");
    const refusedBeforeRunning = status !== null && status >= 400 && status < 500 && status !== 409;
    return new CardGatewayError(
      `Stripe: falha ao ${STEP_LABEL[step]} (${what}): ${redact(error.message, secrets)}`,
      status,
      error.type,
      error.code ?? null,
      error.requestId ?? null,
      movesMoney && !refusedBeforeRunning,
    );
  }
  const message = error instanceof Error ? error.message : String(error);
  return new CardGatewayError(`Stripe: falha ao ${STEP_LABEL[step]}: ${redact(message, secrets)}`, null, null, null, null, movesMoney);
}
