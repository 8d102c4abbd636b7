import { sql, type SQL } from "drizzle-orm";
import { subscriptions } from "../../tables/billing.table.js";

/** (subscription id, user id): every subscription of `userId`, for the change feed (their DTOs show the user's name). */
export function subscriptionsOf(userId: number): SQL {
  return sql`select ${subscriptions.id}, ${subscriptions.userId} from ${subscriptions} where ${subscriptions.userId} = ${userId}`;
}
