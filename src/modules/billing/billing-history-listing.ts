import { and, asc, desc, eq, gte, lt, sql, type SQL } from "drizzle-orm";
import type { PageRequest } from "../../platform/paging.js";
import type { invoices, payments } from "../../tables/billing.table.js";

/** How payments and invoices are listed: by the same columns, which both tables have. */
export interface BillingHistoryFilter {
  userId?: number;
  status?: string;
  from?: Date;
  until?: Date;
}

export function billingHistoryConditions(table: typeof payments | typeof invoices, filter: BillingHistoryFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(table.userId, filter.userId));
  if (filter.status) conditions.push(sql`${table.status} = ${filter.status}`);
  if (filter.from) conditions.push(gte(table.createdAt, filter.from));
  if (filter.until) conditions.push(lt(table.createdAt, filter.until));
  return and(...conditions);
}

export function billingHistoryOrder(table: typeof payments | typeof invoices, request: PageRequest) {
  const columns = { id: table.id, createdAt: table.createdAt, amount: table.amountCents, status: table.status, updatedAt: table.updatedAt };
  const order = request.sort.map((s) => (s.direction === "asc" ? asc : desc)(columns[s.field as keyof typeof columns]));
  return [...order, desc(table.id)];
}
