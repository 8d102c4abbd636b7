import { randomUUID } from "node:crypto";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { DAY_MS } from "../../platform/dates.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, conflict, forbidden } from "../../platform/errors.js";
import type { DatedInputReader } from "../../platform/validation.js";
import type { UserService } from "../users/user.service.js";
import { toPixDto, type CheckoutSubscriptionDto, type PixTransactionDto, type PlanRow, type SubscriptionDto, type SubscriptionRow } from "./billing.dto.js";
import { cardDetailsOf, type CheckoutInput, type SubscribeInput } from "./billing.inputs.js";
import { billingRepository } from "./billing.repository.js";
import type { PaymentMethod } from "../../tables/billing.table.js";
import { buildBoleto } from "./boleto.js";
import type { ChargeIntents } from "./charge-intents.js";
import type { GatewayFollowUps } from "./gateway-follow-ups.js";
import type { CardDetails, CardGateway } from "./gateways/card/card-gateway.js";
import type { PixGateway } from "./gateways/pix/pix-gateway.js";
import { invoiceRepository } from "./invoice.repository.js";
import { pixTransactionRepository } from "./pix-transaction.repository.js";
import { ACTIVE_SUBSCRIPTION_EXISTS, type SubscriptionLifecycle } from "./subscription-lifecycle.js";
import type { SubscriptionPlanService } from "./subscription-plan.service.js";
import { ALREADY_CANCELED, PAYMENT_REFUSED, type SubscriptionService } from "./subscription.service.js";
import { subscriptionRepository } from "./subscription.repository.js";

const PLAN_UNAVAILABLE = "Plano não disponível para este usuário";
const CHECKOUT_UNDER_WAY = "Pagamento em processamento. Aguarde a confirmação.";
const BOLETO_DUE_MS = 3 * DAY_MS;

export interface CheckoutServiceDeps {
  db: Db;
  clock: Clock;
  subscriptionPlans: SubscriptionPlanService;
  subscriptions: SubscriptionService;
  cardGateway: CardGateway;
  pixGateway: PixGateway;
  lifecycle: SubscriptionLifecycle;
  intents: ChargeIntents;
  followUps: GatewayFollowUps;
  users: UserService;
}

/**
 * Buying a subscription by card, PIX or boleto: the decision is taken under the user's billing lock, one request at
 * a time per user so nobody pays twice, and the gateway is asked after it commits (ChargeIntents).
 */
export class CheckoutService {
  constructor(private readonly deps: CheckoutServiceDeps) {}

  /**
   * Subscribes the caller: a card is charged now (ACTIVE, or 422 when refused); PIX and boleto leave the subscription
   * PENDING until paid, answered with the QR code or the boleto to pay.
   */
  async subscribe(actor: Actor, readInput: DatedInputReader<SubscribeInput>): Promise<SubscriptionDto> {
    const caller = requireUser(actor);
    const input = readInput(this.deps.clock.now());
    const plan = await this.availablePlan(caller, input.planId);
    if (input.paymentMethod === "CREDIT_CARD") {
      const result = await this.checkoutByCard(caller, plan, { card: cardDetailsOf(input), autoRenew: true, recurring: false });
      return this.deps.subscriptions.toDto(result);
    }
    const { subscription, pix, invoice } = await this.checkoutPending(caller, plan, input.paymentMethod, true);
    const payWith = pix
      ? { pix: toPixDto(pix) }
      : { boleto: buildBoleto({ invoiceId: invoice!.id, amountCents: invoice!.amountCents, dueDate: invoice!.dueDate }) };
    return { ...(await this.deps.subscriptions.toDto(subscription)), ...payWith };
  }

  /** The payment flow's checkout: a card becomes a recurring gateway subscription (its shape), PIX a charge to pay (the PIX transaction). */
  async checkout(actor: Actor, readInput: DatedInputReader<CheckoutInput>): Promise<CheckoutSubscriptionDto | PixTransactionDto> {
    const caller = requireUser(actor);
    const input = readInput(this.deps.clock.now());
    const plan = await this.availablePlan(caller, input.planId);
    if (input.paymentMethod === "PIX") {
      const { pix } = await this.checkoutPending(caller, plan, "PIX", input.autoRenew);
      return toPixDto(pix!);
    }
    const card = input.paymentMethodId ? undefined : cardDetailsOf(input);
    const subscription = await this.checkoutByCard(caller, plan, {
      card,
      paymentMethodId: input.paymentMethodId,
      autoRenew: input.autoRenew,
      recurring: true,
      refusalStatus: 400,
    });
    return this.deps.subscriptions.toCheckoutDto(subscription);
  }

  /** The plan, if active and for the caller's kind of user (else 400; 404 when there is none). */
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
    const user = await this.deps.users.findById(caller.id);
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
    const user = await this.deps.users.findById(caller.id);
    if (!user) throw forbidden();
    const opened = await db.transaction(async (tx) => {
      await this.lockForCheckout(tx, caller.id);
      const now = clock.now();
      const same = await this.samePendingCheckout(tx, caller.id, plan, method, now);
      if (same) {
        const subscription =
          same.subscription.autoRenew === autoRenew
            ? same.subscription
            : await subscriptionRepository.updateSubscription(tx, same.subscription.id, { autoRenew, updatedAt: now });
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
}
