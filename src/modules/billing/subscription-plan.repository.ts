import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { subscriptionPlans, type PlanInterval } from "../../tables/billing.table.js";
import type { UserType } from "../../tables/user.table.js";

export interface PlanFilter {
  userType?: UserType;
  active?: boolean;
  interval?: PlanInterval;
}

export const subscriptionPlanRepository = {
  async list(db: Db, filter: PlanFilter) {
    const conditions: SQL[] = [];
    if (filter.userType) conditions.push(eq(subscriptionPlans.userType, filter.userType));
    if (filter.active !== undefined) conditions.push(eq(subscriptionPlans.active, filter.active));
    if (filter.interval) conditions.push(eq(subscriptionPlans.interval, filter.interval));
    return db
      .select()
      .from(subscriptionPlans)
      .where(and(...conditions))
      .orderBy(asc(subscriptionPlans.userType), asc(subscriptionPlans.priceCents), asc(subscriptionPlans.id));
  },

  async findById(db: Db, id: number) {
    const [row] = await db.select().from(subscriptionPlans).where(eq(subscriptionPlans.id, id));
    return row ?? null;
  },

  async findByIds(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(subscriptionPlans)
      .where(inArray(subscriptionPlans.id, [...ids]));
  },
};
