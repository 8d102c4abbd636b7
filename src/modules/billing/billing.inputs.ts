import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, isoDate, optionalText, queryBoolean, textId } from "../../platform/validation.js";
import { userType } from "../users/user.dto.js";
import type { CardDetails } from "./gateways/card/card-gateway.js";
import { cardProblems, normalizeCardNumber } from "./gateways/card/card-validation.js";
import { checkoutPaymentMethod, invoiceStatus, paymentMethod, paymentStatus, planInterval } from "./billing.dto.js";

// Only a bound against huge strings here: the card rules (and their messages) are cardProblems'. null is "not given"
// (GraphQL's SubscribeInput declares the card fields nullable).
export const cardFields = {
  cardNumber: z
    .string()
    .max(64)
    .nullish()
    .describe("The card's number: 12 to 19 digits (spaces between groups allowed), Luhn-valid. Never stored: only its last four digits are kept"),
  cardHolderName: z.string().max(120).nullish().describe("The name printed on the card"),
  cardExpirationMonth: z.string().max(64).nullish().describe("The card's expiry month, as two digits (MM, 01 to 12)"),
  cardExpirationYear: z.string().max(64).nullish().describe("The card's expiry year, as four digits (YYYY); an expiry already past is refused"),
  cardCvv: z.string().max(64).nullish().describe("The card's security code, 3 or 4 digits. Never stored"),
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
      planId: entityId.describe("The plan to subscribe to: an active one for the caller's userType (else 400 `Plano não disponível para este usuário`)"),
      paymentMethod: paymentMethod.schema.describe("CREDIT_CARD: charged now; PIX or BOLETO: the subscription waits, PENDING, until paid"),
      ...cardFields,
    })
    .superRefine((value, ctx) => checkCard(value, ctx, now), alongOtherProblems)
    .describe("A subscription to buy: a plan, and how it is paid. The card fields are required, and checked, when paying by card");
export type SubscribeInput = z.output<ReturnType<typeof subscribeInput>>;

/** The payment flow's checkout: a card by the gateway's payment method id or by card fields (checked as of `now`), or PIX. */
export const checkoutInput = (now: Date) =>
  z
    .object({
      planId: entityId.describe("The plan to subscribe to: an active one for the caller's userType (else 400 `Plano não disponível para este usuário`)"),
      paymentMethod: checkoutPaymentMethod.schema.describe("How it is paid"),
      paymentMethodId: z
        .string()
        .trim()
        .min(1)
        .max(255)
        .optional()
        .describe("For a card: the card gateway's id of a payment method the app already made (1 to 255 characters); with it, no card fields are needed"),
      autoRenew: z.boolean().default(true).describe("Whether the card is charged again at the end of each period (true by default)"),
      ...cardFields,
    })
    .superRefine((value, ctx) => {
      if (value.paymentMethod === "CREDIT_CARD" && value.paymentMethodId) return;
      checkCard(value, ctx, now);
    }, alongOtherProblems)
    .describe("The payment flow's checkout: a plan, and a card (by paymentMethodId or by its card fields, then required and checked) or PIX");
export type CheckoutInput = z.output<ReturnType<typeof checkoutInput>>;

/** Changes to a subscription: renewal preference and how the next periods are paid (a new card checked as of `now`). */
export const updateSubscriptionInput = (now: Date) =>
  z
    .object({
      autoRenew: z.boolean().optional().describe("Turns renewal on or off; left out: unchanged"),
      paymentMethod: paymentMethod.schema.optional().describe("How the next periods are paid; left out: unchanged. CREDIT_CARD needs the card fields"),
      ...cardFields,
    })
    .superRefine((value, ctx) => {
      // Card fields replace the card the renewals charge; they are checked like a new card.
      const sendsCard = Object.keys(cardFields).some((field) => value[field as keyof CardFields] != null);
      if (sendsCard || value.paymentMethod === "CREDIT_CARD") checkCard({ ...value, paymentMethod: "CREDIT_CARD" }, ctx, now);
    })
    .describe(
      "Changes to a subscription that is PENDING or ACTIVE; fields left out stay. Card fields, when sent, are checked and saved at the gateway (not charged) as the card renewals charge; a refusal is 422",
    );
export type UpdateSubscriptionInput = z.output<ReturnType<typeof updateSubscriptionInput>>;

/** A cancellation: at once, or (by default) with access until the end of the paid period. */
export const cancelInput = z
  .object({
    cancelImmediately: z
      .boolean()
      .default(false)
      .describe("true: access ends now (the user back to FREEMIUM); false (the default): access lasts until the subscription's endDate"),
    reason: optionalText(2000).describe("Why, in the user's words (at most 2000 characters); kept with the subscription"),
  })
  .describe("A cancellation of an ACTIVE or PENDING subscription: at once, or at the end of the paid period");
export type CancelInput = z.output<typeof cancelInput>;

/** A cancellation in the payment flow: at once unless it says otherwise. */
export const cancelCheckoutInput = cancelInput
  .extend({
    cancelImmediately: z
      .boolean()
      .default(true)
      .describe("true (the default here): access ends now (the user back to FREEMIUM); false: access lasts until the subscription's endDate"),
  })
  .describe("A cancellation in the payment flow: at once unless cancelImmediately is false; the body may be left out");

/** A PIX transaction id as a client or the gateway sends it. */
export const pixTransactionId = textId(200).describe("A PIX transaction's id, as the gateway gave it (1 to 200 characters)");

/** A PIX gateway's notification (POST /webhooks/pix/payment). */
export const pixEventBody = z
  .object({
    event: z.string().optional().describe("The gateway's name for the event (not read)"),
    data: z
      .object({
        id: pixTransactionId.describe("The PIX transaction's id; an unknown one is ignored"),
        status: z
          .string()
          .max(50)
          .describe("Its new status, in any case: PAID settles it and starts its subscription; EXPIRED or CANCELLED closes it; any other is ignored"),
      })
      .describe("The transaction the notification is about"),
  })
  .describe("A PIX gateway's notification of a transaction's new status");

/** A card gateway's event, once its signature checked. Id and type are stored as the event's record: refused here when the database could not store them. */
export const cardEvent = z
  .object({
    id: textId(255).describe("The gateway's event id: each id is applied once, however often it is delivered"),
    type: textId(255).describe(
      "The event type: payment_intent.succeeded, invoice.payment_succeeded, payment_intent.payment_failed, invoice.payment_failed, customer.subscription.created, .updated and .deleted are applied; any other is acknowledged and ignored",
    ),
    data: z
      .object({
        object: z
          .record(z.string(), z.unknown())
          .describe("The gateway's object: it names our subscription by metadata.subscriptionId, or by the gateway's subscription or customer id"),
      })
      .describe("What the event is about"),
  })
  .describe("A card gateway's event (Stripe's shape), signed over the raw body");

/** The PIX charge to pay as its payer would. */
export const simulatePaymentInput = z
  .object({ id: z.string().trim().min(1).max(200).describe("The id of the PIX transaction to pay: the caller's own (an administrator's: anyone's)") })
  .describe("The PIX charge to pay as its payer would");
export type SimulatePaymentInput = z.output<typeof simulatePaymentInput>;

/** What the plan catalogue is narrowed by. */
export const planCatalogueFilter = z
  .object({
    userType: userType.schema.optional().describe("Only the plans for students (ALUNO) or for trainers (PERSONAL)"),
    active: queryBoolean.optional().describe("Only the plans on sale (true) or only the withdrawn ones (false)"),
    interval: planInterval.schema.optional().describe("Only the plans of this period"),
  })
  .describe("What narrows the plan catalogue; fields left out do not narrow it");
export type PlanCatalogueFilter = z.output<typeof planCatalogueFilter>;

/** What a listing of payments is narrowed by. */
export const paymentFilter = z
  .object({
    status: paymentStatus.schema.optional().describe("Only the payments with this status"),
    startDate: isoDate.optional().describe("Only those recorded on or after this day (YYYY-MM-DD, UTC)"),
    endDate: isoDate.optional().describe("Only those recorded on or before this day (YYYY-MM-DD, UTC)"),
    userId: filterId.optional().describe("Administrators only: one user's (others always see their own alone, whatever this says)"),
  })
  .describe("What narrows a listing of payments; fields left out do not narrow it");
export type PaymentListQuery = ListQuery<z.output<typeof paymentFilter>>;

/** What a listing of invoices is narrowed by. */
export const invoiceFilter = paymentFilter
  .extend({ status: invoiceStatus.schema.optional().describe("Only the invoices with this status") })
  .describe("What narrows a listing of invoices; fields left out do not narrow it");
export type InvoiceListQuery = ListQuery<z.output<typeof invoiceFilter>>;

/** Payment and invoice listings, newest first unless another order is asked. */
export const billingHistoryPaging: Paging = {
  sortable: ["id", "createdAt", "updatedAt", "amount", "status"],
  fallbackSort: [{ field: "createdAt", direction: "desc" }],
};
