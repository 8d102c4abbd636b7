import { and, desc, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { pixTransactions, type PixTransactionStatus } from "../../tables/billing.table.js";

export const pixTransactionRepository = {
  async insertPixTransaction(db: Db, values: typeof pixTransactions.$inferInsert) {
    const [row] = await db.insert(pixTransactions).values(values).returning();
    return row;
  },

  async findPixTransaction(db: Db, id: string) {
    const [row] = await db.select().from(pixTransactions).where(eq(pixTransactions.id, id));
    return row ?? null;
  },

  async findPixTransactionForUpdate(db: Db, id: string) {
    const [row] = await db.select().from(pixTransactions).where(eq(pixTransactions.id, id)).for("update");
    return row ?? null;
  },

  /** A subscription's charge: its PENDING one when it has one (a duplicate a gateway made is CANCELLED), else the latest. */
  async findPixTransactionOfSubscription(db: Db, subscriptionId: number) {
    const [row] = await db
      .select()
      .from(pixTransactions)
      .where(eq(pixTransactions.subscriptionId, subscriptionId))
      .orderBy(desc(sql`${pixTransactions.status} = 'PENDING'`), desc(pixTransactions.createdAt))
      .limit(1);
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
};
