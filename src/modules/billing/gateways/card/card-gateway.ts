/**
 * The card gateway behind one interface: the sandbox (contract §8 test cards) or Stripe. Card numbers and
 * CVVs pass through here to the gateway and are never stored or logged; only the last four digits come back.
 */
export interface CardDetails {
  number: string;
  holderName: string;
  /** "MM" */
  expMonth: string;
  /** "YYYY" */
  expYear: string;
  cvv: string;
}

export interface CardChargeInput {
  amountCents: number;
  currency: "BRL";
  /** Raw card data (a subscription bought by card) or a gateway payment method id (the payment flow's checkout). */
  card?: CardDetails;
  paymentMethodId?: string;
  /** Reuse a gateway customer (renewals); otherwise one is created for `customerEmail`. */
  customerId?: string;
  customerEmail: string;
  customerName: string;
  description: string;
  /** Always carries `subscriptionId` (our id), so the gateway's events can name the subscription. */
  metadata: Record<string, string>;
  /**
   * The charge's idempotency key (each request of the flow sends one derived from it): a request the gateway
   * receives twice, or a flow run again with the same key, charges once.
   */
  idempotencyKey?: string;
}

export type CardChargeResult =
  | {
      status: "succeeded";
      transactionId: string;
      lastFour: string | null;
      customerId: string | null;
      paymentMethodId: string | null;
    }
  | {
      status: "failed";
      transactionId: string | null;
      lastFour: string | null;
      /** Gateway decline code: `card_declined`, `insufficient_funds`, … (the `details` of a 422). */
      failureCode: string;
    };

export interface CardSubscriptionInput extends CardChargeInput {
  interval: "MONTHLY" | "QUARTERLY" | "SEMIANNUAL" | "ANNUAL";
  planName: string;
}

export type CardSubscriptionResult =
  (Extract<CardChargeResult, { status: "succeeded" }> & { gatewaySubscriptionId: string }) | Extract<CardChargeResult, { status: "failed" }>;

/** A card kept at the gateway for later charges (renewals), without charging it now. */
export interface CardSaveInput {
  card: CardDetails;
  customerId?: string;
  customerEmail: string;
  customerName: string;
  metadata: Record<string, string>;
}

export type CardSaveResult =
  | { status: "succeeded"; customerId: string; paymentMethodId: string; lastFour: string | null }
  | { status: "failed"; lastFour: string | null; failureCode: string };

/**
 * A card gateway call that failed without a decline (network, 5xx, auth, a request we got wrong). The message is
 * free of secrets. `chargeMayHaveHappened`: the request that moves money was sent and its answer is unknown, so only
 * the gateway can tell whether the card was charged; false means it certainly was not.
 */
export class CardGatewayError extends Error {
  override readonly name = "CardGatewayError";
  constructor(
    message: string,
    readonly statusCode: number | null,
    readonly type: string | null,
    readonly code: string | null,
    readonly requestId: string | null,
    readonly chargeMayHaveHappened = false,
  ) {
    super(message);
  }
}

/** Returns a charge's money (all of it). */
export interface CardRefundInput {
  /** The charge as we recorded it: a payment intent, a charge, or (gateway subscriptions) the invoice it paid. */
  transactionId: string;
  amountCents: number;
  /** The gateway refunds once per key, however many times it is asked. */
  idempotencyKey: string;
  metadata: Record<string, string>;
}

export interface CardGateway {
  readonly name: "sandbox" | "stripe";
  /** Charges one period now (a subscription bought by card, renewals). */
  charge(input: CardChargeInput): Promise<CardChargeResult>;
  /** Creates a recurring subscription at the gateway, first period charged (the payment flow's checkout by card). */
  createSubscription(input: CardSubscriptionInput): Promise<CardSubscriptionResult>;
  /** Saves a card on the customer (created when needed) as its default payment method; nothing is charged. */
  saveCard(input: CardSaveInput): Promise<CardSaveResult>;
  /** Cancels a gateway subscription (no-op for ids the gateway does not know). */
  cancelSubscription(gatewaySubscriptionId: string): Promise<void>;
  /**
   * What the gateway made of the charge asked with `idempotencyKey` (a charge or a gateway subscription whose answer
   * was lost): its outcome; `none` when it made no charge; null while it cannot tell yet (still processing).
   */
  findCharge(idempotencyKey: string): Promise<CardSubscriptionResult | CardChargeResult | { status: "none" } | null>;
  /** Refunds a charge; answers the gateway's refund id. */
  refund(input: CardRefundInput): Promise<{ refundId: string }>;
}
