import type { Db } from "../../platform/db/database.js";
import type { Logger } from "../../platform/logger.js";
import type { PaymentRow, PixTransactionRow } from "./billing.dto.js";
import { billingRepository } from "./billing.repository.js";
import type { ChargeIntents } from "./charge-intents.js";
import type { CardGateway } from "./gateways/card-gateway.js";
import type { PixGateway } from "./gateways/pix-gateway.js";
import type { SubscriptionLifecycle } from "./subscription-lifecycle.js";

export interface FollowUpRunResult {
  pixCanceled: number;
  refunded: number;
}

export interface GatewayFollowUpsDeps {
  db: Db;
  logger: Logger;
  cardGateway: CardGateway;
  pixGateway: PixGateway;
  lifecycle: SubscriptionLifecycle;
  intents: ChargeIntents;
}

/**
 * Gateway calls a commit leaves owed, made after that commit, outside any transaction: a replaced or canceled
 * subscription's PIX charge to cancel, money received for a subscription no longer wanted (REFUND_DUE) to return.
 * A failure is logged and left due: the job (`run`) retries everything due, for everyone, so no request ever waits
 * on a gateway that is down, and administrators see what is still owed (`GET /api/payments?status=REFUND_DUE`).
 */
export class GatewayFollowUps {
  constructor(private readonly deps: GatewayFollowUpsDeps) {}

  /** What is due for one user, right after a commit of theirs; never throws. */
  async afterCommit(userId: number): Promise<void> {
    try {
      await this.cancelPixCharges(await billingRepository.findPixCancelsDue(this.deps.db, userId));
      await this.refund(await billingRepository.findRefundsDue(this.deps.db, userId));
    } catch (error) {
      this.deps.logger.error({ err: error, userId }, "gateway follow-up failed; the job retries it");
    }
  }

  /** The job: everything due, for everyone. */
  async run(): Promise<FollowUpRunResult> {
    const pixCanceled = await this.cancelPixCharges(await billingRepository.findPixCancelsDue(this.deps.db));
    return { pixCanceled, refunded: await this.refund(await billingRepository.findRefundsDue(this.deps.db)) };
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
          await this.refund(await billingRepository.findRefundsDue(this.deps.db, charge.userId));
        }
        else if (status === "PENDING") throw new Error(`PIX gateway left charge ${charge.id} PENDING after canceling it`);
        else await billingRepository.clearPixCancelDue(this.deps.db, charge.id);
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
          const current = await billingRepository.findPaymentForUpdate(tx, payment.id);
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
