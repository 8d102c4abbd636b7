import { timingSafeEqual } from "node:crypto";
import { requireOwnerOrAdmin } from "../access/ownership.js";
import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, invalidParameter, notFound } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import { isStorableText, queryId, type InputReader } from "../../platform/validation.js";
import { toPixDto, type PixTransactionDto, type SubscriptionRow } from "./billing.dto.js";
import { cardEvent, pixTransactionId, pixEventBody, type SimulatePaymentInput } from "./billing.inputs.js";
import { billingRepository } from "./billing.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import { gatewayEventRepository } from "./gateway-event.repository.js";
import { verifyCardEvent } from "./gateways/card/card-event-signature.js";
import type { PixGateway } from "./gateways/pix/pix-gateway.js";
import { GATEWAY_UNAVAILABLE, type ChargeIntents } from "./charge-intents.js";
import type { GatewayFollowUps } from "./gateway-follow-ups.js";
import type { SubscriptionLifecycle } from "./subscription-lifecycle.js";

const TRANSACTION_NOT_FOUND = "Transação não encontrada";

/** Thrown to make a gateway event's route answer with an empty body and this status (api-spec.md "Events"). */
export class GatewayEventRejected extends Error {
  constructor(readonly status: 400 | 403) {
    super(`gateway event rejected (${status})`);
  }
}

type CardEventObject = Record<string, unknown>;

export interface PaymentEventsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  pixGateway: PixGateway;
  lifecycle: SubscriptionLifecycle;
  intents: ChargeIntents;
  followUps: GatewayFollowUps;
  pixEventSecret: string | undefined;
  cardEventSecret: string | undefined;
}

/**
 * What gateways tell us: PIX payments and card events. Every path applies a payment exactly once — a
 * redelivered or concurrent event finds the work done (gateway event ids, the PIX row lock, unique transaction ids).
 */
export class PaymentEventsService {
  constructor(private readonly deps: PaymentEventsDeps) {}

  /** A PIX gateway notification: 403 on a wrong secret; unknown transactions and other statuses are ignored. */
  async receivePixEvent(secretHeader: string | undefined, rawBody: Buffer | undefined): Promise<void> {
    if (!secretMatches(this.deps.pixEventSecret, secretHeader)) throw new GatewayEventRejected(403);
    const parsed = pixEventBody.safeParse(parseJson(rawBody));
    if (!parsed.success) throw new GatewayEventRejected(400);
    const status = parsed.data.data.status.toUpperCase();
    if (status === "PAID") await this.pixPaid(parsed.data.data.id);
    else if (status === "EXPIRED" || status === "CANCELLED") await this.pixClosed(parsed.data.data.id, status);
  }

  /**
   * The owner's PIX transaction, settled first if the gateway says it is paid (polled while the QR code is shown).
   * An id no transaction can have (too long, U+0000) is 400 `Parâmetro inválido: id`.
   */
  async pixStatus(actor: Actor, transactionId: string): Promise<PixTransactionDto> {
    const caller = requireUser(actor);
    if (!pixTransactionId.safeParse(transactionId).success) throw invalidParameter("id");
    let row = await pixTransactionRepository.findPixTransaction(this.deps.db, transactionId);
    if (!row) throw notFound(TRANSACTION_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.userId);
    if (row.status === "PENDING") {
      // A lost gateway event must not leave a paid customer waiting: the poll asks the gateway too.
      const gatewayStatus = await this.deps.pixGateway.checkStatus(row.id).catch((error: unknown) => {
        this.deps.logger.warn({ err: error, transactionId }, "PIX status check failed");
        return null;
      });
      if (gatewayStatus === "PAID") await this.pixPaid(row.id);
      else if (gatewayStatus === "EXPIRED" || gatewayStatus === "CANCELLED") await this.pixClosed(row.id, gatewayStatus);
      row = (await pixTransactionRepository.findPixTransaction(this.deps.db, transactionId))!;
    }
    return toPixDto(row);
  }

  /** Pays a PIX charge as its payer would, only with a gateway that can simulate; settled like the gateway's event. */
  async simulatePixPayment(actor: Actor, readInput: InputReader<SimulatePaymentInput>): Promise<PixTransactionDto> {
    if (!this.deps.pixGateway.canSimulate) throw notFound("Recurso não encontrado");
    const caller = requireUser(actor);
    const { id } = readInput();
    const row = await pixTransactionRepository.findPixTransaction(this.deps.db, id);
    if (!row) throw notFound(TRANSACTION_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.userId);
    if (row.status === "PENDING") {
      // The sandbox keeps no money to move (and forgets its charges on restart): our records are the payment.
      if (this.deps.pixGateway.name !== "sandbox") {
        await this.deps.pixGateway.simulatePayment(id).catch((error: unknown) => {
          this.deps.logger.error({ err: error, transactionId: id }, "PIX simulate-payment failed");
          throw new AppError(502, GATEWAY_UNAVAILABLE);
        });
      }
      await this.pixPaid(id);
    }
    return toPixDto((await pixTransactionRepository.findPixTransaction(this.deps.db, id))!);
  }

  /** A card gateway event: signature checked on the raw body; 400 when invalid or failing. */
  async receiveCardEvent(rawBody: Buffer | undefined, signatureHeader: string | undefined): Promise<void> {
    const secret = this.deps.cardEventSecret;
    if (!secret || !rawBody) throw new GatewayEventRejected(400);
    const verified = await verifyCardEvent(rawBody, signatureHeader, secret, Math.floor(this.deps.clock.now().getTime() / 1000));
    const parsed = cardEvent.safeParse(verified);
    if (!parsed.success) throw new GatewayEventRejected(400);
    const event = parsed.data;
    let userId: number | null = null;
    try {
      userId = await this.deps.db.transaction(async (tx) => {
        const first = await gatewayEventRepository.claimEvent(tx, "card", event.id, event.type, this.deps.clock.now());
        if (!first) return null;
        return this.applyCardEvent(tx, event.type, event.data.object);
      });
    } catch (error) {
      if (error instanceof AppError || error instanceof GatewayEventRejected) throw new GatewayEventRejected(400);
      this.deps.logger.error({ err: error, eventId: event.id, type: event.type }, "card gateway event failed");
      throw new GatewayEventRejected(400);
    }
    if (userId !== null) await this.deps.followUps.afterCommit(userId);
  }

  /** A PIX charge paid (ChargeIntents.settlePixPaid), then what that made due at the gateways. */
  private async pixPaid(transactionId: string): Promise<void> {
    const userId = await this.deps.intents.settlePixPaid(transactionId);
    if (userId !== null) await this.deps.followUps.afterCommit(userId);
  }

  private async pixClosed(transactionId: string, status: "EXPIRED" | "CANCELLED"): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const pix = await pixTransactionRepository.findPixTransactionForUpdate(tx, transactionId);
      if (!pix || pix.status !== "PENDING") return;
      await pixTransactionRepository.updatePixTransaction(tx, pix.id, { status });
    });
  }

  /** Applies one event; answers the user it concerns (whose gateway follow-ups are then run), or null. */
  private async applyCardEvent(tx: Db, type: string, object: CardEventObject): Promise<number | null> {
    const subscription = await this.subscriptionOf(tx, type, object);
    if (!subscription) {
      this.deps.logger.info({ type }, "card event names no subscription of ours; ignored");
      return null;
    }
    await this.applyToSubscription(tx, type, object, subscription);
    return subscription.userId;
  }

  private async applyToSubscription(tx: Db, type: string, object: CardEventObject, subscription: SubscriptionRow): Promise<void> {
    const lastFour = lastFourOf(object);
    switch (type) {
      case "payment_intent.succeeded":
      case "invoice.payment_succeeded": {
        const transactionId = type === "invoice.payment_succeeded" ? (str(object.payment_intent) ?? str(object.id)) : str(object.id);
        if (transactionId && (await paymentRepository.findPaymentByTransaction(tx, transactionId))) return;
        // The charge of a checkout or renewal whose answer we are still waiting for (or lost): settled as its answer.
        const intent = await this.pendingIntentOf(tx, object, subscription);
        if (intent && transactionId) {
          const customerId = idOf(object.customer);
          const gatewaySubscriptionId = idOf(object.subscription) ?? idOf(record(record(object.parent)?.subscription_details)?.subscription);
          const outcome = {
            status: "succeeded" as const,
            transactionId,
            lastFour,
            customerId,
            paymentMethodId: idOf(object.payment_method),
            gatewaySubscriptionId,
          };
          await this.deps.lifecycle.settleCardPayment(tx, intent, subscription, outcome);
          return;
        }
        // The first invoice of a gateway subscription was paid at checkout already.
        if (object.billing_reason === "subscription_create" && subscription.status === "ACTIVE") return;
        const amountCents = num(object.amount_received) ?? num(object.amount_paid) ?? num(object.amount) ?? subscription.priceCents;
        await this.deps.lifecycle.settlePayment(tx, subscription, { amountCents, paymentMethod: "CREDIT_CARD", transactionId, lastFourDigits: lastFour });
        return;
      }
      case "payment_intent.payment_failed":
      case "invoice.payment_failed": {
        const transactionId = type === "invoice.payment_failed" ? (str(object.payment_intent) ?? str(object.id)) : str(object.id);
        if (transactionId && (await paymentRepository.findPaymentByTransaction(tx, transactionId))) return;
        const intent = await this.pendingIntentOf(tx, object, subscription);
        if (intent) {
          await this.deps.lifecycle.settleCardPayment(tx, intent, subscription, {
            status: "failed",
            transactionId,
            lastFour,
            failureCode: failureCodeOf(object),
          });
          return;
        }
        const failure = {
          amountCents: num(object.amount) ?? num(object.amount_due) ?? subscription.priceCents,
          paymentMethod: "CREDIT_CARD" as const,
          transactionId,
          lastFourDigits: lastFour,
          reason: failureCodeOf(object),
        };
        // api-spec.md "States and transitions": payment_intent.payment_failed leaves the subscription FAILED from any
        // live state (PENDING or ACTIVE; the failures of our own renewal charges were recorded above and stop there).
        // A gateway invoice's failure is one failed renewal try: recorded, the paid period kept.
        const live = subscription.status === "PENDING" || subscription.status === "ACTIVE";
        const kind = type === "payment_intent.payment_failed" && live ? "first" : "renewal";
        await this.deps.lifecycle.recordFailure(tx, subscription, failure, kind);
        return;
      }
      case "customer.subscription.deleted":
        if (subscription.status === "ACTIVE" || subscription.status === "PENDING")
          await this.deps.lifecycle.cancel(tx, subscription, true, "Cancelada no gateway");
        return;
      case "customer.subscription.created":
      case "customer.subscription.updated":
        await subscriptionRepository.updateSubscription(tx, subscription.id, {
          gatewaySubscriptionId: subscription.gatewaySubscriptionId ?? str(object.id),
          ...(object.cancel_at_period_end === true ? { autoRenew: false } : {}),
          updatedAt: this.deps.clock.now(),
        });
        return;
      default:
        return;
    }
  }

  /**
   * Our subscription named by `metadata.subscriptionId`, else by the gateway's subscription id, locked after its
   * user's billing lock (the order checkouts take them in). Invoices of current gateway API versions carry neither
   * at the top level: both are under `parent.subscription_details`.
   */
  private async subscriptionOf(tx: Db, type: string, object: CardEventObject): Promise<SubscriptionRow | null> {
    const details = record(record(object.parent)?.subscription_details) ?? {};
    // Our ids are digits within the id column's range: anything else (an out-of-range id would fail the query and
    // turn the event into a 400 the gateway redelivers forever) names no subscription of ours.
    const ownId = queryId.safeParse(String(ourMetadata(object).subscriptionId));
    const gatewayId = type.startsWith("customer.subscription.") ? str(object.id) : (idOf(object.subscription) ?? idOf(details.subscription));
    const row = ownId.success
      ? await subscriptionRepository.findSubscription(tx, ownId.data)
      : gatewayId
        ? await subscriptionRepository.findSubscriptionByGatewayId(tx, gatewayId)
        : null;
    if (!row) return null;
    await billingRepository.lockUserBilling(tx, row.userId);
    return subscriptionRepository.findSubscriptionForUpdate(tx, row.id);
  }

  /** The PENDING payment of ours the event's `metadata.paymentKey` names (our charge's idempotency key), locked. */
  private async pendingIntentOf(tx: Db, object: CardEventObject, subscription: SubscriptionRow) {
    const key = str(ourMetadata(object).paymentKey);
    const payment = key ? await paymentRepository.findPaymentByIdempotencyKey(tx, key) : null;
    if (payment?.status !== "PENDING" || payment.subscriptionId !== subscription.id) return null;
    return paymentRepository.findPaymentForUpdate(tx, payment.id);
  }
}

function secretMatches(expected: string | undefined, given: string | undefined): boolean {
  if (!expected || !given) return false;
  const a = Buffer.from(expected);
  const b = Buffer.from(given);
  return a.length === b.length && timingSafeEqual(a, b);
}

function parseJson(raw: Buffer | undefined): unknown {
  try {
    return raw ? JSON.parse(raw.toString("utf8")) : undefined;
  } catch {
    return undefined;
  }
}

/** A gateway text we can store and compare (PostgreSQL refuses U+0000 in text); anything else reads as not given. */
const str = (value: unknown) => (typeof value === "string" && value !== "" && isStorableText(value) ? value : null);
const record = (value: unknown) => (typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : null);
/** A gateway reference: the id string, or the `id` of an expanded object. */
const idOf = (value: unknown) => str(value) ?? str(record(value)?.id);
/** The metadata we gave the gateway: the object's own, else (invoices) its subscription's. */
const ourMetadata = (object: CardEventObject) => ({ ...record(record(record(object.parent)?.subscription_details)?.metadata), ...record(object.metadata) });
/** An amount in cents the payments table can hold (an integer column); anything else reads as not given. */
const num = (value: unknown) => (typeof value === "number" && Number.isInteger(value) && value >= 0 && value <= MAX_AMOUNT_CENTS ? value : null);
const MAX_AMOUNT_CENTS = 2_147_483_647;

function lastFourOf(object: CardEventObject): string | null {
  const card = ((object.payment_method_details as Record<string, unknown> | undefined)?.card ?? {}) as Record<string, unknown>;
  const last4 = str(card.last4);
  return last4 && /^\d{4}$/.test(last4) ? last4 : null;
}

function failureCodeOf(object: CardEventObject): string {
  const error = (object.last_payment_error ?? {}) as Record<string, unknown>;
  return str(error.decline_code) ?? str(error.code) ?? "payment_failed";
}
