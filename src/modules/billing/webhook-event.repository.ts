import type { Db } from "../../platform/db/database.js";
import { webhookEvents } from "../../tables/billing.table.js";

export const webhookEventRepository = {
  /** Records a webhook event; false when that event id was already recorded (a redelivery: apply nothing). */
  async recordWebhookEvent(db: Db, provider: string, eventId: string, eventType: string, now: Date): Promise<boolean> {
    const inserted = await db.insert(webhookEvents).values({ provider, eventId, eventType, receivedAt: now }).onConflictDoNothing().returning();
    return inserted.length > 0;
  },
};
