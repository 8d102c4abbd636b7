import { randomUUID } from "node:crypto";
import type { Clock } from "../../platform/clock.js";
import { apartFromAccountWrites } from "../../platform/db/account-writes.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, conflict } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import type { PaymentRow, PixTransactionRow, SubscriptionRow } from "./billing.dto.js";
import { billingRepository } from "./billing.repository.js";
import { invoiceRepository } from "./invoice.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import { CardGatewayError, type CardChargeInput, type CardGateway, type CardSubscriptionInput } from "./gateways/card/card-gateway.js";
import type { PixCharge, PixChargeInput, PixGateway } from "./gateways/pix/pix-gateway.js";
import { ACTIVE_SUBSCRIPTION_EXISTS, REPLACED, type CardChargeOutcome, type SubscriptionLifecycle } from "./subscription-lifecycle.js";

export const GATEWAY_UNAVAILABLE = "Gateway de pagamento indisponível. Tente novamente em instantes.";
export const PIX_TTL_SECONDS = 60 * 60;

/** What to ask the card gateway for: one charge, or a recurring gateway subscription charging its first period. */
export type CardRequest = { recurring: false; input: CardChargeInput } | { recurring: true; input: CardSubscriptionInput };

/** A card payment once settled, and its subscription; payment null when the money was on record already. */
export interface SettledCardPayment {
  payment: PaymentRow | null;
  subscription: SubscriptionRow | null;
}

export interface ChargeIntentsDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  cardGateway: CardGateway;
  pixGateway: PixGateway;
  lifecycle: SubscriptionLifecycle;
}

/**
 * Gateway calls that create charges, made the way payment systems make them: the intent is committed first (a
 * PENDING payment, or a PENDING subscription, with an idempotency key), the gateway is called outside any
 * transaction with that key, and its answer is settled in a second short transaction under the user's billing
 * lock. No database connection or lock is held while a gateway thinks, and a charge whose answer was lost leaves a
 * PENDING intent behind for the gateway's event (or a later look at the gateway) to settle.
 */
export class ChargeIntents {
  constructor(private readonly deps: ChargeIntentsDeps) {}

  /** The PENDING payment of a card charge about to be asked for (inside the caller's transaction). */
  async openCardPayment(tx: Db, subscription: SubscriptionRow): Promise<PaymentRow> {
    const now = this.deps.clock.now();
    return paymentRepository.insertPayment(tx, {
      userId: subscription.userId,
      subscriptionId: subscription.id,
      amountCents: subscription.priceCents,
      currency: subscription.currency,
      status: "PENDING",
      paymentMethod: "CREDIT_CARD",
      idempotencyKey: randomUUID(),
      createdAt: now,
      updatedAt: now,
    });
  }

  /**
   * Asks the card gateway for the charge of a PENDING payment and settles its answer. A gateway failure is a 502:
   * when the charge certainly did not happen the intent is removed (the payment, and a checkout's subscription);
   * when it may have, the payment stays PENDING until the gateway tells, and a checkout's subscription is FAILED so
   * the user can try again.
   */
  chargeCard(payment: PaymentRow, request: CardRequest): Promise<SettledCardPayment> {
    // Once asked, the charge is recorded even when its user's account was erased meanwhile (then returned).
    return apartFromAccountWrites(() => this.chargeCardOnce(payment, request));
  }

  private async chargeCardOnce(payment: PaymentRow, request: CardRequest): Promise<SettledCardPayment> {
    const key = payment.idempotencyKey!;
    const input = { ...request.input, idempotencyKey: key, metadata: { ...request.input.metadata, paymentKey: key } };
    let outcome: CardChargeOutcome;
    try {
      outcome = request.recurring
        ? await this.deps.cardGateway.createSubscription({ ...input, interval: request.input.interval, planName: request.input.planName })
        : await this.deps.cardGateway.charge(input);
    } catch (error) {
      this.deps.logger.error({ err: error, paymentId: payment.id }, "payment gateway call failed");
      await this.abandonCard(payment.id, !(error instanceof CardGatewayError) || error.chargeMayHaveHappened);
      throw new AppError(502, GATEWAY_UNAVAILABLE);
    }
    return this.settleCard(payment.id, outcome);
  }

  /**
   * Settles a card payment with what the gateway said of its charge, once: a payment settled meanwhile (by the
   * gateway's event) is left as it is, only the gateway's ids the answer carries are kept when missing.
   */
  async settleCard(paymentId: number, outcome: CardChargeOutcome): Promise<SettledCardPayment> {
    const { db, lifecycle } = this.deps;
    return db.transaction(async (tx) => {
      const known = await paymentRepository.findPayment(tx, paymentId);
      if (!known) return { payment: null, subscription: null };
      await billingRepository.lockUserBilling(tx, known.userId);
      const payment = await paymentRepository.findPaymentForUpdate(tx, paymentId);
      const subscription = known.subscriptionId ? await subscriptionRepository.findSubscriptionForUpdate(tx, known.subscriptionId) : null;
      if (payment?.status === "PENDING") {
        await lifecycle.settleCardPayment(tx, payment, subscription, outcome);
      } else if (payment?.status === "COMPLETED" && subscription && outcome.status === "succeeded") {
        await lifecycle.withGatewayIds(tx, subscription, outcome);
      }
      return {
        payment: await paymentRepository.findPayment(tx, paymentId),
        subscription: subscription && (await subscriptionRepository.findSubscription(tx, subscription.id)),
      };
    });
  }

  /** A card charge the gateway failed to answer: see chargeCard. */
  private async abandonCard(paymentId: number, chargeMayHaveHappened: boolean): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      const known = await paymentRepository.findPayment(tx, paymentId);
      if (!known) return;
      await billingRepository.lockUserBilling(tx, known.userId);
      const payment = await paymentRepository.findPaymentForUpdate(tx, paymentId);
      if (payment?.status !== "PENDING") return;
      const subscription = payment.subscriptionId ? await subscriptionRepository.findSubscriptionForUpdate(tx, payment.subscriptionId) : null;
      // Only a checkout's own subscription is PENDING here (renewals charge ACTIVE ones).
      const checkout = subscription?.status === "PENDING" ? subscription : null;
      if (!chargeMayHaveHappened) {
        await paymentRepository.deletePayment(tx, payment.id);
        if (checkout) await subscriptionRepository.deleteSubscription(tx, checkout.id);
      } else if (checkout) {
        await subscriptionRepository.updateSubscription(tx, checkout.id, { status: "FAILED", updatedAt: this.deps.clock.now() });
      }
    });
  }

  /**
   * Asks the PIX gateway for the charge of a PENDING subscription (its chargeKey as idempotency key: every request
   * for the same subscription gets the same charge) and records it with the subscription's PENDING invoice. A
   * gateway failure is a 502 and removes the subscription: nobody holds a QR code of it, so nothing can be paid.
   */
  chargePix(
    intent: SubscriptionRow,
    planName: string,
    customer: PixChargeInput["customer"],
  ): Promise<{ subscription: SubscriptionRow; pix: PixTransactionRow }> {
    // Once asked, the charge is recorded even when its user's account was erased meanwhile (then canceled: a 409).
    return apartFromAccountWrites(() => this.chargePixOnce(intent, planName, customer));
  }

  private async chargePixOnce(
    intent: SubscriptionRow,
    planName: string,
    customer: PixChargeInput["customer"],
  ): Promise<{ subscription: SubscriptionRow; pix: PixTransactionRow }> {
    let charge: PixCharge;
    try {
      charge = await this.deps.pixGateway.createCharge({
        amountCents: intent.priceCents,
        description: `Assinatura ${planName}`,
        reference: String(intent.id),
        customer,
        expiresInSeconds: PIX_TTL_SECONDS,
        idempotencyKey: intent.chargeKey!,
      });
    } catch (error) {
      this.deps.logger.error({ err: error, subscriptionId: intent.id }, "payment gateway call failed");
      await this.dropPixIntent(intent);
      throw new AppError(502, GATEWAY_UNAVAILABLE);
    }
    const settled = await this.settlePix(intent, charge);
    if (settled instanceof AppError) throw settled;
    return settled;
  }

  /**
   * Records a PIX charge the gateway made; a request with the same key finds it recorded. A subscription replaced
   * by a newer request (or overtaken by an ACTIVE one) meanwhile is a 409, its charge kept CANCELLED and due to be
   * canceled at the gateway (GatewayFollowUps).
   */
  private async settlePix(intent: SubscriptionRow, charge: PixCharge): Promise<{ subscription: SubscriptionRow; pix: PixTransactionRow } | AppError> {
    const { db, clock, lifecycle } = this.deps;
    return db.transaction(async (tx) => {
      await billingRepository.lockUserBilling(tx, intent.userId);
      const subscription = await subscriptionRepository.findSubscriptionForUpdate(tx, intent.id);
      // Removed by a request with the same key whose gateway call failed.
      if (!subscription) return new AppError(502, GATEWAY_UNAVAILABLE);
      const recorded = await pixTransactionRepository.findPixTransaction(tx, charge.id);
      if (recorded) return subscription.status === "CANCELED" ? conflict(REPLACED) : { subscription, pix: recorded };
      const record = (invoiceId: number | null, live: boolean) =>
        pixTransactionRepository.insertPixTransaction(tx, {
          id: charge.id,
          userId: subscription.userId,
          subscriptionId: subscription.id,
          invoiceId,
          amountCents: subscription.priceCents,
          currency: subscription.currency,
          status: live ? "PENDING" : "CANCELLED",
          gatewayCancelDue: !live,
          brCode: charge.brCode,
          brCodeBase64: charge.brCodeBase64,
          expiresAt: charge.expiresAt,
          createdAt: clock.now(),
        });
      if (subscription.status !== "PENDING") {
        await record(null, false);
        return conflict(REPLACED);
      }
      // Another request recorded a charge of this subscription already (a gateway that made a second one for the same
      // key): that one stays its only QR code, this one is canceled at the gateway.
      const current = await pixTransactionRepository.findPixTransactionOfSubscription(tx, subscription.id);
      if (current?.status === "PENDING") {
        await record(null, false);
        return { subscription, pix: current };
      }
      if (await subscriptionRepository.findActiveSubscription(tx, intent.userId)) {
        await lifecycle.cancel(tx, subscription, true, REPLACED);
        await record(null, false);
        return conflict(ACTIVE_SUBSCRIPTION_EXISTS);
      }
      await lifecycle.replacePending(tx, intent.userId, { keep: subscription.id, olderThan: true });
      const now = clock.now();
      const invoice = await invoiceRepository.insertInvoice(tx, {
        userId: subscription.userId,
        subscriptionId: subscription.id,
        amountCents: subscription.priceCents,
        currency: subscription.currency,
        status: "PENDING",
        dueDate: new Date(now.getTime() + PIX_TTL_SECONDS * 1000),
        createdAt: now,
        updatedAt: now,
      });
      return { subscription, pix: await record(invoice.id, true) };
    });
  }

  /**
   * A PIX charge paid: transaction PAID, then the money settled on its subscription (SubscriptionLifecycle
   * .settlePayment): the subscription ACTIVE with its invoice PAID, or, when it was replaced or canceled before the
   * payer paid, the money recorded for a refund (REFUND_DUE). Answers the user whose charge it is (null for an
   * unknown or already settled charge), whose gateway follow-ups the caller runs.
   */
  async settlePixPaid(transactionId: string): Promise<number | null> {
    const { db, clock, lifecycle } = this.deps;
    const known = await pixTransactionRepository.findPixTransaction(db, transactionId);
    if (!known || known.status === "PAID") return null;
    return db.transaction(async (tx) => {
      // The user's billing lock first, as checkouts take it (they cancel replaced PIX charges under it).
      await billingRepository.lockUserBilling(tx, known.userId);
      const pix = await pixTransactionRepository.findPixTransactionForUpdate(tx, transactionId);
      if (!pix || pix.status === "PAID") return null;
      await pixTransactionRepository.updatePixTransaction(tx, pix.id, { status: "PAID", paidAt: clock.now(), gatewayCancelDue: false });
      const subscription = await subscriptionRepository.findSubscriptionForUpdate(tx, pix.subscriptionId);
      if (!subscription) return null;
      const received = { amountCents: pix.amountCents, paymentMethod: "PIX" as const, transactionId: pix.id, lastFourDigits: null, invoiceId: pix.invoiceId };
      // A PIX charge pays a subscription's first period only: money for one already ACTIVE (a second charge of it
      // paid too) is returned, never a second period.
      await lifecycle.settlePayment(tx, subscription, received, { firstPeriodOnly: true });
      return known.userId;
    });
  }

  /** Removes a PIX subscription whose charge the gateway did not make (unless another request recorded one). */
  private async dropPixIntent(intent: SubscriptionRow): Promise<void> {
    await this.deps.db.transaction(async (tx) => {
      await billingRepository.lockUserBilling(tx, intent.userId);
      if (!(await pixTransactionRepository.findPixTransactionOfSubscription(tx, intent.id))) await subscriptionRepository.deleteSubscription(tx, intent.id);
    });
  }
}
