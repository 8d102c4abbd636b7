import { and, asc, count, desc, eq, gte, inArray, isNotNull, lt, lte, or, sql, type SQL } from "drizzle-orm";
import { users } from "../users/user.table.js";
import type { Db } from "../../platform/db/database.js";
import type { PageRequest } from "../../platform/paging.js";
import {
  invoices,
  payments,
  pixTransactions,
  subscriptionPlans,
  subscriptions,
  webhookEvents,
  type InvoiceStatus,
  type PaymentStatus,
  type PixTransactionStatus,
  type SubscriptionStatus,
} from "./billing.table.js";

export type NewSubscription = typeof subscriptions.$inferInsert;
export type SubscriptionChanges = Partial<Omit<NewSubscription, "id" | "userId" | "createdAt">>;

export interface RecordFilter {
  userId?: number;
  status?: string;
  from?: Date;
  until?: Date;
}

function recordConditions(table: typeof payments | typeof invoices, filter: RecordFilter): SQL | undefined {
  const conditions: SQL[] = [];
  if (filter.userId !== undefined) conditions.push(eq(table.userId, filter.userId));
  if (filter.status) conditions.push(sql`${table.status} = ${filter.status}`);
  if (filter.from) conditions.push(gte(table.createdAt, filter.from));
  if (filter.until) conditions.push(lt(table.createdAt, filter.until));
  return and(...conditions);
}

function orderBy(table: typeof payments | typeof invoices, request: PageRequest) {
  const columns = { id: table.id, createdAt: table.createdAt, amount: table.amountCents, status: table.status, updatedAt: table.updatedAt };
  const order = request.sort.map((s) => (s.direction === "asc" ? asc : desc)(columns[s.field as keyof typeof columns]));
  return [...order, desc(table.id)];
}

export const billingRepository = {
  /** Locks the user's billing for the rest of the transaction: concurrent checkouts of one user run one at a time. */
  async lockUserBilling(db: Db, userId: number) {
    await db.execute(sql`select pg_advisory_xact_lock(${BILLING_LOCK_SPACE}, ${userId})`);
  },

  async findSubscription(db: Db, id: number) {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id));
    return row ?? null;
  },

  async findSubscriptionForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.id, id)).for("update");
    return row ?? null;
  },

  async findSubscriptionByGatewayId(db: Db, gatewaySubscriptionId: string) {
    const [row] = await db.select().from(subscriptions).where(eq(subscriptions.gatewaySubscriptionId, gatewaySubscriptionId));
    return row ?? null;
  },

  async findActiveSubscription(db: Db, userId: number) {
    const [row] = await db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), eq(subscriptions.status, "ACTIVE")));
    return row ?? null;
  },

  /** The subscription giving access now (ACTIVE, or CANCELED until its endDate), else the latest PENDING one. */
  async findCurrentSubscription(db: Db, userId: number, now: Date) {
    const [row] = await billingRepository.findCurrentSubscriptions(db, [userId], now);
    return row ?? null;
  },

  /**
   * Per user, the subscription giving access (ACTIVE, or CANCELED until its endDate), else the latest PENDING one;
   * users without any are left out.
   */
  async findCurrentSubscriptions(db: Db, userIds: readonly number[], now: Date) {
    if (userIds.length === 0) return [];
    return db
      .selectDistinctOn([subscriptions.userId])
      .from(subscriptions)
      .where(
        and(
          inArray(subscriptions.userId, [...userIds]),
          or(
            eq(subscriptions.status, "ACTIVE"),
            and(eq(subscriptions.status, "CANCELED"), sql`${subscriptions.endDate} > ${now.toISOString()}::timestamptz`),
            eq(subscriptions.status, "PENDING"),
          ),
        ),
      )
      .orderBy(subscriptions.userId, sql`case ${subscriptions.status} when 'ACTIVE' then 0 when 'CANCELED' then 1 else 2 end`, desc(subscriptions.id));
  },

  async findSubscriptionsByStatus(db: Db, userId: number, statuses: SubscriptionStatus[]) {
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, statuses)));
  },

  async insertSubscription(db: Db, values: NewSubscription) {
    const [row] = await db.insert(subscriptions).values(values).returning();
    return row;
  },

  /** Deletes a subscription nothing was charged or issued for yet (a checkout the gateway refused to start). */
  async deleteSubscription(db: Db, id: number) {
    await db.delete(subscriptions).where(eq(subscriptions.id, id));
  },

  async updateSubscription(db: Db, id: number, changes: SubscriptionChanges) {
    const [row] = await db.update(subscriptions).set(changes).where(eq(subscriptions.id, id)).returning();
    return row;
  },

  /** ACTIVE subscriptions whose period ends before `horizon` (renewal candidates). */
  async findEndingSubscriptions(db: Db, horizon: Date) {
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.status, "ACTIVE"), lte(subscriptions.endDate, horizon)))
      .orderBy(asc(subscriptions.endDate));
  },

  /** CANCELED subscriptions whose access ran out before `now` and whose user still holds it. */
  async findLapsedCanceled(db: Db, now: Date) {
    // Only users whose access still runs on such a period: once access ends the user's expiry is cleared, so
    // the scan stays as small as the number of accesses that just ran out.
    return db
      .select({ subscription: subscriptions })
      .from(subscriptions)
      .innerJoin(users, eq(users.id, subscriptions.userId))
      .where(
        and(
          eq(subscriptions.status, "CANCELED"),
          lt(subscriptions.endDate, now),
          isNotNull(users.subscriptionExpiresAt),
          lte(users.subscriptionExpiresAt, now),
        ),
      )
      .then((rows) => rows.map((row) => row.subscription));
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

  async findPaymentForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(payments).where(eq(payments.id, id)).for("update");
    return row ?? null;
  },

  async findPaymentByIdempotencyKey(db: Db, idempotencyKey: string) {
    const [row] = await db.select().from(payments).where(eq(payments.idempotencyKey, idempotencyKey));
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

  /** PIX subscriptions created before `before` whose charge was asked of the gateway but never recorded. */
  async findUnsettledPixCheckouts(db: Db, before: Date) {
    return db
      .select()
      .from(subscriptions)
      .where(
        and(
          eq(subscriptions.status, "PENDING"),
          isNotNull(subscriptions.chargeKey),
          lt(subscriptions.createdAt, before),
          sql`not exists (select 1 from ${pixTransactions} where ${pixTransactions.subscriptionId} = ${subscriptions.id})`,
        ),
      )
      .orderBy(asc(subscriptions.id));
  },

  /** Payments of money to return (REFUND_DUE): one user's, or everyone's. */
  async findRefundsDue(db: Db, userId?: number) {
    return db
      .select()
      .from(payments)
      .where(and(eq(payments.status, "REFUND_DUE"), userId === undefined ? undefined : eq(payments.userId, userId)))
      .orderBy(asc(payments.id));
  },

  /** The invoices a payment paid become REFUNDED with it. */
  async refundInvoicesOf(db: Db, paymentId: number, now: Date) {
    await db.update(invoices).set({ status: "REFUNDED" satisfies InvoiceStatus, updatedAt: now }).where(eq(invoices.paymentId, paymentId));
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

  async insertInvoice(db: Db, values: typeof invoices.$inferInsert) {
    const [row] = await db.insert(invoices).values(values).returning();
    return row;
  },

  async updateInvoice(db: Db, id: number, changes: Partial<typeof invoices.$inferInsert>) {
    const [row] = await db.update(invoices).set(changes).where(eq(invoices.id, id)).returning();
    return row;
  },

  async cancelPendingInvoices(db: Db, subscriptionId: number, now: Date) {
    await db
      .update(invoices)
      .set({ status: "CANCELED" satisfies InvoiceStatus, updatedAt: now })
      .where(and(eq(invoices.subscriptionId, subscriptionId), eq(invoices.status, "PENDING")));
  },

  async findPayment(db: Db, id: number) {
    const [row] = await db.select().from(payments).where(eq(payments.id, id));
    return row ?? null;
  },

  async findPaymentByTransaction(db: Db, transactionId: string) {
    const [row] = await db.select().from(payments).where(eq(payments.transactionId, transactionId));
    return row ?? null;
  },

  async findInvoice(db: Db, id: number) {
    const [row] = await db.select().from(invoices).where(eq(invoices.id, id));
    return row ?? null;
  },

  async latestPayment(db: Db, subscriptionId: number) {
    const [row] = await db.select().from(payments).where(eq(payments.subscriptionId, subscriptionId)).orderBy(desc(payments.id)).limit(1);
    return row ?? null;
  },

  async listPayments(db: Db, filter: RecordFilter, request: PageRequest) {
    const where = recordConditions(payments, filter);
    const [rows, [total]] = await Promise.all([
      db.select().from(payments).where(where).orderBy(...orderBy(payments, request)).limit(request.size).offset(request.page * request.size),
      db.select({ n: count() }).from(payments).where(where),
    ]);
    return { rows, total: total.n };
  },

  async listInvoices(db: Db, filter: RecordFilter, request: PageRequest) {
    const where = recordConditions(invoices, filter);
    const [rows, [total]] = await Promise.all([
      db.select().from(invoices).where(where).orderBy(...orderBy(invoices, request)).limit(request.size).offset(request.page * request.size),
      db.select({ n: count() }).from(invoices).where(where),
    ]);
    return { rows, total: total.n };
  },

  /** Invoice id by payment id. */
  async invoiceIdsByPayment(db: Db, paymentIds: number[]) {
    if (paymentIds.length === 0) return new Map<number, number>();
    const rows = await db
      .select({ id: invoices.id, paymentId: invoices.paymentId })
      .from(invoices)
      .where(inArray(invoices.paymentId, paymentIds));
    return new Map(rows.map((row) => [row.paymentId as number, row.id]));
  },

  /** Plan names by subscription id, for the payment and invoice DTOs. */
  async planNamesBySubscription(db: Db, subscriptionIds: number[]) {
    if (subscriptionIds.length === 0) return new Map<number, string>();
    const rows = await db
      .select({ id: subscriptions.id, planName: subscriptionPlans.name })
      .from(subscriptions)
      .innerJoin(subscriptionPlans, eq(subscriptionPlans.id, subscriptions.planId))
      .where(inArray(subscriptions.id, subscriptionIds));
    return new Map(rows.map((row) => [row.id, row.planName]));
  },

  async insertPixTransaction(db: Db, values: typeof pixTransactions.$inferInsert) {
    const [row] = await db.insert(pixTransactions).values(values).returning();
    return row;
  },

  async findPixTransaction(db: Db, id: string) {
    const [row] = await db.select().from(pixTransactions).where(eq(pixTransactions.id, id));
    return row ?? null;
  },

  async findPixTransactionOfSubscription(db: Db, subscriptionId: number) {
    const [row] = await db.select().from(pixTransactions).where(eq(pixTransactions.subscriptionId, subscriptionId)).orderBy(desc(pixTransactions.createdAt)).limit(1);
    return row ?? null;
  },

  async findPixTransactionForUpdate(db: Db, id: string) {
    const [row] = await db.select().from(pixTransactions).where(eq(pixTransactions.id, id)).for("update");
    return row ?? null;
  },

  async updatePixTransaction(db: Db, id: string, changes: { status: PixTransactionStatus; paidAt?: Date | null; gatewayCancelDue?: boolean }) {
    await db.update(pixTransactions).set(changes).where(eq(pixTransactions.id, id));
  },

  /** CANCELLED here, and due to be canceled at the gateway too (a job retries until it is). */
  async cancelPendingPix(db: Db, subscriptionId: number) {
    await db
      .update(pixTransactions)
      .set({ status: "CANCELLED", gatewayCancelDue: true })
      .where(and(eq(pixTransactions.subscriptionId, subscriptionId), eq(pixTransactions.status, "PENDING")));
  },

  /** PIX charges due to be canceled at the gateway: one user's, or everyone's. */
  async findPixCancelsDue(db: Db, userId?: number) {
    return db
      .select()
      .from(pixTransactions)
      .where(and(eq(pixTransactions.gatewayCancelDue, true), userId === undefined ? undefined : eq(pixTransactions.userId, userId)));
  },

  async clearPixCancelDue(db: Db, id: string) {
    await db.update(pixTransactions).set({ gatewayCancelDue: false }).where(eq(pixTransactions.id, id));
  },

  /** Records a webhook event; false when that event id was already recorded (a redelivery: apply nothing). */
  async recordWebhookEvent(db: Db, provider: string, eventId: string, eventType: string, now: Date): Promise<boolean> {
    const inserted = await db.insert(webhookEvents).values({ provider, eventId, eventType, receivedAt: now }).onConflictDoNothing().returning();
    return inserted.length > 0;
  },
};

// The first key of the two-key advisory lock: a namespace so billing locks never collide with other locks.
const BILLING_LOCK_SPACE = 8_001;

export type { PaymentStatus };
