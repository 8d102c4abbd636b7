import { centsToAmount } from "../../platform/money.js";
import { INTERVAL_NAMES } from "./billing-period.js";
import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { USER_TYPES } from "../../tables/user.table.js";
import {
  INVOICE_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PIX_STATUSES,
  PLAN_INTERVALS,
  SUBSCRIPTION_STATUSES,
  type invoices,
  type payments,
  type pixTransactions,
  type subscriptionPlans,
  type subscriptions,
} from "../../tables/billing.table.js";
import { boletoSchema } from "./boleto.js";

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type PixTransactionRow = typeof pixTransactions.$inferSelect;

export const planSchema = z
  .object({
    id: int(),
    name: z.string(),
    description: z.string(),
    userType: z.enum(USER_TYPES),
    price: z.number(),
    currency: z.string(),
    interval: z.enum(PLAN_INTERVALS),
    features: z.array(z.string()),
    maxStudents: int().nullable().describe("null = unlimited"),
    active: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "SubscriptionPlan" });
export type PlanDto = z.output<typeof planSchema>;

export const toPlanDto = (row: PlanRow): PlanDto => ({
  id: row.id,
  name: row.name,
  description: row.description,
  userType: row.userType,
  price: centsToAmount(row.priceCents),
  currency: row.currency,
  interval: row.interval,
  features: row.features,
  maxStudents: row.maxStudents,
  active: row.active,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const pixTransactionSchema = z
  .object({
    id: z.string(),
    subscriptionId: int(),
    amount: z.number(),
    currency: z.string(),
    status: z.enum(PIX_STATUSES),
    brCode: z.string().describe("the PIX copy-and-paste code"),
    brCodeBase64: z.string().describe("the QR code image (data URL)"),
    expiresAt: instant,
    createdAt: instant,
  })
  .meta({ id: "PixTransaction" });
export type PixTransactionDto = z.output<typeof pixTransactionSchema>;

export const subscriptionSchema = z
  .object({
    id: int(),
    userId: int(),
    userName: z.string(),
    planId: int(),
    planName: z.string(),
    status: z.enum(SUBSCRIPTION_STATUSES),
    startDate: instant.nullable(),
    endDate: instant.nullable(),
    renewalDate: instant.nullable(),
    canceledAt: instant.nullable(),
    price: z.number(),
    currency: z.string(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    lastFourDigits: z.string().nullable(),
    autoRenew: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
    pix: pixTransactionSchema.optional().describe("the PIX charge to pay, for a PIX subscription just created"),
    boleto: boletoSchema.optional().describe("the boleto to pay, for a BOLETO subscription just created (sandbox: no bank settles it)"),
  })
  .meta({ id: "Subscription" });
export type SubscriptionDto = z.output<typeof subscriptionSchema>;

/** The payment-flow endpoints' shape (api-spec.md "Payment-flow endpoints"). */
export const checkoutSubscriptionSchema = z
  .object({
    id: int(),
    userId: int(),
    subscriptionType: z.string(),
    startDate: instant.nullable(),
    endDate: instant.nullable(),
    paymentId: z.string().nullable(),
    paymentMethod: z.enum(PAYMENT_METHODS),
    status: z.enum(SUBSCRIPTION_STATUSES),
    autoRenew: z.boolean(),
    createdAt: instant,
    updatedAt: instant,
    user: z.object({ id: int(), name: z.string(), email: z.string(), userType: z.string() }),
  })
  .meta({ id: "CheckoutSubscription" });
export type CheckoutSubscriptionDto = z.output<typeof checkoutSubscriptionSchema>;

export const toPixDto = (row: PixTransactionRow): PixTransactionDto => ({
  id: row.id,
  subscriptionId: row.subscriptionId,
  amount: centsToAmount(row.amountCents),
  currency: row.currency,
  status: row.status,
  brCode: row.brCode,
  brCodeBase64: row.brCodeBase64,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

/** A subscription in the contract's shape, with its plan's and its user's names. */
export const toSubscriptionDto = (row: SubscriptionRow, names: { planName: string; userName: string }): SubscriptionDto => ({
  id: row.id,
  userId: row.userId,
  userName: names.userName,
  planId: row.planId,
  planName: names.planName,
  status: row.status,
  startDate: row.startDate,
  endDate: row.endDate,
  renewalDate: row.renewalDate,
  canceledAt: row.canceledAt,
  price: centsToAmount(row.priceCents),
  currency: row.currency,
  paymentMethod: row.paymentMethod,
  lastFourDigits: row.lastFourDigits,
  autoRenew: row.autoRenew,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A subscription in the payment flow's shape: paymentId is its latest charge's gateway transaction, else its gateway subscription. */
export const toCheckoutSubscriptionDto = (
  row: SubscriptionRow,
  plan: PlanRow,
  user: { name: string; email: string; userType: string } | null,
  latestPayment: PaymentRow | null,
): CheckoutSubscriptionDto => ({
  id: row.id,
  userId: row.userId,
  subscriptionType: INTERVAL_NAMES[plan.interval],
  startDate: row.startDate,
  endDate: row.endDate,
  paymentId: latestPayment?.transactionId ?? row.gatewaySubscriptionId,
  paymentMethod: row.paymentMethod,
  status: row.status,
  autoRenew: row.autoRenew,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  user: { id: row.userId, name: user?.name ?? "", email: user?.email ?? "", userType: user?.userType ?? "" },
});

/** What a payment and an invoice are both shown with. */
const billingEntryFields = {
  id: int(),
  userId: int(),
  userName: z.string(),
  subscriptionId: int().nullable(),
  planName: z.string().nullable(),
  amount: z.number(),
  currency: z.string(),
  createdAt: instant,
  updatedAt: instant,
};

export const paymentSchema = z
  .object({
    ...billingEntryFields,
    status: z.enum(PAYMENT_STATUSES),
    paymentMethod: z.enum(PAYMENT_METHODS),
    lastFourDigits: z.string().nullable(),
    transactionId: z.string().nullable(),
    invoiceUrl: z.string().nullable(),
  })
  .meta({ id: "Payment" });
export type PaymentDto = z.output<typeof paymentSchema>;

export const invoiceSchema = z
  .object({
    ...billingEntryFields,
    status: z.enum(INVOICE_STATUSES),
    dueDate: instant,
    paidAt: instant.nullable(),
    paymentId: int().nullable(),
    invoiceUrl: z.string(),
  })
  .meta({ id: "Invoice" });
export type InvoiceDto = z.output<typeof invoiceSchema>;

/** The names and link a payment or invoice is shown with. */
export interface BillingEntryReferences {
  userName: string;
  planName: string | null;
  invoiceUrl: string | null;
}

/** The fields a payment's and an invoice's shape open with, in that order. */
const billingEntryHead = (row: PaymentRow | InvoiceRow, refs: BillingEntryReferences) => ({
  id: row.id,
  userId: row.userId,
  userName: refs.userName,
  subscriptionId: row.subscriptionId,
  planName: refs.planName,
  amount: centsToAmount(row.amountCents),
  currency: row.currency,
});

/** Where an invoice's PDF is downloaded (GET /api/invoices/{id}/download). */
export const invoiceDownloadUrl = (publicBaseUrl: string, invoiceId: number) => `${publicBaseUrl}/api/invoices/${invoiceId}/download`;

export const toPaymentDto = (row: PaymentRow, refs: BillingEntryReferences): PaymentDto => ({
  ...billingEntryHead(row, refs),
  status: row.status,
  paymentMethod: row.paymentMethod,
  lastFourDigits: row.lastFourDigits,
  transactionId: row.transactionId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toInvoiceDto = (row: InvoiceRow, refs: BillingEntryReferences & { invoiceUrl: string }): InvoiceDto => ({
  ...billingEntryHead(row, refs),
  status: row.status,
  dueDate: row.dueDate,
  paidAt: row.paidAt,
  paymentId: row.paymentId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
