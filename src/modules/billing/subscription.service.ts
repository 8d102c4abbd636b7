import { randomUUID } from "node:crypto";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, conflict, forbidden, notFound } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import { parseInput } from "../../platform/validation.js";
import { userRepository } from "../users/user.repository.js";
import {
  toCheckoutSubscriptionDto,
  toPixDto,
  toSubscriptionDto,
  type CheckoutSubscriptionDto,
  type PixTransactionDto,
  type PlanRow,
  type SubscriptionDto,
  type SubscriptionRow,
} from "./billing.dto.js";
import { cancelInput, checkoutInput, subscribeInput, updateSubscriptionInput, type CardFields } from "./billing.inputs.js";
import { billingRepository } from "./billing.repository.js";
import { invoiceRepository } from "./invoice.repository.js";
import { paymentRepository } from "./payment.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { subscriptionRepository } from "./subscription.repository.js";
import type { PaymentMethod } from "./billing.table.js";
import { buildBoleto } from "./boleto.js";
import type { CardDetails, CardGateway } from "./gateways/card/card-gateway.js";
import { normalizeCardNumber } from "./gateways/card/card-validation.js";
import type { PixGateway } from "./gateways/pix/pix-gateway.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";
import type { SubscriptionPlanService } from "./subscription-plan.service.js";
import { GATEWAY_UNAVAILABLE, type ChargeIntents } from "./charge-intents.js";
import type { GatewayFollowUps } from "./gateway-follow-ups.js";
import { ACTIVE_SUBSCRIPTION_EXISTS, SubscriptionLifecycle } from "./subscription-lifecycle.js";
import { DAY_MS } from "../../platform/dates.js";

export const SUBSCRIPTION_NOT_FOUND = "Assinatura não encontrada";
const PLAN_UNAVAILABLE = "Plano não disponível para este usuário";
const ALREADY_CANCELED = "Esta assinatura já está cancelada";
const NOT_CANCELABLE = "Esta assinatura não está ativa";
const PAYMENT_REFUSED = "Pagamento recusado";
const CHECKOUT_UNDER_WAY = "Pagamento em processamento. Aguarde a confirmação.";
const BOLETO_DUE_MS = 3 * DAY_MS;

export interface SubscriptionServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  subscriptionPlans: SubscriptionPlanService;
  cardGateway: CardGateway;
  pixGateway: PixGateway;
  lifecycle: SubscriptionLifecycle;
  intents: ChargeIntents;
  followUps: GatewayFollowUps;
}

/** Subscribing, changing and canceling; the checkout decides one request at a time per user so nobody pays twice. */
export class SubscriptionService {
  constructor(private readonly deps: SubscriptionServiceDeps) {}

  /** GET /subscriptions/my-subscription: the one giving access, else the latest PENDING one. */
  async mySubscription(actor: Actor): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const row = await subscriptionRepository.findCurrentSubscription(this.deps.db, caller.id, this.deps.clock.now());
    if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return this.toDto(row);
  }

  /**
   * Per user, in order: the subscription giving access (else the latest PENDING one) or null, for User.subscription
   * in one query for a whole list; a user other than the caller gives a 403 error in place, unless the caller is an
   * administrator.
   */
  async currentOfUsers(actor: Actor, userIds: readonly number[]): Promise<Array<SubscriptionDto | null | AppError>> {
    const caller = requireUser(actor);
    const readable = userIds.filter((id) => id === caller.id || caller.isAdmin);
    const rows = await subscriptionRepository.findCurrentSubscriptions(this.deps.db, readable, this.deps.clock.now());
    const dtos = await this.toDtos(rows);
    const byUser = new Map(dtos.map((dto) => [dto.userId, dto]));
    return userIds.map((id) => (id === caller.id || caller.isAdmin ? (byUser.get(id) ?? null) : forbidden()));
  }

  async get(actor: Actor, id: number): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    return this.toDto(await this.loadOwned(caller, id));
  }

  /** POST /subscriptions: a card is charged now (ACTIVE or 422); PIX and BOLETO leave it PENDING until paid. */
  async subscribe(actor: Actor, body: unknown): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = parseInput(subscribeInput(this.deps.clock.now()), body);
    const plan = await this.availablePlan(caller, input.planId);
    if (input.paymentMethod === "CREDIT_CARD") {
      const result = await this.checkoutByCard(caller, plan, { card: cardOf(input), autoRenew: true, recurring: false });
      return this.toDto(result);
    }
    const { subscription, pix, invoice } = await this.checkoutPending(caller, plan, input.paymentMethod, true);
    const payWith = pix
      ? { pix: toPixDto(pix) }
      : { boleto: buildBoleto({ invoiceId: invoice!.id, amountCents: invoice!.amountCents, dueDate: invoice!.dueDate }) };
    return { ...(await this.toDto(subscription)), ...payWith };
  }

  /** POST /payments/subscribe: card (recurring at the gateway) → the checkout shape; PIX → the PIX transaction. */
  async checkout(actor: Actor, body: unknown): Promise<CheckoutSubscriptionDto | PixTransactionDto> {
    const caller = requireUser(actor);
    const input = parseInput(checkoutInput(this.deps.clock.now()), body);
    const plan = await this.availablePlan(caller, input.planId);
    if (input.paymentMethod === "PIX") {
      const { pix } = await this.checkoutPending(caller, plan, "PIX", input.autoRenew);
      return toPixDto(pix!);
    }
    const card = input.paymentMethodId ? undefined : cardOf(input);
    const subscription = await this.checkoutByCard(caller, plan, {
      card,
      paymentMethodId: input.paymentMethodId,
      autoRenew: input.autoRenew,
      recurring: true,
      refusalStatus: 400,
    });
    return this.toCheckoutDto(subscription);
  }

  /** GET /payments/subscriptions/current. */
  async currentCheckout(actor: Actor): Promise<CheckoutSubscriptionDto> {
    const caller = requireUser(actor);
    const row = await subscriptionRepository.findCurrentSubscription(this.deps.db, caller.id, this.deps.clock.now());
    if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
    return this.toCheckoutDto(row);
  }

  /** PUT /subscriptions/{id}: autoRenew and the payment method (a new card is verified by the gateway's rules). */
  async update(actor: Actor, id: number, body: unknown): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = parseInput(updateSubscriptionInput(this.deps.clock.now()), body);
    const subscription = await this.loadOwned(caller, id);
    if (subscription.status === "CANCELED" || subscription.status === "EXPIRED" || subscription.status === "FAILED") {
      throw conflict(NOT_CANCELABLE);
    }
    // A new card is saved at the gateway (not charged) and becomes what the renewals charge.
    const newCard = input.cardNumber != null ? await this.saveCard(subscription, cardOf(input)) : null;
    const updated = await subscriptionRepository.updateSubscription(this.deps.db, id, {
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
    });
    return this.toDto(updated);
  }

  /** Saves a card for a subscription's renewals; a refusal is 422 `Pagamento recusado` with the gateway's code. */
  private async saveCard(subscription: SubscriptionRow, card: CardDetails) {
    const user = await userRepository.findById(this.deps.db, subscription.userId);
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

  /** POST /subscriptions/{id}/cancel and POST /payments/subscriptions/{id}/cancel. */
  async cancel(actor: Actor, id: number, body: unknown, options: { immediatelyByDefault?: boolean } = {}): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = parseInput(cancelInput, body ?? {});
    const endsNow = body && typeof body === "object" && "cancelImmediately" in body ? input.cancelImmediately : (options.immediatelyByDefault ?? false);
    const owned = await this.loadOwned(caller, id);
    const canceled = await this.deps.db.transaction(async (tx) => {
      await billingRepository.lockUserBilling(tx, owned.userId);
      const subscription = await subscriptionRepository.findSubscriptionForUpdate(tx, id);
      if (!subscription) throw notFound(SUBSCRIPTION_NOT_FOUND);
      if (subscription.status === "CANCELED") throw conflict(ALREADY_CANCELED);
      if (subscription.status !== "ACTIVE" && subscription.status !== "PENDING") throw conflict(NOT_CANCELABLE);
      return this.deps.lifecycle.cancel(tx, subscription, endsNow, input.reason ?? null);
    });
    if (canceled.gatewaySubscriptionId) await this.deps.followUps.cancelGatewaySubscription(canceled.gatewaySubscriptionId);
    await this.deps.followUps.afterCommit(owned.userId);
    return this.toDto(canceled);
  }

  async toDto(row: SubscriptionRow): Promise<SubscriptionDto> {
    const [dto] = await this.toDtos([row]);
    return dto;
  }

  /** Subscriptions in the contract's shape: their plans and users read once for the whole list. */
  private async toDtos(rows: SubscriptionRow[]): Promise<SubscriptionDto[]> {
    const [plans, users] = await Promise.all([
      subscriptionPlanRepository.findByIds(this.deps.db, [...new Set(rows.map((row) => row.planId))]),
      userRepository.findByIds(this.deps.db, [...new Set(rows.map((row) => row.userId))]),
    ]);
    const planById = new Map(plans.map((plan) => [plan.id, plan]));
    const userById = new Map(users.map((user) => [user.id, user]));
    return rows.map((row) => toSubscriptionDto(row, { planName: planById.get(row.planId)!.name, userName: userById.get(row.userId)?.name ?? "" }));
  }

  /** POST /payments/subscriptions/{id}/cancel: canceled at the gateway and here, at once; the payment-flow shape. */
  async cancelCheckout(actor: Actor, id: number, body: unknown): Promise<CheckoutSubscriptionDto> {
    const canceled = await this.cancel(actor, id, body, { immediatelyByDefault: true });
    const row = await subscriptionRepository.findSubscription(this.deps.db, canceled.id);
    return this.toCheckoutDto(row!);
  }

  private async toCheckoutDto(row: SubscriptionRow): Promise<CheckoutSubscriptionDto> {
    const [plan, user, payment] = await Promise.all([
      this.deps.subscriptionPlans.load(row.planId),
      userRepository.findById(this.deps.db, row.userId),
      paymentRepository.latestPayment(this.deps.db, row.id),
    ]);
    return toCheckoutSubscriptionDto(row, plan, user, payment);
  }

  /** The owner's (or, for administrators, anyone's) subscription, else 404 / 403. */
  private async loadOwned(caller: UserActor, id: number): Promise<SubscriptionRow> {
    const row = await subscriptionRepository.findSubscription(this.deps.db, id);
    if (!row) throw notFound(SUBSCRIPTION_NOT_FOUND);
    if (row.userId !== caller.id && !caller.isAdmin) throw forbidden();
    return row;
  }

  private async availablePlan(caller: UserActor, planId: number): Promise<PlanRow> {
    const plan = await this.deps.subscriptionPlans.load(planId);
    if (!plan.active || plan.userType !== caller.userType) {
      throw new AppError(400, PLAN_UNAVAILABLE);
    }
    return plan;
  }

  /**
   * Charges a card and activates. The decision is taken under the user's billing lock (no ACTIVE subscription, no
   * other card checkout under way) and committed as a PENDING subscription and payment; the gateway is called after,
   * outside any transaction (ChargeIntents). A refusal is recorded (FAILED payment and subscription) and answered
   * 422 (or 400 in the payment flow).
   */
  private async checkoutByCard(
    caller: UserActor,
    plan: PlanRow,
    options: { card?: CardDetails; paymentMethodId?: string; autoRenew: boolean; recurring: boolean; refusalStatus?: number },
  ): Promise<SubscriptionRow> {
    const { db, clock, cardGateway, intents } = this.deps;
    const user = await userRepository.findById(db, caller.id);
    if (!user) throw forbidden();
    const payment = await db.transaction(async (tx) => {
      await this.lockForCheckout(tx, caller.id);
      const now = clock.now();
      const pending = await subscriptionRepository.insertSubscription(tx, {
        userId: caller.id,
        planId: plan.id,
        status: "PENDING",
        priceCents: plan.priceCents,
        currency: plan.currency,
        paymentMethod: "CREDIT_CARD",
        autoRenew: options.autoRenew,
        gateway: cardGateway.name,
        createdAt: now,
        updatedAt: now,
      });
      return intents.openCardPayment(tx, pending);
    });
    const charge = {
      amountCents: plan.priceCents,
      currency: "BRL" as const,
      card: options.card,
      paymentMethodId: options.paymentMethodId,
      customerEmail: user.email,
      customerName: user.name,
      description: `Assinatura ${plan.name}`,
      metadata: { subscriptionId: String(payment.subscriptionId), userId: String(caller.id) },
    };
    const settled = await this.afterwardsFollowingUp(caller.id, () =>
      intents.chargeCard(
        payment,
        options.recurring ? { recurring: true, input: { ...charge, interval: plan.interval, planName: plan.name } } : { recurring: false, input: charge },
      ),
    );
    if (settled.payment?.status === "FAILED") {
      throw new AppError(options.refusalStatus ?? 422, PAYMENT_REFUSED, { details: settled.payment.failureReason ?? undefined });
    }
    if (settled.subscription?.status === "ACTIVE") return settled.subscription;
    // The money came while another subscription became ACTIVE, or after this one was canceled: it is returned
    // (GatewayFollowUps), and a gateway subscription made for it must not charge again.
    if (settled.subscription?.gatewaySubscriptionId) await this.deps.followUps.cancelGatewaySubscription(settled.subscription.gatewaySubscriptionId);
    if (await subscriptionRepository.findActiveSubscription(db, caller.id)) throw conflict(ACTIVE_SUBSCRIPTION_EXISTS);
    throw conflict(ALREADY_CANCELED);
  }

  /**
   * PIX or boleto: a PENDING subscription (replacing earlier PENDING ones) with its PENDING invoice, and for PIX the
   * charge, asked of the gateway outside any transaction (ChargeIntents). When the user's latest PENDING subscription
   * is for the same plan and method and still payable, it is the answer: concurrent or repeated requests get one
   * charge (its same QR code, or boleto), never one each.
   */
  private async checkoutPending(caller: UserActor, plan: PlanRow, method: "PIX" | "BOLETO", autoRenew: boolean) {
    const { db, clock, pixGateway, lifecycle, intents } = this.deps;
    const user = await userRepository.findById(db, caller.id);
    if (!user) throw forbidden();
    const opened = await db.transaction(async (tx) => {
      await this.lockForCheckout(tx, caller.id);
      const now = clock.now();
      const same = await this.samePendingCheckout(tx, caller.id, plan, method, now);
      if (same) {
        const subscription = same.subscription.autoRenew === autoRenew ? same.subscription : await subscriptionRepository.updateSubscription(tx, same.subscription.id, { autoRenew, updatedAt: now });
        return { ...same, subscription };
      }
      const subscription = await subscriptionRepository.insertSubscription(tx, {
        userId: caller.id,
        planId: plan.id,
        status: "PENDING",
        priceCents: plan.priceCents,
        currency: plan.currency,
        paymentMethod: method,
        autoRenew,
        gateway: method === "PIX" ? pixGateway.name : "boleto",
        chargeKey: method === "PIX" ? randomUUID() : null,
        createdAt: now,
        updatedAt: now,
      });
      if (method === "PIX") return { subscription, pix: null, invoice: null };
      await lifecycle.replacePending(tx, caller.id, { keep: subscription.id });
      const invoice = await invoiceRepository.insertInvoice(tx, {
        userId: caller.id,
        subscriptionId: subscription.id,
        amountCents: plan.priceCents,
        currency: plan.currency,
        status: "PENDING",
        dueDate: new Date(now.getTime() + BOLETO_DUE_MS),
        createdAt: now,
        updatedAt: now,
      });
      return { subscription, pix: null, invoice };
    });
    if (method === "BOLETO" || opened.pix) return opened;
    const { subscription, pix } = await this.afterwardsFollowingUp(caller.id, () =>
      intents.chargePix(opened.subscription, plan.name, { name: user.name, email: user.email }),
    );
    return { subscription, pix, invoice: null };
  }

  /**
   * The user's latest PENDING subscription when it is for this plan and method and can still be paid: a PIX one
   * with its charge still payable (or still being asked of the gateway: pix null, asked again with its key), a
   * boleto one with its invoice not yet due.
   */
  private async samePendingCheckout(tx: Db, userId: number, plan: PlanRow, method: PaymentMethod, now: Date) {
    const pending = await subscriptionRepository.findSubscriptionsByStatus(tx, userId, ["PENDING"]);
    const latest = pending.reduce<SubscriptionRow | null>((found, row) => (!found || row.id > found.id ? row : found), null);
    if (!latest || latest.planId !== plan.id || latest.paymentMethod !== method) return null;
    if (method === "PIX") {
      const pix = await pixTransactionRepository.findPixTransactionOfSubscription(tx, latest.id);
      if (!pix) return { subscription: latest, pix: null, invoice: null };
      return pix.status === "PENDING" && pix.expiresAt > now ? { subscription: latest, pix, invoice: null } : null;
    }
    const invoiceId = await invoiceRepository.findPendingInvoiceId(tx, latest.id);
    const invoice = invoiceId ? await invoiceRepository.findInvoice(tx, invoiceId) : null;
    return invoice && invoice.dueDate > now ? { subscription: latest, pix: null, invoice } : null;
  }

  /** Runs a gateway step of a checkout, then the gateway calls it left due (a replaced PIX charge to cancel), whatever its outcome. */
  private async afterwardsFollowingUp<T>(userId: number, step: () => Promise<T>): Promise<T> {
    try {
      return await step();
    } finally {
      await this.deps.followUps.afterCommit(userId);
    }
  }

  /**
   * Takes the user's billing lock for a checkout, which may go on only when no subscription is ACTIVE and no card
   * checkout is under way: a card charged meanwhile would make this one either a second charge or a subscription
   * the card's success replaces.
   */
  private async lockForCheckout(tx: Db, userId: number): Promise<void> {
    await billingRepository.lockUserBilling(tx, userId);
    if (await subscriptionRepository.findActiveSubscription(tx, userId)) throw conflict(ACTIVE_SUBSCRIPTION_EXISTS);
    const pending = await subscriptionRepository.findSubscriptionsByStatus(tx, userId, ["PENDING"]);
    if (pending.some((subscription) => subscription.paymentMethod === "CREDIT_CARD")) throw conflict(CHECKOUT_UNDER_WAY);
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

function cardOf(input: CardFields): CardDetails {
  return {
    number: normalizeCardNumber(input.cardNumber ?? ""),
    holderName: (input.cardHolderName ?? "").trim(),
    expMonth: input.cardExpirationMonth ?? "",
    expYear: input.cardExpirationYear ?? "",
    cvv: input.cardCvv ?? "",
  };
}
