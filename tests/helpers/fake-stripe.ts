import { randomBytes } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { Arrivals, RequestHold } from "./request-hold.js";

/**
 * A local stand-in for the Stripe API, limited to the endpoints StripeCardGateway calls: customers (create,
 * retrieve, update), payment methods (create, retrieve, attach), payment intents (create, retrieve), products
 * (create), subscriptions (create, retrieve, cancel), invoices (retrieve), refunds (create; never more than was
 * received), and the search of payment intents and subscriptions by one metadata value (`metadata['k']:'v'`). It reads the SDK's form-encoded bodies (`card[number]`,
 * `items[0][price_data][unit_amount]`, `expand[0]`), answers Stripe-shaped objects and Stripe's error bodies,
 * declines the contract §8 test cards, records every request, and can deliver signed webhooks.
 *
 * Point the adapter at it with `new StripeCardGateway(fake.secretKey, fake.url)`.
 */

type Json = Record<string, unknown>;

export interface FakeStripeRequest {
  method: string;
  /** Path without the query string, e.g. `/v1/payment_methods/pm_123/attach`. */
  path: string;
  headers: IncomingMessage["headers"];
  /** Query and form body, decoded into nested objects and arrays. */
  params: Json;
  /** The body exactly as received (form-encoded). */
  rawBody: string;
}

/** How a card behaves when charged. */
type Behaviour = "success" | "generic_decline" | "insufficient_funds" | "authentication_required";

/** Contract §8's cards, plus Stripe's "always asks for 3-D Secure" card. Other Luhn-valid numbers succeed. */
export const FAKE_STRIPE_CARDS: Readonly<Record<string, Behaviour>> = {
  "4242424242424242": "success",
  "4000000000000002": "generic_decline",
  "4000000000009995": "insufficient_funds",
  "4000002760003184": "authentication_required",
};

/** Stripe's test payment-method tokens the fake knows (attach clones them into a new `pm_` id, as Stripe does). */
export const FAKE_STRIPE_TOKENS: Readonly<Record<string, { last4: string; behaviour: Behaviour }>> = {
  pm_card_visa: { last4: "4242", behaviour: "success" },
  pm_card_chargeDeclined: { last4: "0002", behaviour: "generic_decline" },
  pm_card_chargeDeclinedInsufficientFunds: { last4: "9995", behaviour: "insufficient_funds" },
  pm_card_authenticationRequired: { last4: "3184", behaviour: "authentication_required" },
};

const DECLINE_MESSAGES: Record<"generic_decline" | "insufficient_funds", string> = {
  generic_decline: "Your card was declined.",
  insufficient_funds: "Your card has insufficient funds.",
};

/** The requests that charge a card, which `hold()` holds. */
const MONEY_PATHS = ["/v1/payment_intents", "/v1/subscriptions"];

/** Expansions the fake honours; anything else is refused like Stripe refuses it. */
const EXPANSIONS: Record<string, string[]> = {
  subscription: ["latest_invoice", "latest_invoice.payments", "customer"],
};

export class StripeHttpError extends Error {
  constructor(
    readonly status: number,
    readonly body: Json,
  ) {
    super(String(body.message ?? "stripe error"));
  }
}

function invalidRequest(message: string, param?: string, code?: string, status = 400): StripeHttpError {
  return new StripeHttpError(status, { type: "invalid_request_error", message, ...(param ? { param } : {}), ...(code ? { code } : {}) });
}

function noSuch(kind: string, id: string, param = "id"): StripeHttpError {
  return invalidRequest(`No such ${kind}: '${id}'`, param, "resource_missing", 404);
}

function cardError(code: string, message: string, extra: Json = {}): StripeHttpError {
  return new StripeHttpError(402, { type: "card_error", code, message, ...extra });
}

const UNSAFE_KEYS = new Set(["__proto__", "prototype", "constructor"]);

/** Decodes Stripe's form encoding into nested values: `a[b][0][c]=1` → `{a:{b:[{c:"1"}]}}`; `x[]` appends. */
export function parseStripeForm(encoded: string): Json {
  const root: Json = {};
  for (const [key, value] of new URLSearchParams(encoded)) {
    const match = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(key);
    const path = match ? [match[1], ...[...match[2].matchAll(/\[([^[\]]*)\]/g)].map((m) => m[1])] : [key];
    if (path.some((segment) => UNSAFE_KEYS.has(segment))) continue;
    let node: Json | unknown[] = root;
    for (let i = 0; i < path.length; i += 1) {
      const segment = path[i];
      const last = i === path.length - 1;
      const slot: string | number = Array.isArray(node) ? (segment === "" ? node.length : Number(segment)) : segment;
      if (last) {
        (node as Record<string | number, unknown>)[slot] = value;
        break;
      }
      const next = path[i + 1];
      const container = node as Record<string | number, unknown>;
      if (typeof container[slot] !== "object" || container[slot] === null) {
        container[slot] = next === "" || /^\d+$/.test(next) ? [] : {};
      }
      node = container[slot] as Json | unknown[];
    }
  }
  return root;
}

function luhn(number: string): boolean {
  if (!/^\d{12,19}$/.test(number)) return false;
  let sum = 0;
  for (let i = 0; i < number.length; i += 1) {
    let digit = Number(number[number.length - 1 - i]);
    if (i % 2 === 1) digit = digit * 2 > 9 ? digit * 2 - 9 : digit * 2;
    sum += digit;
  }
  return sum % 10 === 0;
}

function brandOf(number: string): string {
  if (number.startsWith("4")) return "visa";
  if (/^5[1-5]/.test(number)) return "mastercard";
  if (/^3[47]/.test(number)) return "amex";
  return "unknown";
}

function str(value: unknown): string | undefined {
  return typeof value === "string" ? value : undefined;
}

function obj(value: unknown): Json {
  return typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Json) : {};
}

function int(value: unknown, param: string, required = true): number | undefined {
  if (value === undefined && !required) return undefined;
  if (typeof value !== "string" || !/^-?\d+$/.test(value)) {
    throw value === undefined
      ? invalidRequest(`Missing required param: ${param}.`, param, "parameter_missing")
      : invalidRequest(`Invalid integer: ${String(value)}`, param, "parameter_invalid_integer");
  }
  return Number(value);
}

function metadataOf(value: unknown): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [key, v] of Object.entries(obj(value))) if (typeof v === "string") out[key] = v;
  return out;
}

function expansionsOf(params: Json): string[] {
  const expand = params.expand;
  if (Array.isArray(expand)) return expand.filter((e): e is string => typeof e === "string");
  return [];
}

export interface FakeStripeOptions {
  /** The key the fake accepts (`Authorization: Bearer <key>`); random `sk_test_…` by default. */
  secretKey?: string;
  /**
   * Where a declining card is refused: when confirming the payment (default) or already when it is attached to
   * the customer (Stripe verifies some cards on attach).
   */
  declineOn?: "confirm" | "attach";
}

interface StoredPaymentMethod {
  object: Json;
  behaviour: Behaviour;
}

export class FakeStripe {
  readonly secretKey: string;
  declineOn: "confirm" | "attach";
  /** Base URL (`http://127.0.0.1:<port>`), the STRIPE_API_BASE of tests. */
  url = "";
  readonly requests: FakeStripeRequest[] = [];
  readonly customers = new Map<string, Json>();
  readonly paymentMethods = new Map<string, StoredPaymentMethod>();
  readonly paymentIntents = new Map<string, Json>();
  readonly products = new Map<string, Json>();
  readonly prices = new Map<string, Json>();
  readonly invoices = new Map<string, Json>();
  readonly subscriptions = new Map<string, Json>();
  readonly refunds = new Map<string, Json>();
  private server?: Server;
  private failures: { status: number; remaining: number; request?: string }[] = [];
  private readonly idempotent = new Map<string, { status: number; body: string }>();
  private held: RequestHold | null = null;
  private readonly arrivals = new Arrivals((methodAndPath) => this.requests.filter((r) => `${r.method} ${r.path}` === methodAndPath).length);

  constructor(options: FakeStripeOptions = {}) {
    this.secretKey = options.secretKey ?? `sk_test_fake_${randomBytes(12).toString("hex")}`;
    this.declineOn = options.declineOn ?? "confirm";
  }

  async start(): Promise<string> {
    this.server = createServer((req, res) => {
      this.handle(req, res).catch((error: unknown) => {
        // A bug in the fake: answer like a Stripe outage, with the cause in the message for the test output.
        if (!res.headersSent) res.writeHead(500, { "content-type": "application/json" });
        res.end(JSON.stringify({ error: { type: "api_error", message: `fake-stripe: ${String(error)}` } }));
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this.url;
  }

  async stop(): Promise<void> {
    if (!this.server) return;
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server!.close(() => resolve()));
    this.server = undefined;
  }

  /** Forgets objects, recorded requests and pending failures (between tests). */
  reset(): void {
    this.requests.length = 0;
    for (const map of [this.customers, this.paymentMethods, this.paymentIntents, this.products, this.prices, this.invoices, this.subscriptions, this.refunds]) {
      map.clear();
    }
    this.failures = [];
    this.idempotent.clear();
    this.held = null;
  }

  /** Holds the requests that charge (payment intents, subscriptions), after recording them, until released. */
  hold(safetyMs?: number): RequestHold {
    this.held = new RequestHold(safetyMs);
    return this.held;
  }

  /** Resolves once `count` requests `METHOD /path` have arrived. */
  waitForRequests(methodAndPath: string, count: number): Promise<void> {
    return this.arrivals.waitFor(methodAndPath, count);
  }

  /**
   * The next `times` requests (of `request`, e.g. "POST /v1/payment_intents", when given) get `status` with Stripe's
   * error body: `api_error` for a 5xx outage, `invalid_request_error` for a 4xx.
   */
  failNext(status = 500, times = 1, request?: string): void {
    this.failures.push({ status, remaining: times, request });
  }

  /** Recorded requests with this method whose path matches. */
  requestsTo(method: string, path: string | RegExp): FakeStripeRequest[] {
    return this.requests.filter((r) => r.method === method && (typeof path === "string" ? r.path === path : path.test(r.path)));
  }

  /** A Stripe-shaped event `{id, object:"event", type, data:{object}}`. */
  static event(type: string, object: Json, id = `evt_${randomBytes(12).toString("hex")}`): Json {
    return {
      id,
      object: "event",
      api_version: "2026-10-28.endive",
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      pending_webhooks: 1,
      request: { id: null, idempotency_key: null },
      type,
      data: { object },
    };
  }

  /**
   * The invoice Stripe would send in `invoice.payment_succeeded` / `invoice.payment_failed` for one of this fake's
   * subscriptions: the subscription at `parent.subscription_details` as the current API has it, and also at the
   * older top-level `subscription` that contract §8 names.
   */
  invoiceObjectFor(subscriptionId: string, overrides: Json = {}): Json {
    const subscription = this.subscriptions.get(subscriptionId);
    if (!subscription) throw new Error(`FakeStripe: unknown subscription ${subscriptionId}`);
    const item = (obj(subscription.items).data as Json[])[0];
    const price = obj(item.price);
    return {
      id: `in_${randomBytes(12).toString("hex")}`,
      object: "invoice",
      amount_due: price.unit_amount,
      amount_paid: price.unit_amount,
      currency: price.currency,
      customer: subscription.customer,
      status: "paid",
      billing_reason: "subscription_cycle",
      subscription: subscriptionId,
      parent: {
        type: "subscription_details",
        subscription_details: { subscription: subscriptionId, metadata: subscription.metadata },
      },
      metadata: {},
      created: Math.floor(Date.now() / 1000),
      livemode: false,
      ...overrides,
    };
  }

  /**
   * POSTs `event` to `url` signed with `secret` (header `Card-Signature` unless `headerName` says otherwise), as
   * the gateway delivers webhooks. `header` replaces the signature (to send a forged or garbled one).
   */
  async sendWebhook(
    url: string,
    event: Json | string,
    options: { secret: string; timestampSeconds?: number; headerName?: string; header?: string },
  ): Promise<{ status: number; body: string }> {
    const raw = typeof event === "string" ? event : JSON.stringify(event);
    const timestamp = options.timestampSeconds ?? Math.floor(Date.now() / 1000);
    const header = options.header ?? signCardEvent(raw, options.secret, timestamp);
    const response = await fetch(url, {
      method: "POST",
      headers: { "content-type": "application/json; charset=utf-8", [options.headerName ?? "Card-Signature"]: header },
      body: raw,
    });
    return { status: response.status, body: await response.text() };
  }

  // ——— HTTP ———

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const rawBody = Buffer.concat(chunks).toString("utf8");
    const url = new URL(req.url ?? "/", "http://fake");
    const params = { ...parseStripeForm(url.search.slice(1)), ...parseStripeForm(rawBody) };
    const method = req.method ?? "GET";
    this.requests.push({ method, path: url.pathname, headers: req.headers, params, rawBody });
    this.arrivals.arrived();
    if (this.held && method === "POST" && MONEY_PATHS.includes(url.pathname)) await this.held.passed();

    const requestId = `req_${randomBytes(8).toString("hex")}`;
    const send = (status: number, body: string) => {
      res.writeHead(status, { "content-type": "application/json", "request-id": requestId });
      res.end(body);
    };

    const auth = req.headers.authorization;
    if (auth !== `Bearer ${this.secretKey}`) {
      const given = auth?.startsWith("Bearer ") ? auth.slice(7) : undefined;
      // Real Stripe masks all but the last four characters; the fake echoes the key whole on purpose, so a
      // test can show that the adapter's errors never carry it.
      const message = given
        ? `Invalid API Key provided: ${given}`
        : "You did not provide an API key. You need to provide your API key in the Authorization header.";
      send(401, JSON.stringify({ error: { type: "invalid_request_error", message } }));
      return;
    }

    const failure = this.failures[0];
    if (failure && (!failure.request || failure.request === `${method} ${url.pathname}`)) {
      failure.remaining -= 1;
      if (failure.remaining <= 0) this.failures.shift();
      const error =
        failure.status >= 500
          ? { type: "api_error", message: "An unknown error occurred (fake outage)." }
          : { type: "invalid_request_error", message: "Refused by the fake." };
      send(failure.status, JSON.stringify({ error }));
      return;
    }

    const idempotencyKey = method === "POST" ? req.headers["idempotency-key"] : undefined;
    const replay = typeof idempotencyKey === "string" ? this.idempotent.get(idempotencyKey) : undefined;
    if (replay) {
      send(replay.status, replay.body);
      return;
    }

    let status = 200;
    let body: string;
    try {
      body = JSON.stringify(this.route(method, url.pathname, params));
    } catch (error) {
      if (!(error instanceof StripeHttpError)) throw error;
      status = error.status;
      body = JSON.stringify({ error: { ...error.body, request_log_url: `https://dashboard.stripe.com/test/logs/${requestId}` } });
    }
    if (typeof idempotencyKey === "string") this.idempotent.set(idempotencyKey, { status, body });
    send(status, body);
  }

  private route(method: string, path: string, params: Json): Json {
    const parts = path.split("/").filter(Boolean).map(decodeURIComponent);
    if (parts[0] !== "v1") throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, undefined, undefined, 404);
    const [, resource, id, action] = parts;
    if (method === "GET" && id === "search" && !action) return this.search(resource, params);
    const key = `${method} ${resource}${id ? "/:id" : ""}${action ? `/${action}` : ""}`;
    switch (key) {
      case "POST customers":
        return this.createCustomer(params);
      case "GET customers/:id":
        return this.customer(id);
      case "POST customers/:id":
        return this.updateCustomer(id, params);
      case "POST payment_methods":
        return this.createPaymentMethod(params);
      case "GET payment_methods/:id":
        return this.paymentMethod(id).object;
      case "POST payment_methods/:id/attach":
        return this.attachPaymentMethod(id, params);
      case "POST payment_intents":
        return this.createPaymentIntent(params);
      case "GET payment_intents/:id":
        return this.paymentIntents.get(id) ?? this.fail(noSuch("payment_intent", id));
      case "POST products":
        return this.createProduct(params);
      case "POST subscriptions":
        return this.createSubscription(params);
      case "GET subscriptions/:id":
        return this.renderSubscription(this.subscriptions.get(id) ?? this.fail(noSuch("subscription", id)), params);
      case "DELETE subscriptions/:id":
        return this.cancelSubscription(id);
      case "GET invoices/:id":
        return this.renderInvoice(this.invoices.get(id) ?? this.fail(noSuch("invoice", id)), params);
      case "POST refunds":
        return this.createRefund(params);
      default:
        throw invalidRequest(`Unrecognized request URL (${method}: ${path}).`, undefined, undefined, 404);
    }
  }

  private fail(error: StripeHttpError): never {
    throw error;
  }

  private base(prefix: string, object: string): { id: string; object: string; created: number; livemode: boolean } {
    return { id: `${prefix}_${randomBytes(12).toString("hex")}`, object, created: Math.floor(Date.now() / 1000), livemode: false };
  }

  // ——— customers ———

  private createCustomer(params: Json): Json {
    const customer = {
      ...this.base("cus", "customer"),
      email: str(params.email) ?? null,
      name: str(params.name) ?? null,
      metadata: metadataOf(params.metadata),
      invoice_settings: { default_payment_method: null, custom_fields: null, footer: null },
    };
    this.customers.set(customer.id, customer);
    return customer;
  }

  private customer(id: string, param = "id"): Json {
    return this.customers.get(id) ?? this.fail(noSuch("customer", id, param));
  }

  private updateCustomer(id: string, params: Json): Json {
    const customer = this.customer(id);
    if (params.email !== undefined) customer.email = str(params.email) ?? null;
    if (params.name !== undefined) customer.name = str(params.name) ?? null;
    if (params.metadata !== undefined) customer.metadata = { ...obj(customer.metadata), ...metadataOf(params.metadata) };
    const settings = obj(params.invoice_settings);
    const pmId = str(settings.default_payment_method);
    if (pmId !== undefined) {
      const pm = this.paymentMethods.get(pmId);
      if (!pm || pm.object.customer !== id) {
        throw invalidRequest(
          `The customer does not have a payment method with the ID ${pmId}. The payment method must be attached to the customer.`,
          "invoice_settings[default_payment_method]",
          "resource_missing",
        );
      }
      customer.invoice_settings = { ...obj(customer.invoice_settings), default_payment_method: pmId };
    }
    return customer;
  }

  // ——— payment methods ———

  private createPaymentMethod(params: Json): Json {
    if (params.type !== "card") throw invalidRequest("Invalid type: must be card in this fake.", "type");
    const card = obj(params.card);
    const number = str(card.number);
    if (number === undefined) throw invalidRequest("Missing required param: card[number].", "card[number]", "parameter_missing");
    if (!luhn(number)) throw cardError("incorrect_number", "Your card number is incorrect.", { param: "number" });
    const expMonth = int(card.exp_month, "card[exp_month]")!;
    const expYear = int(card.exp_year, "card[exp_year]")!;
    if (expMonth < 1 || expMonth > 12) {
      throw cardError("invalid_expiry_month", "Your card's expiration month is invalid.", { param: "exp_month" });
    }
    const now = new Date();
    if (expYear < now.getUTCFullYear() || (expYear === now.getUTCFullYear() && expMonth < now.getUTCMonth() + 1)) {
      throw cardError("invalid_expiry_year", "Your card's expiration year is invalid.", { param: "exp_year" });
    }
    const cvc = str(card.cvc);
    if (cvc !== undefined && !/^\d{3,4}$/.test(cvc)) {
      throw cardError("invalid_cvc", "Your card's security code is invalid.", { param: "cvc" });
    }
    // Only what Stripe returns is kept: never the number or the CVC (the raw request stays in `requests`).
    const object = this.cardPaymentMethod(number.slice(-4), brandOf(number), expMonth, expYear, obj(params.billing_details));
    this.paymentMethods.set(object.id as string, { object, behaviour: FAKE_STRIPE_CARDS[number] ?? "success" });
    return object;
  }

  private cardPaymentMethod(last4: string, brand: string, expMonth: number, expYear: number, billing: Json = {}): Json {
    return {
      ...this.base("pm", "payment_method"),
      type: "card",
      customer: null,
      metadata: {},
      billing_details: {
        name: str(billing.name) ?? null,
        email: str(billing.email) ?? null,
        phone: null,
        address: null,
      },
      card: { brand, last4, exp_month: expMonth, exp_year: expYear, funding: "credit", country: "US", wallet: null },
    };
  }

  private paymentMethod(id: string): StoredPaymentMethod {
    const stored = this.paymentMethods.get(id);
    if (stored) return stored;
    const token = Object.hasOwn(FAKE_STRIPE_TOKENS, id) ? FAKE_STRIPE_TOKENS[id] : undefined;
    if (token) {
      const object = { ...this.cardPaymentMethod(token.last4, "visa", 12, new Date().getUTCFullYear() + 3), id };
      return { object, behaviour: token.behaviour };
    }
    throw noSuch("PaymentMethod", id, "payment_method");
  }

  private attachPaymentMethod(id: string, params: Json): Json {
    const customerId = str(params.customer);
    if (!customerId) throw invalidRequest("Missing required param: customer.", "customer", "parameter_missing");
    this.customer(customerId, "customer");
    const source = this.paymentMethod(id);
    if (this.declineOn === "attach" && source.behaviour !== "success" && source.behaviour !== "authentication_required") {
      throw cardError("card_declined", DECLINE_MESSAGES[source.behaviour], { decline_code: source.behaviour });
    }
    let stored = this.paymentMethods.get(id);
    if (!stored) {
      // A test token: Stripe attaches a fresh copy with its own id.
      const card = obj(source.object.card);
      const object = this.cardPaymentMethod(String(card.last4), String(card.brand), Number(card.exp_month), Number(card.exp_year));
      stored = { object, behaviour: source.behaviour };
      this.paymentMethods.set(object.id as string, stored);
    }
    const owner = stored.object.customer;
    if (owner !== null && owner !== customerId) {
      throw invalidRequest("The payment method you provided has already been attached to a customer.", "payment_method");
    }
    stored.object.customer = customerId;
    return stored.object;
  }

  // ——— payments ———

  /** Runs a charge: the PaymentIntent object, or throws the 402 Stripe answers for a declined card. */
  private pay(amount: number, currency: string, customerId: string | null, pm: StoredPaymentMethod, extra: Json): Json {
    const intent: Json = {
      ...this.base("pi", "payment_intent"),
      amount,
      amount_received: 0,
      currency,
      customer: customerId,
      payment_method: pm.object.id,
      payment_method_types: ["card"],
      status: "succeeded",
      last_payment_error: null,
      latest_charge: null,
      next_action: null,
      client_secret: null,
      description: null,
      metadata: {},
      ...extra,
    };
    intent.client_secret = `${String(intent.id)}_secret_${randomBytes(8).toString("hex")}`;
    this.paymentIntents.set(intent.id as string, intent);
    const charge = `ch_${randomBytes(12).toString("hex")}`;
    switch (pm.behaviour) {
      case "success":
        Object.assign(intent, { status: "succeeded", amount_received: amount, latest_charge: charge });
        return intent;
      case "authentication_required":
        Object.assign(intent, { status: "requires_action", next_action: { type: "use_stripe_sdk", use_stripe_sdk: {} } });
        return intent;
      default: {
        const message = DECLINE_MESSAGES[pm.behaviour];
        const lastError = { type: "card_error", code: "card_declined", decline_code: pm.behaviour, message, charge, payment_method: pm.object };
        Object.assign(intent, { status: "requires_payment_method", latest_charge: charge, last_payment_error: lastError });
        throw cardError("card_declined", message, { decline_code: pm.behaviour, charge, payment_intent: intent, payment_method: pm.object });
      }
    }
  }

  private createPaymentIntent(params: Json): Json {
    const amount = int(params.amount, "amount")!;
    if (amount < 1) throw invalidRequest("This value must be greater than or equal to 1.", "amount", "parameter_invalid_integer");
    const currency = str(params.currency);
    if (!currency) throw invalidRequest("Missing required param: currency.", "currency", "parameter_missing");
    const customerId = str(params.customer) ?? null;
    if (customerId) this.customer(customerId, "customer");
    const pmId = str(params.payment_method);
    if (!pmId) throw invalidRequest("Missing required param: payment_method.", "payment_method", "parameter_missing");
    const pm = this.paymentMethod(pmId);
    if (pm.object.customer !== null && pm.object.customer !== customerId) {
      throw invalidRequest("The provided PaymentMethod belongs to another Customer.", "payment_method");
    }
    const automatic = obj(params.automatic_payment_methods);
    const extra: Json = {
      metadata: metadataOf(params.metadata),
      description: str(params.description) ?? null,
      automatic_payment_methods: params.automatic_payment_methods
        ? { enabled: automatic.enabled === "true", allow_redirects: str(automatic.allow_redirects) ?? "always" }
        : null,
    };
    if (params.confirm !== "true") {
      const intent = {
        ...this.base("pi", "payment_intent"),
        amount,
        currency,
        customer: customerId,
        payment_method: pmId,
        status: "requires_confirmation",
        ...extra,
      };
      this.paymentIntents.set(intent.id, intent);
      return intent;
    }
    if (automatic.enabled === "true" && automatic.allow_redirects !== "never" && !params.return_url) {
      throw invalidRequest(
        "This PaymentIntent is configured to accept payment methods enabled in your Dashboard, some of which may require a full page redirect to succeed. Provide a `return_url` or set `automatic_payment_methods[allow_redirects]=never`.",
        "return_url",
      );
    }
    return this.pay(amount, currency, customerId, pm, extra);
  }

  // ——— products and subscriptions ———

  private createProduct(params: Json): Json {
    const name = str(params.name);
    if (!name) throw invalidRequest("Missing required param: name.", "name", "parameter_missing");
    const product = { ...this.base("prod", "product"), name, active: true, metadata: metadataOf(params.metadata) };
    this.products.set(product.id, product);
    return product;
  }

  private createSubscription(params: Json): Json {
    const customerId = str(params.customer);
    if (!customerId) throw invalidRequest("Missing required param: customer.", "customer", "parameter_missing");
    const customer = this.customer(customerId, "customer");
    const expand = expansionsOf(params);
    for (const path of expand) {
      if (!EXPANSIONS.subscription.includes(path)) throw invalidRequest(`This property cannot be expanded (${path}).`, "expand");
    }
    const items = Array.isArray(params.items) ? (params.items as unknown[]) : [];
    if (items.length !== 1) throw invalidRequest("The fake takes exactly one item.", "items");
    const priceData = obj(obj(items[0]).price_data);
    const currency = str(priceData.currency);
    if (!currency) throw invalidRequest("Missing required param: items[0][price_data][currency].", "items[0][price_data][currency]", "parameter_missing");
    const productId = str(priceData.product) ?? "";
    if (!this.products.has(productId)) throw noSuch("product", productId, "items[0][price_data][product]");
    const unitAmount = int(priceData.unit_amount, "items[0][price_data][unit_amount]")!;
    const recurring = obj(priceData.recurring);
    const interval = str(recurring.interval);
    if (!interval || !["day", "week", "month", "year"].includes(interval)) {
      throw invalidRequest("Invalid items[0][price_data][recurring][interval].", "items[0][price_data][recurring][interval]");
    }
    const intervalCount = int(recurring.interval_count, "items[0][price_data][recurring][interval_count]", false) ?? 1;

    const pmId = str(params.default_payment_method) ?? str(obj(customer.invoice_settings).default_payment_method);
    if (!pmId) throw invalidRequest("This customer has no attached payment source or default payment method.", "customer");
    const pm = this.paymentMethod(pmId);

    const price = {
      ...this.base("price", "price"),
      currency,
      product: productId,
      unit_amount: unitAmount,
      recurring: { interval, interval_count: intervalCount },
      type: "recurring",
    };
    this.prices.set(price.id, price);
    const metadata = metadataOf(params.metadata);
    const subscriptionId = `sub_${randomBytes(12).toString("hex")}`;
    const invoiceId = `in_${randomBytes(12).toString("hex")}`;

    let intent: Json;
    try {
      intent = this.pay(unitAmount, currency, customerId, pm, { description: "Subscription creation", metadata: {} });
    } catch (error) {
      // error_if_incomplete: a refused first payment creates no subscription and answers the card error.
      if (params.payment_behavior === "error_if_incomplete" || !(error instanceof StripeHttpError)) throw error;
      intent = this.paymentIntents.get(str(obj(error.body.payment_intent).id) ?? "") ?? {};
    }
    if (intent.status === "requires_action" && params.payment_behavior === "error_if_incomplete") {
      throw cardError(
        "subscription_payment_intent_requires_action",
        "Payment for this subscription requires additional user action before it can be completed successfully.",
        {
          decline_code: "authentication_required",
          payment_intent: intent,
        },
      );
    }
    const paid = intent.status === "succeeded";
    const now = Math.floor(Date.now() / 1000);
    const periodEnd = now + (interval === "year" ? 365 : interval === "month" ? 30 : interval === "week" ? 7 : 1) * 86_400 * intervalCount;
    const invoice = {
      id: invoiceId,
      object: "invoice",
      created: now,
      livemode: false,
      customer: customerId,
      currency,
      amount_due: unitAmount,
      amount_paid: paid ? unitAmount : 0,
      status: paid ? "paid" : "open",
      billing_reason: "subscription_create",
      parent: { type: "subscription_details", subscription_details: { subscription: subscriptionId, metadata } },
      metadata: {},
      payments: {
        object: "list",
        has_more: false,
        url: `/v1/invoice_payments?invoice=${invoiceId}`,
        data: [
          {
            id: `inpay_${randomBytes(12).toString("hex")}`,
            object: "invoice_payment",
            invoice: invoiceId,
            is_default: true,
            amount_paid: paid ? unitAmount : null,
            amount_requested: unitAmount,
            currency,
            status: paid ? "paid" : "open",
            payment: { type: "payment_intent", payment_intent: intent.id },
          },
        ],
      },
    };
    this.invoices.set(invoiceId, invoice);
    const subscription: Json = {
      id: subscriptionId,
      object: "subscription",
      created: now,
      livemode: false,
      customer: customerId,
      status: paid ? "active" : "incomplete",
      description: str(params.description) ?? null,
      metadata,
      default_payment_method: str(params.default_payment_method) ?? null,
      payment_settings: { save_default_payment_method: "off" },
      latest_invoice: invoiceId,
      start_date: now,
      canceled_at: null,
      ended_at: null,
      items: {
        object: "list",
        has_more: false,
        data: [
          {
            id: `si_${randomBytes(12).toString("hex")}`,
            object: "subscription_item",
            price,
            quantity: 1,
            current_period_start: now,
            current_period_end: periodEnd,
          },
        ],
      },
    };
    this.subscriptions.set(subscriptionId, subscription);
    return this.renderSubscription(subscription, params);
  }

  /** The subscription as the API shows it: ids unless expanded; an invoice's `payments` only when expanded. */
  private renderSubscription(subscription: Json, params: Json): Json {
    const expand = expansionsOf(params);
    const out: Json = { ...subscription };
    const invoice = this.invoices.get(String(subscription.latest_invoice));
    if (invoice && (expand.includes("latest_invoice") || expand.includes("latest_invoice.payments"))) {
      const { payments, ...rest } = invoice;
      out.latest_invoice = expand.includes("latest_invoice.payments") ? { ...rest, payments } : rest;
    }
    if (expand.includes("customer")) out.customer = this.customers.get(String(subscription.customer)) ?? subscription.customer;
    return out;
  }

  /** Stripe's search, for the one query form the adapter sends: `metadata['key']:'value'`. */
  private search(resource: string, params: Json): Json {
    const match = /^metadata\['([\w-]+)'\]:'([\w-]+)'$/.exec(str(params.query) ?? "");
    if (!match) throw invalidRequest("The fake understands only metadata['key']:'value' queries.", "query");
    const [, field, value] = match;
    const expand = expansionsOf(params).map((path) => path.replace(/^data\./, ""));
    const found =
      resource === "payment_intents"
        ? [...this.paymentIntents.values()].filter((pi) => obj(pi.metadata)[field] === value)
        : resource === "subscriptions"
          ? [...this.subscriptions.values()].filter((sub) => obj(sub.metadata)[field] === value).map((sub) => this.renderSubscription(sub, { expand }))
          : this.fail(invalidRequest(`Unrecognized request URL (GET: /v1/${resource}/search).`, undefined, undefined, 404));
    return { object: "search_result", data: found, has_more: false, next_page: null, url: `/v1/${resource}/search` };
  }

  /** An invoice as the API shows it: its `payments` only when expanded. */
  private renderInvoice(invoice: Json, params: Json): Json {
    const { payments, ...rest } = invoice;
    return expansionsOf(params).includes("payments") ? { ...rest, payments } : rest;
  }

  // ——— refunds ———

  private createRefund(params: Json): Json {
    const chargeId = str(params.charge);
    const intentId = str(params.payment_intent) ?? [...this.paymentIntents.values()].find((pi) => chargeId && pi.latest_charge === chargeId)?.id;
    if (!intentId) throw invalidRequest("One of the following params should be provided for this request: payment_intent or charge.", "payment_intent");
    const intent = this.paymentIntents.get(String(intentId)) ?? this.fail(noSuch("payment_intent", String(intentId), "payment_intent"));
    if (intent.status !== "succeeded")
      throw invalidRequest(`This PaymentIntent (${String(intentId)}) does not have a successful charge to refund.`, "payment_intent", "charge_not_refundable");
    const refunded = [...this.refunds.values()].filter((r) => r.payment_intent === intentId).reduce((sum, r) => sum + Number(r.amount), 0);
    const amount = int(params.amount, "amount", false) ?? Number(intent.amount_received) - refunded;
    if (amount < 1 || refunded + amount > Number(intent.amount_received)) {
      throw invalidRequest(`Refund amount (${amount}) is greater than unrefunded amount on charge.`, "amount", "amount_too_large");
    }
    const refund = {
      ...this.base("re", "refund"),
      amount,
      currency: intent.currency,
      payment_intent: intentId,
      charge: intent.latest_charge,
      status: "succeeded",
      metadata: metadataOf(params.metadata),
    };
    this.refunds.set(refund.id, refund);
    return refund;
  }

  private cancelSubscription(id: string): Json {
    const subscription = this.subscriptions.get(id) ?? this.fail(noSuch("subscription", id));
    if (subscription.status !== "canceled") {
      const now = Math.floor(Date.now() / 1000);
      Object.assign(subscription, { status: "canceled", canceled_at: now, ended_at: now });
    }
    return this.renderSubscription(subscription, {});
  }
}

/** Starts a fake Stripe; stop it in afterAll. */
export async function startFakeStripe(options: FakeStripeOptions = {}): Promise<FakeStripe> {
  const fake = new FakeStripe(options);
  await fake.start();
  return fake;
}
