import { randomBytes } from "node:crypto";
import type {
  CardChargeInput,
  CardChargeResult,
  CardDetails,
  CardGateway,
  CardRefundInput,
  CardSaveInput,
  CardSaveResult,
  CardSubscriptionInput,
  CardSubscriptionResult,
} from "./card-gateway.js";
import { CARD_EXPIRED_MESSAGE, cardProblems, normalizeCardNumber, type CardField } from "./card-validation.js";

/**
 * The default card gateway (no STRIPE_SECRET_KEY): behaves like a gateway's test mode (contract §8) without any
 * I/O. The card number is looked at and dropped; only its last four digits come back.
 */

/** Test card numbers that are refused, with the decline code that becomes a 422/400 `details`. */
const DECLINED_CARDS: Readonly<Record<string, string>> = {
  "4000000000000002": "card_declined",
  "4000000000009995": "insufficient_funds",
};

/** Stripe's test payment-method tokens, so a client written against Stripe test mode works here too. */
const TEST_PAYMENT_METHODS: Readonly<Record<string, { lastFour: string; failureCode: string | null }>> = {
  pm_card_visa: { lastFour: "4242", failureCode: null },
  pm_card_chargeDeclined: { lastFour: "0002", failureCode: "card_declined" },
  pm_card_chargeDeclinedInsufficientFunds: { lastFour: "9995", failureCode: "insufficient_funds" },
};

/** Payment methods this sandbox issues carry the last four digits, so renewals need no stored state. */
const SANDBOX_PAYMENT_METHOD = /^pm_sandbox_(\d{4})_[0-9a-f]+$/;

/** What a card failing contract §8's checks would get from a real gateway (the service checks first anyway). */
const PROBLEM_CODES: Readonly<Record<CardField, string>> = {
  cardNumber: "incorrect_number",
  cardHolderName: "invalid_holder_name",
  cardExpirationMonth: "invalid_expiry_month",
  cardExpirationYear: "invalid_expiry_year",
  cardCvv: "invalid_cvc",
};

type Outcome = { ok: true; lastFour: string; paymentMethodId: string } | { ok: false; lastFour: string | null; failureCode: string };

function randomId(prefix: string): string {
  return `${prefix}_${randomBytes(12).toString("hex")}`;
}

export class SandboxCardGateway implements CardGateway {
  readonly name = "sandbox" as const;
  /** Each keyed charge's outcome (this process only: after a restart no charge is known, and none moved money). */
  private readonly outcomes = new Map<string, CardSubscriptionResult | CardChargeResult>();

  /** `now` decides whether an expiry is past (tests pass their clock). */
  constructor(private readonly now: () => Date = () => new Date()) {}

  async charge(input: CardChargeInput): Promise<CardChargeResult> {
    return this.remember(input, this.chargeOnce(input));
  }

  async createSubscription(input: CardSubscriptionInput): Promise<CardSubscriptionResult> {
    const result = this.chargeOnce(input);
    return this.remember(input, result.status === "failed" ? result : { ...result, gatewaySubscriptionId: randomId("sub_sandbox") });
  }

  async findCharge(idempotencyKey: string): Promise<CardSubscriptionResult | CardChargeResult | { status: "none" }> {
    return this.outcomes.get(idempotencyKey) ?? { status: "none" };
  }

  /** Keeps a keyed charge's outcome (findCharge); a key seen before answers its first outcome, as gateways do. */
  private remember<T extends CardSubscriptionResult | CardChargeResult>(input: CardChargeInput, outcome: T): T {
    if (!input.idempotencyKey) return outcome;
    if (!this.outcomes.has(input.idempotencyKey)) this.outcomes.set(input.idempotencyKey, outcome);
    return this.outcomes.get(input.idempotencyKey) as T;
  }

  private chargeOnce(input: CardChargeInput): CardChargeResult {
    const outcome = this.decide(input);
    const transactionId = randomId("ch_sandbox");
    if (!outcome.ok) {
      return { status: "failed", transactionId, lastFour: outcome.lastFour, failureCode: outcome.failureCode };
    }
    return {
      status: "succeeded",
      transactionId,
      lastFour: outcome.lastFour,
      customerId: input.customerId ?? randomId("cus_sandbox"),
      paymentMethodId: outcome.paymentMethodId,
    };
  }

  async saveCard(input: CardSaveInput): Promise<CardSaveResult> {
    const outcome = this.decideCard(input.card);
    if (!outcome.ok) return { status: "failed", lastFour: outcome.lastFour, failureCode: outcome.failureCode };
    return {
      status: "succeeded",
      customerId: input.customerId ?? randomId("cus_sandbox"),
      paymentMethodId: outcome.paymentMethodId,
      lastFour: outcome.lastFour,
    };
  }

  async cancelSubscription(_gatewaySubscriptionId: string): Promise<void> {
    // Nothing is kept, so there is nothing to cancel; unknown ids are a no-op as the interface asks.
  }

  async refund(_input: CardRefundInput): Promise<{ refundId: string }> {
    // Nothing was taken, so the refund is only a record.
    return { refundId: randomId("re_sandbox") };
  }

  private decide(input: CardChargeInput): Outcome {
    if (input.card) return this.decideCard(input.card);
    if (input.paymentMethodId !== undefined) return this.decidePaymentMethod(input.paymentMethodId);
    throw new Error("SandboxCardGateway: a charge needs card or paymentMethodId");
  }

  private decideCard(card: CardDetails): Outcome {
    const number = normalizeCardNumber(card.number);
    const lastFour = /^\d{4,}$/.test(number) ? number.slice(-4) : null;
    const [problem] = cardProblems(card, this.now());
    if (problem) {
      const failureCode = problem.message === CARD_EXPIRED_MESSAGE ? "expired_card" : PROBLEM_CODES[problem.field];
      return { ok: false, lastFour, failureCode };
    }
    const declined = DECLINED_CARDS[number];
    if (declined) return { ok: false, lastFour, failureCode: declined };
    const validLastFour = number.slice(-4); // 12–19 digits by now
    return { ok: true, lastFour: validLastFour, paymentMethodId: randomId(`pm_sandbox_${validLastFour}`) };
  }

  private decidePaymentMethod(id: string): Outcome {
    const known = Object.hasOwn(TEST_PAYMENT_METHODS, id) ? TEST_PAYMENT_METHODS[id] : undefined;
    if (known) {
      if (known.failureCode) return { ok: false, lastFour: known.lastFour, failureCode: known.failureCode };
      // A test token is cloned into a customer's own payment method, as Stripe does on attach.
      return { ok: true, lastFour: known.lastFour, paymentMethodId: randomId(`pm_sandbox_${known.lastFour}`) };
    }
    const issued = SANDBOX_PAYMENT_METHOD.exec(id);
    if (issued) return { ok: true, lastFour: issued[1], paymentMethodId: id };
    return { ok: false, lastFour: null, failureCode: "resource_missing" };
  }
}
