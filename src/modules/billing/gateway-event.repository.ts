import type { Db } from "../../platform/db/database.js";
import { gatewayEvents } from "../../tables/billing.table.js";

export const gatewayEventRepository = {
  /** Claims a gateway's event; false when that event id was already recorded (a redelivery: apply nothing). */
  async claimEvent(db: Db, provider: string, eventId: string, eventType: string, now: Date): Promise<boolean> {
    const inserted = await db.insert(gatewayEvents).values({ provider, eventId, eventType, receivedAt: now }).onConflictDoNothing().returning();
    return inserted.length > 0;
  },
};
