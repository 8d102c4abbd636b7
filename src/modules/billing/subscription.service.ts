import { z } from "zod";
import { isOwnerOrAdmin, requireOwnerOrAdmin } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, conflict, forbidden, notFound } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import type { DatedInputReader, InputReader } from "../../platform/validation.js";
import type { UserService } from "../users/user.service.js";
import {
  toCheckoutSubscriptionDto,
  toSubscriptionDto,
  type CheckoutSubscriptionDto,
  type SubscriptionDto,
  type SubscriptionRow,
  subscriptionSchema,
} from "./billing.dto.js";
import { cardDetailsOf, type CancelInput, type UpdateSubscriptionInput } from "./billing.inputs.js";
import { billingRepository } from "./billing.repository.js";
import { GATEWAY_UNAVAILABLE } from "./charge-intents.js";
import type { GatewayFollowUps } from "./gateway-follow-ups.js";
import type { CardDetails, CardGateway } from "./gateways/card/card-gateway.js";
import { paymentRepository } from "./payment.repository.js";
import type { SubscriptionLifecycle } from "./subscription-lifecycle.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";
import type { SubscriptionPlanService } from "./subscription-plan.service.js";
import { subscriptionRepository } from "./subscription.repository.js";
import type { FeedSource } from "../events/feed-source.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { SUBSCRIPTION_STATUSES } from "../../tables/billing.table.js";

export const SUBSCRIPTION_NOT_FOUND = "Assinatura não encontrada";
export const ALREADY_CANCELED = "Esta assinatura já está cancelada";
export const PAYMENT_REFUSED = "Pagamento recusado";
const NOT_CANCELABLE = "Esta assinatura não está ativa";
const ACCOUNT_ERASED = "Conta removida pelo titular (LGPD)";

export interface SubscriptionServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  subscriptionPlans: SubscriptionPlanService;
  cardGateway: CardGateway;
  lifecycle: SubscriptionLifecycle;
  followUps: GatewayFollowUps;
  users: UserService;
}

/** What the data export holds of this module (contract §15). */
const subscriptionExport = z.object({ subscriptions: z.array(subscriptionSchema).describe("Every subscription the user had, whatever its status") });

/** A user's subscriptions once made (CheckoutService makes them): reading them, changing how they renew, canceling. */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  /** The caller's subscription giving access, else their latest PENDING one. */
  async mySubscription(actor: Actor): Promise<SubscriptionDto> {
    return this.toDto(await this.loadCurrent(requireUser(actor)));
  }

  /**
   * Per user, in order: the subscription giving access (else the latest PENDING one) or null, read for a whole list
   * in one query; a user other than the caller gives a 403 error in place, unless the caller is an administrator.
   */
  async currentOfUsers(actor: Actor, userIds: readonly number[]): Promise<Array<SubscriptionDto | null | AppError>> {
    const caller = requireUser(actor);
    const readable = userIds.filter((id) => isOwnerOrAdmin(caller, id));
    const rows = await subscriptionRepository.findCurrentSubscriptions(this.deps.db, readable, this.deps.clock.now());
    const dtos = await this.toDtos(rows);
    const byUser = new Map(dtos.map((dto) => [dto.userId, dto]));
    return userIds.map((id) => (isOwnerOrAdmin(caller, id) ? (byUser.get(id) ?? null) : forbidden()));
  }

  /** One subscription: the owner's, or for administrators anyone's. */
  async get(actor: Actor, id: number): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    return this.toDto(await this.loadOwned(caller, id));
  }

  /** The caller's subscription giving access, else their latest PENDING one, in the payment flow's shape. */
  async currentCheckout(actor: Actor): Promise<CheckoutSubscriptionDto> {
    return this.toCheckoutDto(await this.loadCurrent(requireUser(actor)));
  }

  /** Changes autoRenew and the payment method; a new card is verified by the gateway's rules and becomes what renewals charge. */
  async update(actor: Actor, id: number, readInput: DatedInputReader<UpdateSubscriptionInput>): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = readInput(this.deps.clock.now());
    const subscription = await this.loadOwned(caller, id);
    if (subscription.status === "CANCELED" || subscription.status === "EXPIRED" || subscription.status === "FAILED") {
      throw conflict(NOT_CANCELABLE);
    }
    // A new card is saved at the gateway (not charged) and becomes what the renewals charge.
    const newCard = input.cardNumber != null ? await this.saveCard(subscription, cardDetailsOf(input)) : null;
    const updated = await this.deps.db.transaction((tx) =>
      subscriptionRepository.updateSubscription(tx, id, {
        ...(input.autoRenew !== undefined ? { autoRenew: input.autoRenew } : {}),
        ...(input.paymentMethod ? { paymentMethod: input.paymentMethod } : {}),
        ...(newCard
          ? {
              paymentMethod: "CREDIT_CARD" as const,
              gatewayCustomerId: newCard.customerId,
              gatewayPaymentMethodId: newCard.paymentMethodId,
              lastFourDigits: newCard.lastFour,
            }
          : {}),
        updatedAt: this.deps.clock.now(),
      }),
    );
    return this.toDto(updated);
  }

  /** Saves a card for a subscription's renewals; a refusal is 422 `Pagamento recusado` with the gateway's code. */
  private async saveCard(subscription: SubscriptionRow, card: CardDetails) {
    const user = await this.deps.users.findById(subscription.userId);
    if (!user) throw notFound(SUBSCRIPTION_NOT_FOUND);
    const result = await this.callGateway(() =>
      this.deps.cardGateway.saveCard({
        card,
        customerId: subscription.gateway === this.deps.cardGateway.name ? (subscription.gatewayCustomerId ?? undefined) : undefined,
        customerEmail: user.email,
        customerName: user.name,
        metadata: { subscriptionId: String(subscription.id), userId: String(user.id) },
      }),
    );
    if (result.status === "failed") throw new AppError(422, PAYMENT_REFUSED, { details: result.failureCode });
    return result;
  }

  /**
   * Cancels an ACTIVE or PENDING subscription, at the gateway too: at once (`cancelImmediately`) or with access until
   * the end of the paid period.
   */
  async cancel(actor: Actor, id: number, readInput: InputReader<CancelInput>): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = readInput();
    const owned = await this.loadOwned(caller, id);
    const canceled = await this.deps.db.transaction(async (tx) => {
      await billingRepository.lockUserBilling(tx, owned.userId);
      const subscription = await subscriptionRepository.findSubscriptionForUpdate(tx, id);
      if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
      if (subscription.status === "CANCELED") throw conflict(ALREADY_CANCELED);
      if (subscription.status !== "ACTIVE" && subscription.status !== "PENDING") throw conflict(NOT_CANCELABLE);
      return this.deps.lifecycle.cancel(tx, subscription, input.cancelImmediately, input.reason ?? null);
    });
    if (canceled.gatewaySubscriptionId) await this.deps.followUps.cancelGatewaySubscription(canceled.gatewaySubscriptionId);
    await this.deps.followUps.afterCommit(owned.userId);
    return this.toDto(canceled);
  }

  /** Cancels as cancel does (at once unless told otherwise: cancelCheckoutInput); the payment flow's shape. */
  async cancelCheckout(actor: Actor, id: number, readInput: InputReader<CancelInput>): Promise<CheckoutSubscriptionDto> {
    const canceled = await this.cancel(actor, id, readInput);
    const row = await subscriptionRepository.findSubscription(this.deps.db, canceled.id);
    return this.toCheckoutDto(row!);
  }

  /**
   * A user's subscriptions (contract §15). Erasure cancels the ACTIVE and PENDING ones at once, as `cancel` does: the
   * cancellation committed first, the gateway told after the commit (and a PIX charge left due, retried by the job).
   */
  readonly personalData: PersonalDataHolder<typeof subscriptionExport> = {
    exportSections: subscriptionExport,
    exportPersonalData: async (db, userId) => ({
      subscriptions: await this.toDtos(await subscriptionRepository.findSubscriptionsByStatus(db, userId, [...SUBSCRIPTION_STATUSES]), db),
    }),
    erasePersonalData: async (tx, userId) => {
      await billingRepository.lockUserBilling(tx, userId);
      const live = await subscriptionRepository.findSubscriptionsByStatus(tx, userId, ["ACTIVE", "PENDING"]);
      const gatewayIds: string[] = [];
      for (const subscription of live) {
        const canceled = await this.deps.lifecycle.cancel(tx, subscription, true, ACCOUNT_ERASED);
        if (canceled.gatewaySubscriptionId) gatewayIds.push(canceled.gatewaySubscriptionId);
      }
      return async () => {
        for (const id of gatewayIds) await this.deps.followUps.cancelGatewaySubscription(id);
        await this.deps.followUps.afterCommit(userId);
      };
    },
  };

  /** The change feed's subscriptions (contract §13.3): the reader's own, as GET /subscriptions/{id} answers them. */
  readonly feed: FeedSource<SubscriptionDto> = {
    load: async (reader, ids) => {
      const dtos = await this.toDtos(await subscriptionRepository.findSubscriptionsOf(this.deps.db, reader.id, ids));
      return new Map(dtos.map((dto) => [dto.id, dto]));
    },
    idsAfter: (reader, afterId, limit) => subscriptionRepository.subscriptionIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  /** A subscription in the contract's shape. */
  async toDto(row: SubscriptionRow): Promise<SubscriptionDto> {
    const [dto] = await this.toDtos([row]);
    return dto;
  }

  /** Subscriptions in the contract's shape: their plans and users read once for the whole list. */
  private async toDtos(rows: SubscriptionRow[], db: Db = this.deps.db): Promise<SubscriptionDto[]> {
    const [plans, users] = await Promise.all([
      subscriptionPlanRepository.findByIds(db, [...new Set(rows.map((row) => row.planId))]),
      this.deps.users.findByIds([...new Set(rows.map((row) => row.userId))], db),
    ]);
    const planById = new Map(plans.map((plan) => [plan.id, plan]));
    const userById = new Map(users.map((user) => [user.id, user]));
    return rows.map((row) => toSubscriptionDto(row, { planName: planById.get(row.planId)!.name, userName: userById.get(row.userId)?.name ?? "" }));
  }

  /** A subscription in the payment flow's shape. */
  async toCheckoutDto(row: SubscriptionRow): Promise<CheckoutSubscriptionDto> {
    const [plan, user, payment] = await Promise.all([
      this.deps.subscriptionPlans.load(row.planId),
      this.deps.users.findById(row.userId),
      paymentRepository.latestPayment(this.deps.db, row.id),
    ]);
    return toCheckoutSubscriptionDto(row, plan, user, payment);
  }

  /** The caller's subscription giving access, else their latest PENDING one, else 404. */
  private async loadCurrent(caller: UserActor): Promise<SubscriptionRow> {
    const row = await subscriptionRepository.findCurrentSubscription(this.deps.db, caller.id, this.deps.clock.now());
    if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return row;
  }

  /** The owner's (or, for administrators, anyone's) subscription, else 404 / 403. */
  private async loadOwned(caller: UserActor, id: number): Promise<SubscriptionRow> {
    const row = await subscriptionRepository.findSubscription(this.deps.db, id);
    if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
    requireOwnerOrAdmin(caller, row.userId);
    return row;
  }

  /** A gateway that cannot be reached is a 502. */
  private async callGateway<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      this.deps.logger.error({ err: error }, "payment gateway call failed");
      throw new AppError(502, GATEWAY_UNAVAILABLE);
    }
  }
}
