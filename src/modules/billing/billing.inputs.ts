import { z } from "zod";
import { isoDate, optionalText } from "../../platform/validation.js";
import { cardProblems } from "./gateways/card-validation.js";
import { INVOICE_STATUSES, PAYMENT_METHODS, PAYMENT_STATUSES } from "./billing.table.js";

// Only a bound against huge strings here: the card rules (and their messages) are cardProblems'.
const cardFields = {
  cardNumber: z.string().max(64).optional(),
  cardHolderName: z.string().max(120).optional(),
  cardExpirationMonth: z.string().max(64).optional(),
  cardExpirationYear: z.string().max(64).optional(),
  cardCvv: z.string().max(64).optional(),
};

export type CardFields = { [K in keyof typeof cardFields]?: string };

/** Card fields are required, and checked (Luhn, expiry, CVV), when paying by card. */
function checkCard(value: { paymentMethod?: string } & CardFields, ctx: z.RefinementCtx, now: Date) {
  if (value.paymentMethod !== "CREDIT_CARD") return;
  const problems = cardProblems(
    { number: value.cardNumber, holderName: value.cardHolderName, expMonth: value.cardExpirationMonth, expYear: value.cardExpirationYear, cvv: value.cardCvv },
    now,
  );
  for (const problem of problems) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
}

/** POST /subscriptions. */
export const subscribeInput = (now: Date) =>
  z
    .object({
      planId: z.number().int().positive(),
      paymentMethod: z.enum(PAYMENT_METHODS),
      ...cardFields,
    })
    .superRefine((value, ctx) => checkCard(value, ctx, now));

/** POST /payments/subscribe: card by gateway payment method id or card fields, or PIX. */
export const checkoutInput = (now: Date) =>
  z
    .object({
      planId: z.number().int().positive(),
      paymentMethod: z.enum(["CREDIT_CARD", "PIX"]),
      paymentMethodId: z.string().trim().min(1).max(255).optional(),
      autoRenew: z.boolean().default(true),
      ...cardFields,
    })
    .superRefine((value, ctx) => {
      if (value.paymentMethod === "CREDIT_CARD" && value.paymentMethodId) return;
      checkCard(value, ctx, now);
    });

/** PUT /subscriptions/{id}: renewal preference and how the next periods are paid. */
export const updateSubscriptionInput = z.object({
  autoRenew: z.boolean().optional(),
  paymentMethod: z.enum(PAYMENT_METHODS).optional(),
});

export const cancelInput = z.object({
  cancelImmediately: z.boolean().default(false),
  reason: optionalText(2000),
});

export const simulatePaymentInput = z.object({ id: z.string().trim().min(1).max(200) });

export const paymentFilter = z.object({
  status: z.enum(PAYMENT_STATUSES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
  userId: z.string().regex(/^\d{1,10}$/).transform(Number).optional(),
});

export const invoiceFilter = paymentFilter.extend({ status: z.enum(INVOICE_STATUSES).optional() });

export const RECORD_SORT_FIELDS = ["id", "createdAt", "updatedAt", "amount", "status"] as const;
