import { centsToAmount } from "../../platform/money.js";
import type { invoices, payments, pixTransactions, subscriptionPlans, subscriptions } from "./billing.table.js";

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
