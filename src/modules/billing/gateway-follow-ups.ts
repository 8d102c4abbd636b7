import { apartFromAccountWrites } from "../../platform/db/account-writes.js";
import type { UserService } from "../users/user.service.js";
import type { PaymentRow, PixTransactionRow } from "./billing.dto.js";
import { billingRepository } from "./billing.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import type { ChargeIntents, ChargeIntentsDeps } from "./charge-intents.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";
import type { CardChargeOutcome } from "./subscription-lifecycle.js";

/** How old an unsettled charge must be before the gateway is asked about it: past any gateway call still under way. */
export const RECONCILE_AFTER_MS = 5 * 60_000;
/** The failure recorded for a card charge the gateway says it never made. */
export const NO_CHARGE_AT_GATEWAY = "gateway_no_charge";

export interface FollowUpRunResult {
  reconciled: number;
  pixCanceled: number;
  refunded: number;
}

export interface GatewayFollowUpsDeps extends ChargeIntentsDeps {
  intents: ChargeIntents;
  users: UserService;
}

/**
 * Gateway calls a commit leaves owed, made after that commit, outside any transaction: a replaced or canceled
 * subscription's PIX charge to cancel, money received for a subscription no longer wanted (REFUND_DUE) to return.
 * A failure is logged and left due: the job (`run`) retries everything due, for everyone, so no request ever waits
 * on a gateway that is down, and administrators see what is still owed (`GET /api/payments?status=REFUND_DUE`).
 * The job also settles charges whose answer was lost (a crash or a lost connection between the gateway's answer
 * and its settlement), asking the gateway about them by their idempotency key.
 */
export class GatewayFollowUps {
  constructor(private readonly deps: GatewayFollowUpsDeps) {}

  /** What is due for one user, right after a commit of theirs (even when their account was erased since); never throws. */
  async afterCommit(userId: number): Promise<void> {
    try {
      await apartFromAccountWrites(async () => {
        await this.cancelPixCharges(await pixTransactionRepository.findPixCancelsDue(this.deps.db, userId));
        await this.refund(await paymentRepository.findRefundsDue(this.deps.db, userId));
      });
    } catch (error) {
      this.deps.logger.error({ err: error, userId }, "gateway follow-up failed; the job retries it");
    }
  }

  /** The job: unsettled charges asked of their gateway, then everything due, for everyone. */
  async run(): Promise<FollowUpRunResult> {
    const reconciled = await this.reconcile();
    const pixCanceled = await this.cancelPixCharges(await pixTransactionRepository.findPixCancelsDue(this.deps.db));
    return { reconciled, pixCanceled, refunded: await this.refund(await paymentRepository.findRefundsDue(this.deps.db)) };
  }

  /** Cancels a gateway subscription we no longer want charged; a failure is logged (the gateway's cancel event, or support, settles it). */
  async cancelGatewaySubscription(gatewaySubscriptionId: string): Promise<void> {
    try {
      await this.deps.cardGateway.cancelSubscription(gatewaySubscriptionId);
    } catch (error) {
      this.deps.logger.error({ err: error, gatewaySubscriptionId }, "gateway cancel failed");
    }
  }

  /**
   * Charges asked of a gateway at least RECONCILE_AFTER_MS ago and never settled: a card charge is looked up by its
   * key and settled with what the gateway made of it (nothing made: a failure); a PIX charge is asked again with its
   * key (the gateway answers the charge it made, or makes it) and recorded. Answers how many were settled.
   */
  private async reconcile(): Promise<number> {
    const { db, clock, cardGateway, intents, logger } = this.deps;
    const before = new Date(clock.now().getTime() - RECONCILE_AFTER_MS);
    let settled = 0;
    for (const payment of await paymentRepository.findUnsettledCardCharges(db, before)) {
      try {
        const found = await cardGateway.findCharge(payment.idempotencyKey!);
        if (found === null) continue;
        const outcome: CardChargeOutcome =
          found.status === "none" ? { status: "failed", transactionId: null, lastFour: null, failureCode: NO_CHARGE_AT_GATEWAY } : found;
        const { subscription } = await intents.settleCard(payment.id, outcome);
        // A first charge whose money is returned must not leave a gateway subscription charging on.
        if (found.status === "succeeded" && subscription?.status === "CANCELED" && subscription.gatewaySubscriptionId) {
          await this.cancelGatewaySubscription(subscription.gatewaySubscriptionId);
        }
        settled += 1;
      } catch (error) {
        logger.warn({ err: error, paymentId: payment.id }, "settling an unanswered card charge failed; retried later");
      }
    }
    for (const checkout of await subscriptionRepository.findUnsettledPixCheckouts(db, before)) {
      try {
        const [user, plan] = await Promise.all([this.deps.users.findById(checkout.userId), subscriptionPlanRepository.findById(db, checkout.planId)]);
        await intents.chargePix(checkout, plan?.name ?? "", { name: user?.name ?? "", email: user?.email ?? "" });
        settled += 1;
      } catch (error) {
        logger.warn({ err: error, subscriptionId: checkout.id }, "settling an unanswered PIX charge failed");
      }
    }
    return settled;
  }

  /**
   * Cancels PIX charges at the gateway; answers how many are settled. A charge the gateway reports PAID was paid
   * before the cancel reached it: that money is settled like any payment (and refunded when unwanted).
   */
  private async cancelPixCharges(due: PixTransactionRow[]): Promise<number> {
    let settled = 0;
    for (const charge of due) {
      try {
        const status = await this.deps.pixGateway.cancelCharge(charge.id);
        if (status === "PAID") {
          await this.deps.intents.settlePixPaid(charge.id);
          await this.refund(await paymentRepository.findRefundsDue(this.deps.db, charge.userId));
        } else if (status === "PENDING") throw new Error(`PIX gateway left charge ${charge.id} PENDING after canceling it`);
        else await pixTransactionRepository.clearPixCancelDue(this.deps.db, charge.id);
        settled += 1;
      } catch (error) {
        this.deps.logger.warn({ err: error, transactionId: charge.id }, "PIX charge cancel failed; retried later");
      }
    }
    return settled;
  }

  /**
   * Returns REFUND_DUE payments at their gateway, each once (the idempotency key derives from the gateway's
   * transaction id), then records them REFUNDED; answers how many were.
   */
  private async refund(due: PaymentRow[]): Promise<number> {
    let refunded = 0;
    for (const payment of due) {
      try {
        const refundId = await this.refundAtGateway(payment);
        await this.deps.db.transaction(async (tx) => {
          await billingRepository.lockUserBilling(tx, payment.userId);
          const current = await paymentRepository.findPaymentForUpdate(tx, payment.id);
          if (current?.status === "REFUND_DUE") await this.deps.lifecycle.recordRefund(tx, current, refundId);
        });
        refunded += 1;
      } catch (error) {
        this.deps.logger.warn({ err: error, paymentId: payment.id }, "refund failed; retried later");
      }
    }
    return refunded;
  }

  private async refundAtGateway(payment: PaymentRow): Promise<string> {
    const { transactionId, amountCents } = payment;
    if (!transactionId) throw new Error(`payment ${payment.id} has no gateway transaction to refund`);
    const idempotencyKey = `refund:${transactionId}`;
    switch (payment.paymentMethod) {
      case "PIX":
        return (await this.deps.pixGateway.refundCharge(transactionId, amountCents, idempotencyKey)).refundId;
      case "CREDIT_CARD": {
        const metadata = { paymentId: String(payment.id), userId: String(payment.userId) };
        return (await this.deps.cardGateway.refund({ transactionId, amountCents, idempotencyKey, metadata })).refundId;
      }
      default:
        throw new Error(`no gateway refunds ${payment.paymentMethod} payments`);
    }
  }
}
