import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { isUniqueViolation } from "../../platform/db/constraint-violation.js";
import { conflict } from "../../platform/errors.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { UserService } from "../users/user.service.js";
import { billingMails } from "./billing.mails.js";
import { invoiceDownloadUrl, toPaymentDto, type PaymentRow, type PlanRow, type SubscriptionRow } from "./billing.dto.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import { invoiceRepository } from "./invoice.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import type { CardChargeResult } from "./gateways/card/card-gateway.js";
import type { PaymentMethod } from "../../tables/billing.table.js";
import { periodEnd } from "./billing-period.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";

export const ACTIVE_SUBSCRIPTION_EXISTS = "Você já possui uma assinatura ativa";
export const FREEMIUM = "FREEMIUM";
export const REPLACED = "Substituída por uma nova assinatura";

export interface ReceivedPayment {
  amountCents: number;
  paymentMethod: PaymentMethod;
  transactionId: string | null;
  lastFourDigits: string | null;
  /** The PENDING invoice this payment settles (PIX, boleto); otherwise a PAID invoice is issued. */
  invoiceId?: number | null;
  /** The PENDING payment written before the gateway was asked (card charges): settled instead of a new one. */
  paymentId?: number;
}

/** What a card gateway answered for a charge we asked for (or what its events and its records say of it). */
export type CardChargeOutcome =
  (Extract<CardChargeResult, { status: "succeeded" }> & { gatewaySubscriptionId?: string | null }) | Extract<CardChargeResult, { status: "failed" }>;

/**
 * The state changes every path shares (checkout, gateway events, renewals): a paid period, a failed charge, the
 * end of access. Each runs inside the caller's transaction, e-mails included.
 */
export class SubscriptionLifecycle {
  constructor(
    private readonly clock: Clock,
    private readonly users: UserService,
    private readonly mail: MailOutbox,
    /** The service's public URL, for the invoice link of a payment's event. */
    private readonly publicBaseUrl: string,
  ) {}

  /**
   * Money a gateway reports received for a subscription (a gateway event, a PIX status check). ACTIVE: the period is
   * extended, unless the money could only pay the first period (`firstPeriodOnly`: it is a second payment of it). PENDING or FAILED (a gateway's retry went through): the period starts, unless the user meanwhile holds
   * another ACTIVE subscription. CANCELED or EXPIRED: never revived, since the user or the gateway ended it. Money that
   * cannot be applied is recorded as a REFUND_DUE payment (its invoice, if any, CANCELED, never PAID) and answered
   * "refund-due": the caller has it returned at the gateway (GatewayFollowUps). Refusing the money would only make
   * the gateway deliver it again and again.
   */
  async settlePayment(
    tx: Db,
    subscription: SubscriptionRow,
    received: ReceivedPayment,
    options: { firstPeriodOnly?: boolean } = {},
  ): Promise<"applied" | "refund-due"> {
    if (subscription.status === "ACTIVE" && !options.firstPeriodOnly) {
      await this.applyPayment(tx, subscription, received, "renewal");
      return "applied";
    }
    const startable = subscription.status === "PENDING" || subscription.status === "FAILED";
    if (startable && !(await subscriptionRepository.findActiveSubscription(tx, subscription.userId))) {
      await this.applyPayment(tx, subscription, received, "first");
      return "applied";
    }
    await this.recordPayment(tx, subscription, received, "first", "REFUND_DUE");
    // Another subscription is ACTIVE: this one can never start, so it stops waiting for money.
    if (subscription.status === "PENDING") await this.cancel(tx, subscription, true, REPLACED);
    return "refund-due";
  }

  /**
   * A card gateway's answer to a charge we asked for, applied to its PENDING payment: the money settled as any
   * received money is (settlePayment), or the refusal recorded. A first payment that starts its subscription
   * replaces the user's other PENDING ones. When the money was already recorded under the gateway's transaction id
   * (an event that did not name our payment), the PENDING payment is dropped instead of counting it twice.
   */
  async settleCardPayment(
    tx: Db,
    payment: PaymentRow,
    subscription: SubscriptionRow | null,
    outcome: CardChargeOutcome,
  ): Promise<"applied" | "refund-due" | "refused" | "recorded-already"> {
    const now = this.clock.now();
    if (outcome.transactionId) {
      const recorded = await paymentRepository.findPaymentByTransaction(tx, outcome.transactionId);
      if (recorded && recorded.id !== payment.id) {
        await paymentRepository.deletePayment(tx, payment.id);
        return "recorded-already";
      }
    }
    if (!subscription) {
      // Its subscription was deleted meanwhile: the payment alone is kept, and money is returned.
      const settled = outcome.status === "succeeded" ? { status: "REFUND_DUE" as const } : { status: "FAILED" as const, failureReason: outcome.failureCode };
      await paymentRepository.updatePayment(tx, payment.id, {
        ...settled,
        transactionId: outcome.transactionId,
        lastFourDigits: outcome.lastFour,
        updatedAt: now,
      });
      return outcome.status === "succeeded" ? "refund-due" : "refused";
    }
    if (outcome.status === "failed") {
      const failure = {
        paymentId: payment.id,
        amountCents: payment.amountCents,
        paymentMethod: payment.paymentMethod,
        transactionId: outcome.transactionId,
        lastFourDigits: outcome.lastFour,
        reason: outcome.failureCode,
      };
      await this.recordFailure(tx, subscription, failure, subscription.status === "ACTIVE" ? "renewal" : "first");
      return "refused";
    }
    const first = subscription.status !== "ACTIVE";
    const charged = first ? await this.withGatewayIds(tx, subscription, outcome) : subscription;
    const received = {
      paymentId: payment.id,
      amountCents: payment.amountCents,
      paymentMethod: payment.paymentMethod,
      transactionId: outcome.transactionId,
      lastFourDigits: outcome.lastFour,
    };
    const settled = await this.settlePayment(tx, charged, received);
    if (settled === "applied" && first) await this.replacePending(tx, subscription.userId, { keep: subscription.id });
    return settled;
  }

  /** Records on a subscription the gateway's ids its first card charge gave (those it does not have yet). */
  async withGatewayIds(tx: Db, subscription: SubscriptionRow, outcome: Extract<CardChargeOutcome, { status: "succeeded" }>): Promise<SubscriptionRow> {
    return subscriptionRepository.updateSubscription(tx, subscription.id, {
      gatewayCustomerId: subscription.gatewayCustomerId ?? outcome.customerId,
      gatewayPaymentMethodId: subscription.gatewayPaymentMethodId ?? outcome.paymentMethodId,
      gatewaySubscriptionId: subscription.gatewaySubscriptionId ?? outcome.gatewaySubscriptionId ?? null,
      lastFourDigits: subscription.lastFourDigits ?? outcome.lastFour,
    });
  }

  /**
   * Cancels the user's PENDING subscriptions (their invoices and PIX charges too) a newer one replaces: all but
   * `keep`, or with `olderThan` only those created before that one (a newer request wins over an older one).
   */
  async replacePending(tx: Db, userId: number, which: { keep: number; olderThan?: boolean }): Promise<void> {
    for (const earlier of await subscriptionRepository.findSubscriptionsByStatus(tx, userId, ["PENDING"])) {
      if (earlier.id === which.keep || (which.olderThan && earlier.id > which.keep)) continue;
      await this.cancel(tx, earlier, true, REPLACED);
    }
  }

  /**
   * A payment received for a subscription: one COMPLETED payment, its invoice PAID, the period started (PENDING)
   * or extended (ACTIVE), the user's access updated and a confirmation e-mailed.
   */
  async applyPayment(tx: Db, subscription: SubscriptionRow, received: ReceivedPayment, kind: "first" | "renewal"): Promise<SubscriptionRow> {
    const now = this.clock.now();
    const plan = await this.plan(tx, subscription.planId);
    const periodStart = kind === "renewal" && subscription.endDate && subscription.endDate > now ? subscription.endDate : now;
    const endDate = periodEnd(periodStart, plan.interval);
    await this.recordPayment(tx, subscription, received, kind);
    const updated = await this.activate(tx, subscription, {
      status: "ACTIVE",
      startDate: kind === "first" ? now : (subscription.startDate ?? now),
      endDate,
      renewalDate: endDate,
      renewalFailures: 0,
      renewalReminderSentAt: null,
      lastFourDigits: received.lastFourDigits ?? subscription.lastFourDigits,
      updatedAt: now,
    });
    await this.users.setSubscriptionAccess(subscription.userId, plan.subscriptionType, endDate, now, tx);
    const user = await this.users.findById(subscription.userId, tx);
    if (user) {
      const message =
        kind === "renewal"
          ? billingMails.renewed(user.email, user.name, plan.name, received.amountCents, endDate)
          : billingMails.paymentConfirmed(user.email, user.name, plan.name, received.amountCents, endDate);
      await this.mail.enqueue(tx, message, now);
    }
    return updated;
  }

  /**
   * A refused charge: one FAILED payment and, for a first payment, the subscription FAILED (an ACTIVE one loses the
   * access it gave: contract §8, only ACTIVE or canceled-in-period subscriptions give access); the user is told.
   */
  async recordFailure(
    tx: Db,
    subscription: SubscriptionRow,
    failure: {
      amountCents: number;
      paymentMethod: PaymentMethod;
      transactionId: string | null;
      lastFourDigits: string | null;
      reason: string;
      paymentId?: number;
    },
    kind: "first" | "renewal",
  ): Promise<SubscriptionRow> {
    const now = this.clock.now();
    const outcome = {
      status: "FAILED" as const,
      lastFourDigits: failure.lastFourDigits,
      transactionId: failure.transactionId,
      failureReason: failure.reason,
      updatedAt: now,
    };
    if (failure.paymentId !== undefined) {
      await paymentRepository.updatePayment(tx, failure.paymentId, outcome);
    } else {
      await paymentRepository.insertPayment(tx, {
        ...outcome,
        userId: subscription.userId,
        subscriptionId: subscription.id,
        amountCents: failure.amountCents,
        currency: subscription.currency,
        paymentMethod: failure.paymentMethod,
        createdAt: now,
      });
    }
    const updated =
      kind === "first"
        ? await subscriptionRepository.updateSubscription(tx, subscription.id, { status: "FAILED", updatedAt: now })
        : await subscriptionRepository.updateSubscription(tx, subscription.id, { renewalFailures: subscription.renewalFailures + 1, updatedAt: now });
    if (kind === "first" && subscription.status === "ACTIVE") await this.endAccessUnlessHeld(tx, subscription.userId, now);
    const plan = await this.plan(tx, subscription.planId);
    const user = await this.users.findById(subscription.userId, tx);
    if (user) await this.mail.enqueue(tx, billingMails.paymentFailed(user.email, user.name, plan.name, failure.reason), now);
    return updated;
  }

  /**
   * One COMPLETED payment and its invoice PAID: a first payment settles the invoice a PIX or boleto subscription was
   * waiting on, whatever path paid it (contract §8: "that invoice PAID"); otherwise a PAID invoice is issued for it.
   * Money to be returned (REFUND_DUE) is linked to the invoice it paid, which reads CANCELED; none is issued for it.
   */
  private async recordPayment(
    tx: Db,
    subscription: SubscriptionRow,
    received: ReceivedPayment,
    kind: "first" | "renewal",
    status: "COMPLETED" | "REFUND_DUE" = "COMPLETED",
  ): Promise<void> {
    const now = this.clock.now();
    const completed = { status, lastFourDigits: received.lastFourDigits, transactionId: received.transactionId, updatedAt: now };
    const payment =
      received.paymentId !== undefined
        ? await paymentRepository.updatePayment(tx, received.paymentId, completed)
        : await paymentRepository.insertPayment(tx, {
            ...completed,
            userId: subscription.userId,
            subscriptionId: subscription.id,
            amountCents: received.amountCents,
            currency: subscription.currency,
            paymentMethod: received.paymentMethod,
            createdAt: now,
          });
    let invoiceId = received.invoiceId ?? (kind === "first" ? await invoiceRepository.findPendingInvoiceId(tx, subscription.id) : null);
    if (invoiceId) {
      await invoiceRepository.updateInvoice(tx, invoiceId, {
        status: status === "COMPLETED" ? "PAID" : "CANCELED",
        paidAt: now,
        paymentId: payment.id,
        updatedAt: now,
      });
    } else if (status === "COMPLETED") {
      ({ id: invoiceId } = await invoiceRepository.insertInvoice(tx, {
        userId: subscription.userId,
        subscriptionId: subscription.id,
        paymentId: payment.id,
        amountCents: received.amountCents,
        currency: subscription.currency,
        status: "PAID",
        dueDate: now,
        paidAt: now,
        createdAt: now,
        updatedAt: now,
      }));
    }
    if (status === "COMPLETED") await emit(tx, now, await this.paymentCompleted(tx, payment, invoiceId));
  }

  /** The `payment.completed` event of a payment as just recorded, for its user (contract §14.1). */
  private async paymentCompleted(tx: Db, payment: PaymentRow, invoiceId: number | null): Promise<DomainEventOf<"payment.completed">> {
    const user = await this.users.findById(payment.userId, tx);
    const planNames = await subscriptionRepository.planNamesBySubscription(tx, payment.subscriptionId === null ? [] : [payment.subscriptionId]);
    const data = toPaymentDto(payment, {
      userName: user?.name ?? "",
      planName: payment.subscriptionId === null ? null : (planNames.get(payment.subscriptionId) ?? null),
      invoiceUrl: invoiceId === null ? null : invoiceDownloadUrl(this.publicBaseUrl, invoiceId),
    });
    return { type: "payment.completed", subjectUserIds: [payment.userId], data };
  }

  /** Money returned at the gateway: the payment REFUNDED (with the gateway's refund id), its invoice too; the user is told. */
  async recordRefund(tx: Db, payment: PaymentRow, refundId: string): Promise<void> {
    const now = this.clock.now();
    await paymentRepository.updatePayment(tx, payment.id, { status: "REFUNDED", refundId, updatedAt: now });
    await invoiceRepository.refundInvoicesOf(tx, payment.id, now);
    const user = await this.users.findById(payment.userId, tx);
    const subscription = payment.subscriptionId ? await subscriptionRepository.findSubscription(tx, payment.subscriptionId) : null;
    const plan = subscription ? await subscriptionPlanRepository.findById(tx, subscription.planId) : null;
    if (user) await this.mail.enqueue(tx, billingMails.refunded(user.email, user.name, plan?.name ?? "", payment.amountCents), now);
  }

  /** Cancels; `endsNow` also ends access at once (user back to FREEMIUM), otherwise access lasts until endDate. */
  async cancel(tx: Db, subscription: SubscriptionRow, endsNow: boolean, reason: string | null): Promise<SubscriptionRow> {
    const now = this.clock.now();
    const endDate = endsNow || !subscription.endDate || subscription.status !== "ACTIVE" ? now : subscription.endDate;
    const updated = await subscriptionRepository.updateSubscription(tx, subscription.id, {
      status: "CANCELED",
      canceledAt: now,
      cancelReason: reason,
      renewalDate: null,
      autoRenew: false,
      endDate,
      updatedAt: now,
    });
    await invoiceRepository.cancelPendingInvoices(tx, subscription.id, now);
    await pixTransactionRepository.cancelPendingPix(tx, subscription.id);
    const plan = await this.plan(tx, subscription.planId);
    if (subscription.status === "ACTIVE") {
      if (endsNow) await this.users.setSubscriptionAccess(subscription.userId, FREEMIUM, null, now, tx);
      const user = await this.users.findById(subscription.userId, tx);
      if (user) await this.mail.enqueue(tx, billingMails.canceled(user.email, user.name, plan.name, endsNow ? null : endDate), now);
    }
    return updated;
  }

  /** The period ran out without renewal: EXPIRED (or kept CANCELED), user back to FREEMIUM. */
  async expire(tx: Db, subscription: SubscriptionRow): Promise<void> {
    const now = this.clock.now();
    if (subscription.status === "ACTIVE") {
      await subscriptionRepository.updateSubscription(tx, subscription.id, { status: "EXPIRED", renewalDate: null, updatedAt: now });
      const plan = await this.plan(tx, subscription.planId);
      const user = await this.users.findById(subscription.userId, tx);
      if (user) await this.mail.enqueue(tx, billingMails.expired(user.email, user.name, plan.name), now);
    }
    await this.endAccessUnlessHeld(tx, subscription.userId, now);
  }

  /**
   * Back to FREEMIUM, unless another subscription still gives access (ACTIVE, or CANCELED until its endDate: a plan
   * bought after canceling this one). The user row is written only when it changes, since the renewal job looks at
   * every lapsed canceled subscription at each run.
   */
  private async endAccessUnlessHeld(tx: Db, userId: number, now: Date): Promise<void> {
    const current = await subscriptionRepository.findCurrentSubscription(tx, userId, now);
    if (current && current.status !== "PENDING") return;
    const user = await this.users.findById(userId, tx);
    if (user && (user.subscriptionType !== FREEMIUM || user.subscriptionExpiresAt !== null)) {
      await this.users.setSubscriptionAccess(userId, FREEMIUM, null, now, tx);
    }
  }

  private async activate(tx: Db, subscription: SubscriptionRow, changes: Parameters<typeof subscriptionRepository.updateSubscription>[2]) {
    try {
      return await subscriptionRepository.updateSubscription(tx, subscription.id, changes);
    } catch (error) {
      // The one-ACTIVE-per-user index: another subscription of this user became active first.
      if (isUniqueViolation(error, "subscriptions_one_active_per_user")) throw conflict(ACTIVE_SUBSCRIPTION_EXISTS);
      throw error;
    }
  }

  private async plan(tx: Db, planId: number): Promise<PlanRow> {
    const plan = await subscriptionPlanRepository.findById(tx, planId);
    if (!plan) throw new Error(`plan ${planId} of a subscription is missing`);
    return plan;
  }
}
