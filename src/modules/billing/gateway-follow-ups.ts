import type { Db } from "../../platform/db/database.js";
import type { Logger } from "../../platform/logger.js";
import type { PixTransactionRow } from "./billing.dto.js";
import { billingRepository } from "./billing.repository.js";
import type { ChargeIntents } from "./charge-intents.js";
import type { PixGateway } from "./gateways/pix-gateway.js";

export interface FollowUpRunResult {
  pixCanceled: number;
}

export interface GatewayFollowUpsDeps {
  db: Db;
  logger: Logger;
  pixGateway: PixGateway;
  intents: ChargeIntents;
}

/**
 * Gateway calls a commit leaves owed (a replaced or canceled subscription's PIX charge to cancel at the gateway),
 * made after that commit, outside any transaction. A failure is logged and left due: the job (`run`) retries
 * everything due, for everyone, so no request ever waits on a gateway that is down.
 */
export class GatewayFollowUps {
  constructor(private readonly deps: GatewayFollowUpsDeps) {}

  /** What is due for one user, right after a commit of theirs; never throws. */
  async afterCommit(userId: number): Promise<void> {
    try {
      await this.cancelPixCharges(await billingRepository.findPixCancelsDue(this.deps.db, userId));
    } catch (error) {
      this.deps.logger.error({ err: error, userId }, "gateway follow-up failed; the job retries it");
    }
  }

  /** The job: everything due, for everyone. */
  async run(): Promise<FollowUpRunResult> {
    return { pixCanceled: await this.cancelPixCharges(await billingRepository.findPixCancelsDue(this.deps.db)) };
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
        if (status === "PAID") await this.deps.intents.settlePixPaid(charge.id);
        else if (status === "PENDING") throw new Error(`PIX gateway left charge ${charge.id} PENDING after canceling it`);
        else await billingRepository.clearPixCancelDue(this.deps.db, charge.id);
        settled += 1;
      } catch (error) {
        this.deps.logger.warn({ err: error, transactionId: charge.id }, "PIX charge cancel failed; retried later");
      }
    }
    return settled;
  }
}
