import { and, asc, count, desc, eq, isNotNull, lt } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import type { PageRequest } from "../../platform/paging.js";
import { payments } from "../../tables/billing.table.js";
import { billingHistoryConditions, billingHistoryOrder, type BillingHistoryFilter } from "./billing-history-listing.js";
import { pageOf } from "../../platform/db/pages.js";

export const paymentRepository = {
  /** Every payment of a user, oldest first. */
  async paymentsOfUser(db: Db, userId: number) {
    return db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.id));
  },

  async insertPayment(db: Db, values: typeof payments.$inferInsert) {
    const [row] = await db.insert(payments).values(values).returning();
    return row;
  },

  async updatePayment(db: Db, id: number, changes: Partial<Omit<typeof payments.$inferInsert, "id" | "userId" | "createdAt">>) {
    const [row] = await db.update(payments).set(changes).where(eq(payments.id, id)).returning();
    return row;
  },

  async deletePayment(db: Db, id: number) {
    await db.delete(payments).where(eq(payments.id, id));
  },

  async findPayment(db: Db, id: number) {
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row ?? null;
  },

  async findPaymentForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(payments).where(eq(payments.id, id)).for("update");
    return row ?? null;
  },

  async findPaymentByIdempotencyKey(db: Db, idempotencyKey: string) {
    const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
    return row ?? null;
  },

  async findPaymentByTransaction(db: Db, transactionId: string) {
    const [row] = await db.select().from(payments).where(eq(payments.transactionId, transactionId));
    return row ?? null;
  },

  /** The subscription's PENDING payment, if any: a charge asked of the gateway whose answer is not settled yet. */
  async findPendingPayment(db: Db, subscriptionId: number) {
    const [row] = await db
      .select()
      .from(payments)
      .where(and(eq(payments.subscriptionId, subscriptionId), eq(payments.status, "PENDING")))
      .limit(1);
    return row ?? null;
  },

  async latestPayment(db: Db, subscriptionId: number) {
    const [row] = await db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(desc(payments.id)).limit(1);
    return row ?? null;
  },

  /** Card charges asked of a gateway before `before` whose answer was never settled (PENDING payments with a key). */
  async findUnsettledCardCharges(db: Db, before: Date) {
    return db
      .select()
      .from(payments)
      .where(and(eq(payments.status, "PENDING"), isNotNull(payments.idempotencyKey), lt(payments.createdAt, before)))
      .orderBy(asc(payments.id));
  },

  /** Payments of money to return (REFUND_DUE): one user's, or everyone's. */
  async findRefundsDue(db: Db, userId?: number) {
    return db
      .select()
      .from(payments)
      .where(and(eq(payments.status, "REFUND_DUE"), userId === undefined ? undefined : eq(payments.userId, userId)))
      .orderBy(asc(payments.id));
  },

  async listPayments(db: Db, filter: BillingHistoryFilter, request: PageRequest) {
    const where = billingHistoryConditions(payments, filter);
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select()
          .from(payments)
          .where(where)
          .orderBy(...billingHistoryOrder(payments, request))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(payments).where(where),
    ]);
    return { rows, total: total.n };
  },
};
