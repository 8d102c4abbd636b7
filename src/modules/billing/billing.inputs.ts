import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, isoDate, optionalText, queryBoolean, textId } from "../../platform/validation.js";
import { USER_TYPES } from "../../tables/user.table.js";
import type { CardDetails } from "./gateways/card/card-gateway.js";
import { cardProblems, normalizeCardNumber } from "./gateways/card/card-validation.js";
import { INVOICE_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES, PLAN_INTERVALS } from "../../tables/billing.table.js";

// Only a bound against huge strings here: the card rules (and their messages) are cardProblems'. null is "not given"
// (GraphQL's SubscribeInput declares the card fields nullable).
const cardFields = {
  cardNumber: z.string().max(64).nullish(),
  cardHolderName: z.string().max(120).nullish(),
  cardExpirationMonth: z.string().max(64).nullish(),
  cardExpirationYear: z.string().max(64).nullish(),
  cardCvv: z.string().max(64).nullish(),
};

export type CardFields = { [K in keyof typeof cardFields]?: string | null };

/** The card an input's card fields give, as the gateways take it. */
export function cardDetailsOf(input: CardFields): CardDetails {
  return {
    number: normalizeCardNumber(input.cardNumber ?? ""),
    holderName: (input.cardHolderName ?? "").trim(),
    expMonth: input.cardExpirationMonth ?? "",
    expYear: input.cardExpirationYear ?? "",
    cvv: input.cardCvv ?? "",
  };
}

/**
 * Card fields are required, and checked (Luhn, expiry, CVV), when paying by card. Runs even when other fields
 * failed (contract §2: every problem of a body is reported together), so it reads the raw object defensively and
 * leaves alone a card field that already has an issue of its own (a number instead of a string, too long).
 */
function checkCard(value: { paymentMethod?: unknown } & { [K in keyof CardFields]?: unknown }, ctx: z.RefinementCtx, now: Date) {
  if (value.paymentMethod !== "CREDIT_CARD") return;
  const flagged = new Set(ctx.issues.map((issue) => issue.path?.[0]));
  const text = (field: keyof CardFields) => (typeof value[field] === "string" ? (value[field] as string) : undefined);
  const problems = cardProblems(
    {
      number: text("cardNumber"),
      holderName: text("cardHolderName"),
      expMonth: text("cardExpirationMonth"),
      expYear: text("cardExpirationYear"),
      cvv: text("cardCvv"),
    },
    now,
  );
  for (const problem of problems) {
    if (!flagged.has(problem.field)) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
  }
}

/** Run the card checks whenever the body is an object, even after other fields failed. */
const alongOtherProblems = { when: (payload: { value: unknown }) => typeof payload.value === "object" && payload.value !== null };

/** A subscription bought: a plan, and a card charged now or PIX or boleto paid later (its card checked as of `now`). */
export const subscribeInput = (now: Date) =>
  z
    .object({
      planId: entityId,
      paymentMethod: z.enum(PAYMENT_METHODS),
      ...cardFields,
    })
    .superRefine((value, ctx) => checkCard(value, ctx, now), alongOtherProblems);
export type SubscribeInput = z.output<ReturnType<typeof subscribeInput>>;

/** The payment flow's checkout: a card by the gateway's payment method id or by card fields (checked as of `now`), or PIX. */
export const checkoutInput = (now: Date) =>
  z
    .object({
      planId: entityId,
      paymentMethod: z.enum(["CREDIT_CARD", "PIX"]),
      paymentMethodId: z.string().trim().min(1).max(255).optional(),
      autoRenew: z.boolean().default(true),
      ...cardFields,
    })
    .superRefine((value, ctx) => {
      if (value.paymentMethod === "CREDIT_CARD" && value.paymentMethodId) return;
      checkCard(value, ctx, now);
    }, alongOtherProblems);
export type CheckoutInput = z.output<ReturnType<typeof checkoutInput>>;

/** Changes to a subscription: renewal preference and how the next periods are paid (a new card checked as of `now`). */
export const updateSubscriptionInput = (now: Date) =>
  z
    .object({
      autoRenew: z.boolean().optional(),
      paymentMethod: z.enum(PAYMENT_METHODS).optional(),
      ...cardFields,
    })
    .superRefine((value, ctx) => {
      // Card fields replace the card the renewals charge; they are checked like a new card.
      const sendsCard = Object.keys(cardFields).some((field) => value[field as keyof CardFields] != null);
      if (sendsCard || value.paymentMethod === "CREDIT_CARD") checkCard({ ...value, paymentMethod: "CREDIT_CARD" }, ctx, now);
    });
export type UpdateSubscriptionInput = z.output<ReturnType<typeof updateSubscriptionInput>>;

/** A cancellation: at once, or (by default) with access until the end of the paid period. */
export const cancelInput = z.object({
  cancelImmediately: z.boolean().default(false),
  reason: optionalText(2000),
});
export type CancelInput = z.output<typeof cancelInput>;

/** A cancellation in the payment flow: at once unless it says otherwise. */
export const cancelCheckoutInput = cancelInput.extend({ cancelImmediately: z.boolean().default(true) });

/** A PIX transaction id as a client or the gateway sends it. */
export const pixTransactionId = textId(200);

/** A PIX gateway's notification (POST /webhooks/pix/payment). */
export const pixEventBody = z.object({
  event: z.string().optional(),
  data: z.object({ id: pixTransactionId, status: z.string().max(50) }),
});

/** A card gateway's event, once its signature checked. Id and type are stored as the event's record: refused here when the database could not store them. */
export const cardEvent = z.object({
  id: textId(255),
  type: textId(255),
  data: z.object({ object: z.record(z.string(), z.unknown()) }),
});

/** The PIX charge to pay as its payer would. */
export const simulatePaymentInput = z.object({ id: z.string().trim().min(1).max(200) });
export type SimulatePaymentInput = z.output<typeof simulatePaymentInput>;

/** What the plan catalogue is narrowed by. */
export const planCatalogueFilter = z.object({
  userType: z.enum(USER_TYPES).optional(),
  active: queryBoolean.optional(),
  interval: z.enum(PLAN_INTERVALS).optional(),
});
export type PlanCatalogueFilter = z.output<typeof planCatalogueFilter>;

export const paymentFilter = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  userId: filterId.optional(),
});
export type PaymentListQuery = ListQuery<z.output<typeof paymentFilter>>;

export const invoiceFilter = paymentFilter.extend({ status: z.enum(INVOICE_STATUSES).optional() });
export type InvoiceListQuery = ListQuery<z.output<typeof invoiceFilter>>;

/** Payment and invoice listings, newest first unless another order is asked. */
export const billingHistoryPaging: Paging = {
  sortable: ["id", "createdAt", "updatedAt", "amount", "status"],
  fallbackSort: [{ field: "createdAt", direction: "desc" }],
};
