import { centsToAmount } from "../../platform/money.js";
import { INTERVAL_NAMES } from "./billing-period.js";
import type { invoices, PaymentMethod, payments, pixTransactions, subscriptionPlans, subscriptions } from "./billing.table.js";
import type { Boleto } from "./boleto.js";

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type PixTransactionRow = typeof pixTransactions.$inferSelect;

export interface PlanDto {
  id: number;
  name: string;
  description: string;
  userType: PlanRow["userType"];
  price: number;
  currency: string;
  interval: PlanRow["interval"];
  features: string[];
  maxStudents: number | null;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

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

export interface PixTransactionDto {
  id: string;
  subscriptionId: number;
  amount: number;
  currency: string;
  status: PixTransactionRow["status"];
  brCode: string;
  brCodeBase64: string;
  expiresAt: Date;
  createdAt: Date;
}

export interface SubscriptionDto {
  id: number;
  userId: number;
  userName: string;
  planId: number;
  planName: string;
  status: SubscriptionRow["status"];
  startDate: Date | null;
  endDate: Date | null;
  renewalDate: Date | null;
  canceledAt: Date | null;
  price: number;
  currency: string;
  paymentMethod: PaymentMethod;
  lastFourDigits: string | null;
  autoRenew: boolean;
  createdAt: Date;
  updatedAt: Date;
  pix?: PixTransactionDto;
  /** The boleto to pay, for a BOLETO subscription just created (sandbox: no bank settles it). */
  boleto?: Boleto;
}

/** The payment-flow endpoints' shape (api-spec.md "Payment-flow endpoints"). */
export interface CheckoutSubscriptionDto {
  id: number;
  userId: number;
  subscriptionType: string;
  startDate: Date | null;
  endDate: Date | null;
  paymentId: string | null;
  paymentMethod: PaymentMethod;
  status: SubscriptionRow["status"];
  autoRenew: boolean;
  createdAt: Date;
  updatedAt: Date;
  user: { id: number; name: string; email: string; userType: string };
}

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
interface RecordDto {
  id: number;
  userId: number;
  userName: string;
  subscriptionId: number | null;
  planName: string | null;
  amount: number;
  currency: string;
  createdAt: Date;
  updatedAt: Date;
}

export interface PaymentDto extends RecordDto {
  status: PaymentRow["status"];
  paymentMethod: PaymentRow["paymentMethod"];
  lastFourDigits: string | null;
  transactionId: string | null;
  invoiceUrl: string | null;
}

export interface InvoiceDto extends RecordDto {
  status: InvoiceRow["status"];
  dueDate: Date;
  paidAt: Date | null;
  paymentId: number | null;
  invoiceUrl: string;
}

/** The names and link a payment or invoice is shown with. */
export interface RecordReferences {
  userName: string;
  planName: string | null;
  invoiceUrl: string | null;
}

/** The fields a payment's and an invoice's shape open with, in that order. */
const recordHead = (row: PaymentRow | InvoiceRow, refs: RecordReferences) => ({
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

export const toPaymentDto = (row: PaymentRow, refs: RecordReferences): PaymentDto => ({
  ...recordHead(row, refs),
  status: row.status,
  paymentMethod: row.paymentMethod,
  lastFourDigits: row.lastFourDigits,
  transactionId: row.transactionId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toInvoiceDto = (row: InvoiceRow, refs: RecordReferences & { invoiceUrl: string }): InvoiceDto => ({
  ...recordHead(row, refs),
  status: row.status,
  dueDate: row.dueDate,
  paidAt: row.paidAt,
  paymentId: row.paymentId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
