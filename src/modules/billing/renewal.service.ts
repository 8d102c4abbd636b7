import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import type { Logger } from "../../platform/logger.js";
import { enqueueMail } from "../../platform/mail/outbox.js";
import { userRepository } from "../users/user.repository.js";
import type { SubscriptionRow } from "./billing.dto.js";
import { billingMails } from "./billing.mails.js";
import { billingRepository } from "./billing.repository.js";
import type { CardGateway } from "./gateways/card-gateway.js";
import { planRepository } from "./plan.repository.js";
import type { SubscriptionLifecycle } from "./subscription-lifecycle.js";

export const RENEWAL_LOOKAHEAD_MS = 3 * 24 * 60 * 60 * 1000;
export const MAX_RENEWAL_TRIES = 3;

export interface RenewalRunResult {
  renewed: number;
  failed: number;
  reminded: number;
  expired: number;
}

/**
 * The renewal job of contract §8: subscriptions ending within 3 days are charged again (autoRenew) or
 * reminded once; a period that ends unrenewed expires and the user goes back to FREEMIUM. Each subscription
 * is handled under the user's billing lock, so concurrent runs (several instances) never charge twice.
 */
export class RenewalService {
  constructor(private readonly deps: { db: Db; clock: Clock; logger: Logger; cardGateway: CardGateway; lifecycle: SubscriptionLifecycle }) {}

  async run(): Promise<RenewalRunResult> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const result: RenewalRunResult = { renewed: 0, failed: 0, reminded: 0, expired: 0 };
    for (const candidate of await billingRepository.findEndingSubscriptions(db, new Date(now.getTime() + RENEWAL_LOOKAHEAD_MS))) {
      try {
        const outcome = await this.handle(candidate.id);
        if (outcome) result[outcome] += 1;
      } catch (error) {
        this.deps.logger.error({ err: error, subscriptionId: candidate.id }, "renewal failed");
      }
    }
    for (const lapsed of await billingRepository.findLapsedCanceled(db, now)) {
      // One failure must not keep the others from ending; it is tried again at the next run.
      try {
        await db.transaction((tx) => this.deps.lifecycle.expire(tx, lapsed));
      } catch (error) {
        this.deps.logger.error({ err: error, subscriptionId: lapsed.id }, "ending a lapsed canceled subscription failed");
      }
    }
    return result;
  }

  private async handle(subscriptionId: number): Promise<keyof RenewalRunResult | null> {
    const { db, clock, lifecycle } = this.deps;
    return db.transaction(async (tx) => {
      const initial = await billingRepository.findSubscription(tx, subscriptionId);
      if (!initial) return null;
      await billingRepository.lockUserBilling(tx, initial.userId);
      // Re-read under the lock: another run may have renewed it meanwhile.
      const subscription = await billingRepository.findSubscriptionForUpdate(tx, subscriptionId);
      const now = clock.now();
      if (!subscription || subscription.status !== "ACTIVE" || !subscription.endDate) return null;
      if (subscription.endDate.getTime() - now.getTime() > RENEWAL_LOOKAHEAD_MS) return null;

      const chargeable = subscription.autoRenew && subscription.paymentMethod === "CREDIT_CARD" && subscription.renewalFailures < MAX_RENEWAL_TRIES;
      if (chargeable && !subscription.gatewaySubscriptionId) return this.charge(tx, subscription);
      if (subscription.endDate <= now) {
        // Gateway-managed subscriptions renew through the gateway's invoice events; lapsing without one expires.
        await lifecycle.expire(tx, subscription);
        return "expired";
      }
      if (!subscription.autoRenew && !subscription.renewalReminderSentAt) {
        await this.remind(tx, subscription);
        return "reminded";
      }
      return null;
    });
  }

  private async charge(tx: Db, subscription: SubscriptionRow): Promise<keyof RenewalRunResult> {
    const user = await userRepository.findById(tx, subscription.userId);
    const plan = await planRepository.findById(tx, subscription.planId);
    if (!user || !plan) return "failed";
    const result = await this.deps.cardGateway.charge({
      amountCents: subscription.priceCents,
      currency: "BRL",
      paymentMethodId: subscription.gatewayPaymentMethodId ?? undefined,
      customerId: subscription.gatewayCustomerId ?? undefined,
      customerEmail: user.email,
      customerName: user.name,
      description: `Renovação ${plan.name}`,
      metadata: { subscriptionId: String(subscription.id), userId: String(user.id), renewal: "true" },
    });
    if (result.status === "succeeded") {
      const received = { amountCents: subscription.priceCents, paymentMethod: "CREDIT_CARD" as const, transactionId: result.transactionId, lastFourDigits: result.lastFour };
      await this.deps.lifecycle.applyPayment(tx, subscription, received, "renewal");
      return "renewed";
    }
    const failure = {
      amountCents: subscription.priceCents,
      paymentMethod: "CREDIT_CARD" as const,
      transactionId: result.transactionId,
      lastFourDigits: result.lastFour,
      reason: result.failureCode,
    };
    await this.deps.lifecycle.recordFailure(tx, subscription, failure, "renewal");
    return "failed";
  }

  private async remind(tx: Db, subscription: SubscriptionRow): Promise<void> {
    const now = this.deps.clock.now();
    const user = await userRepository.findById(tx, subscription.userId);
    const plan = await planRepository.findById(tx, subscription.planId);
    if (user && plan && subscription.endDate) await enqueueMail(tx, billingMails.renewalReminder(user.email, user.name, plan.name, subscription.endDate), now);
    await billingRepository.updateSubscription(tx, subscription.id, { renewalReminderSentAt: now, updatedAt: now });
  }
}
