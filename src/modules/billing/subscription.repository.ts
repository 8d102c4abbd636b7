import { and, asc, desc, eq, inArray, isNotNull, lt, lte, or, sql } from "drizzle-orm";
import { users } from "../../tables/user.table.js";
import type { Db } from "../../platform/db/database.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import { toSubscriptionDto, type SubscriptionRow } from "./billing.dto.js";
import { pixTransactions, subscriptionPlans, subscriptions, type SubscriptionStatus } from "../../tables/billing.table.js";

export type NewSubscription = typeof subscriptions.$inferInsert;
export type SubscriptionChanges = Partial<Omit<NewSubscription, "id" | "userId" | "createdAt">>;

/* The reads behind every seat check and dashboard, built once per database and bound at each call. */
const activeSubscriptionOf = preparedStatement((db) =>
  db
    .select()
    .from(subscriptions)
    .where(and(eq(subscriptions.userId, sql.placeholder("userId")), eq(subscriptions.status, "ACTIVE")))
    .prepare("active_subscription_of"),
);

const currentSubscriptionsOf = preparedStatement((db) =>
  db
    .selectDistinctOn([subscriptions.userId])
    .from(subscriptions)
    .where(
      and(
        isAnyOf(subscriptions.userId, sql.placeholder("userIds")),
        or(
          eq(subscriptions.status, "ACTIVE"),
          and(eq(subscriptions.status, "CANCELED"), sql`${subscriptions.endDate} > ${sql.placeholder("now")}::timestamptz`),
          eq(subscriptions.status, "PENDING"),
        ),
      ),
    )
    .orderBy(subscriptions.userId, sql`case ${subscriptions.status} when 'ACTIVE' then 0 when 'CANCELED' then 1 else 2 end`, desc(subscriptions.id))
    .prepare("current_subscriptions_of"),
);

export const subscriptionRepository = {
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
    const [row] = await activeSubscriptionOf(db).execute({ userId });
    return row ?? null;
  },

  /** The subscription giving access now (ACTIVE, or CANCELED until its endDate), else the latest PENDING one. */
  async findCurrentSubscription(db: Db, userId: number, now: Date) {
    const [row] = await subscriptionRepository.findCurrentSubscriptions(db, [userId], now);
    return row ?? null;
  },

  /**
   * Per user, the subscription giving access (ACTIVE, or CANCELED until its endDate), else the latest PENDING one;
   * users without any are left out.
   */
  async findCurrentSubscriptions(db: Db, userIds: readonly number[], now: Date) {
    if (userIds.length === 0) return [];
    return currentSubscriptionsOf(db).execute({ userIds: [...new Set(userIds)], now: now.toISOString() });
  },

  async findSubscriptionsByStatus(db: Db, userId: number, statuses: SubscriptionStatus[]) {
    return db
      .select()
      .from(subscriptions)
      .where(and(eq(subscriptions.userId, userId), inArray(subscriptions.status, statuses)));
  },

  /*
   * Every write of a subscription row goes through the three functions below, which emit its event in the same
   * transaction (the change feed's: a user hears of their own subscriptions, contract §13.3): `db` is the caller's
   * transaction. Checkouts, settlements, cancellations, renewals, gateway events and follow-ups all reach the rows here.
   */

  async insertSubscription(db: Db, values: NewSubscription) {
    const [row] = await db.insert(subscriptions).values(values).returning();
    await emit(db, row.createdAt, await subscriptionUpdated(db, row));
    return row;
  },

  /** Deletes a subscription nothing was charged or issued for yet (a checkout the gateway refused to start). */
  async deleteSubscription(db: Db, id: number) {
    const [row] = await db.delete(subscriptions).where(eq(subscriptions.id, id)).returning({ userId: subscriptions.userId });
    if (row) await emit(db, undefined, { type: "subscription.deleted", subscriptionId: id, userId: row.userId });
  },

  async updateSubscription(db: Db, id: number, changes: SubscriptionChanges) {
    const [row] = await db.update(subscriptions).set(changes).where(eq(subscriptions.id, id)).returning();
    // A change that does not date itself (the gateway's ids on a charge) is of the moment the row was last dated.
    if (row) await emit(db, row.updatedAt, await subscriptionUpdated(db, row));
    return row;
  },

  /** Those of `ids` that are `userId`'s (the change feed's subscriptions). */
  async findSubscriptionsOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(subscriptions)
      .where(and(isAnyOf(subscriptions.id, ids), eq(subscriptions.userId, userId)));
  },

  /** Up to `limit` ids above `afterId` of `userId`'s subscriptions, ascending. */
  subscriptionIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, sql`select ${subscriptions.id} from ${subscriptions} where ${subscriptions.userId} = ${userId}`, afterId, limit);
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
};

/** The `subscription.updated` event of a subscription as just written, for its user (contract §14.1). */
async function subscriptionUpdated(db: Db, row: SubscriptionRow): Promise<DomainEventOf<"subscription.updated">> {
  const [names] = await db
    .select({ planName: subscriptionPlans.name, userName: users.name })
    .from(subscriptionPlans)
    .innerJoin(users, eq(users.id, row.userId))
    .where(eq(subscriptionPlans.id, row.planId));
  return { type: "subscription.updated", subscriptionId: row.id, subjectUserIds: [row.userId], data: toSubscriptionDto(row, names) };
}
