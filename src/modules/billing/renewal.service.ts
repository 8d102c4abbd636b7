import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import type { Logger } from "../../platform/logger.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { UserService } from "../users/user.service.js";
import type { PaymentRow, SubscriptionRow } from "./billing.dto.js";
import { billingMails } from "./billing.mails.js";
import { billingRepository } from "./billing.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import type { ChargeIntents } from "./charge-intents.js";
import type { GatewayFollowUps } from "./gateway-follow-ups.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";
import type { SubscriptionLifecycle } from "./subscription-lifecycle.js";
import { DAY_MS } from "../../platform/dates.js";

export const RENEWAL_LOOKAHEAD_MS = 3 * DAY_MS;
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
 * is decided under the user's billing lock, so concurrent runs (several instances) never charge twice.
 */
export class RenewalService {
  constructor(
    private readonly deps: {
      db: Db;
      clock: Clock;
      logger: Logger;
      lifecycle: SubscriptionLifecycle;
      intents: ChargeIntents;
      followUps: GatewayFollowUps;
      users: UserService;
      mail: MailOutbox;
    },
  ) {}

  async run(): Promise<RenewalRunResult> {
    const { db, clock } = this.deps;
    const now = clock.now();
    const result: RenewalRunResult = { renewed: 0, failed: 0, reminded: 0, expired: 0 };
    for (const candidate of await subscriptionRepository.findEndingSubscriptions(db, new Date(now.getTime() + RENEWAL_LOOKAHEAD_MS))) {
      try {
        const outcome = await this.handle(candidate.id);
        if (outcome) result[outcome] += 1;
      } catch (error) {
        this.deps.logger.error({ err: error, subscriptionId: candidate.id }, "renewal failed");
      }
    }
    for (const lapsed of await subscriptionRepository.findLapsedCanceled(db, now)) {
      // One failure must not keep the others from ending; it is tried again at the next run.
      try {
        await db.transaction((tx) => this.deps.lifecycle.expire(tx, lapsed));
      } catch (error) {
        this.deps.logger.error({ err: error, subscriptionId: lapsed.id }, "ending a lapsed canceled subscription failed");
      }
    }
    return result;
  }

  /**
   * One subscription, decided under the user's billing lock; a charge is committed as a PENDING payment first and
   * asked of the gateway after the lock is released (ChargeIntents). A subscription whose earlier charge is still
   * unsettled is left alone: that charge's answer is awaited, never a second charge.
   */
  private async handle(subscriptionId: number): Promise<keyof RenewalRunResult | null> {
    const { db, clock, lifecycle, intents } = this.deps;
    const decided = await db.transaction(async (tx): Promise<keyof RenewalRunResult | null | { charge: PaymentRow; subscription: SubscriptionRow }> => {
      const initial = await subscriptionRepository.findSubscription(tx, subscriptionId);
      if (!initial) return null;
      await billingRepository.lockUserBilling(tx, initial.userId);
      // Re-read under the lock: another run may have renewed it meanwhile.
      const subscription = await subscriptionRepository.findSubscriptionForUpdate(tx, subscriptionId);
      const now = clock.now();
      if (!subscription || subscription.status !== "ACTIVE" || !subscription.endDate) return null;
      if (subscription.endDate.getTime() - now.getTime() > RENEWAL_LOOKAHEAD_MS) return null;

      const chargeable = subscription.autoRenew && subscription.paymentMethod === "CREDIT_CARD" && subscription.renewalFailures < MAX_RENEWAL_TRIES;
      if (chargeable && !subscription.gatewaySubscriptionId) {
        if (await paymentRepository.findPendingPayment(tx, subscription.id)) return null;
        return { charge: await intents.openCardPayment(tx, subscription), subscription };
      }
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
    return decided !== null && typeof decided === "object" ? this.charge(decided.charge, decided.subscription) : decided;
  }

  private async charge(payment: PaymentRow, subscription: SubscriptionRow): Promise<keyof RenewalRunResult> {
    const [user, plan] = await Promise.all([
      this.deps.users.findById(subscription.userId),
      subscriptionPlanRepository.findById(this.deps.db, subscription.planId),
    ]);
    const request = {
      recurring: false as const,
      input: {
        amountCents: subscription.priceCents,
        currency: "BRL" as const,
        paymentMethodId: subscription.gatewayPaymentMethodId ?? undefined,
        customerId: subscription.gatewayCustomerId ?? undefined,
        customerEmail: user?.email ?? "",
        customerName: user?.name ?? "",
        description: `Renovação ${plan?.name ?? ""}`,
        metadata: { subscriptionId: String(subscription.id), userId: String(subscription.userId), renewal: "true" },
      },
    };
    try {
      const settled = await this.deps.intents.chargeCard(payment, request);
      return settled.payment?.status === "FAILED" ? "failed" : "renewed";
    } finally {
      // Money for a subscription canceled while it was being charged is returned.
      await this.deps.followUps.afterCommit(subscription.userId);
    }
  }

  private async remind(tx: Db, subscription: SubscriptionRow): Promise<void> {
    const now = this.deps.clock.now();
    const user = await this.deps.users.findById(subscription.userId, tx);
    const plan = await subscriptionPlanRepository.findById(tx, subscription.planId);
    if (user && plan && subscription.endDate)
      await this.deps.mail.enqueue(tx, billingMails.renewalReminder(user.email, user.name, plan.name, subscription.endDate), now);
    await subscriptionRepository.updateSubscription(tx, subscription.id, { renewalReminderSentAt: now, updatedAt: now });
  }
}
