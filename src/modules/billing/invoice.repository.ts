import { and, asc, count, desc, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import type { PageRequest } from "../../platform/paging.js";
import { invoices, type InvoiceStatus } from "../../tables/billing.table.js";
import { billingHistoryConditions, billingHistoryOrder, type BillingHistoryFilter } from "./billing-history-listing.js";
import { pageOf } from "../../platform/db/pages.js";

export const invoiceRepository = {
  /** Every invoice of a user, oldest first. */
  async invoicesOfUser(db: Db, userId: number) {
    return db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(asc(invoices.id));
  },

  async insertInvoice(db: Db, values: typeof invoices.$inferInsert) {
    const [row] = await db.insert(invoices).values(values).returning();
    return row;
  },

  async updateInvoice(db: Db, id: number, changes: Partial<typeof invoices.$inferInsert>) {
    const [row] = await db.update(invoices).set(changes).where(eq(invoices.id, id)).returning();
    return row;
  },

  async findInvoice(db: Db, id: number) {
    const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
    return row ?? null;
  },

  /** The subscription's latest PENDING invoice, if any. */
  async findPendingInvoiceId(db: Db, subscriptionId: number): Promise<number | null> {
    const [row] = await db
      .select({ id: invoices.id })
      .from(invoices)
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, "PENDING")))
      .orderBy(desc(invoices.id))
      .limit(1);
    return row?.id ?? null;
  },

  async cancelPendingInvoices(db: Db, subscriptionId: number, now: Date) {
    await db
      .update(invoices)
      .set({ status: "CANCELED" satisfies InvoiceStatus, updatedAt: now })
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, "PENDING")));
  },

  /** The invoices a payment paid become REFUNDED with it. */
  async refundInvoicesOf(db: Db, paymentId: number, now: Date) {
    await db
      .update(invoices)
      .set({ status: "REFUNDED" satisfies InvoiceStatus, updatedAt: now })
      .where(eq(invoices.paymentId, paymentId));
  },

  /** Invoice id by payment id. */
  async invoiceIdsByPayment(db: Db, paymentIds: number[]) {
    if (paymentIds.length === 0) return new Map<number, number>();
    const rows = await db.select({ id: invoices.id, paymentId: invoices.paymentId }).from(invoices).where(inArray(invoices.paymentId, paymentIds));
    return new Map(rows.map((row) => [row.paymentId as number, row.id]));
  },

  async listInvoices(db: Db, filter: BillingHistoryFilter, request: PageRequest) {
    const where = billingHistoryConditions(invoices, filter);
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select()
          .from(invoices)
          .where(where)
          .orderBy(...billingHistoryOrder(invoices, request))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(invoices).where(where),
    ]);
    return { rows, total: total.n };
  },
};
