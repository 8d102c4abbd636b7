import { sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";

/** What the billing tables share: a user's subscriptions, payments, invoices and PIX charges change under one lock. */
export const billingRepository = {
  /** Locks the user's billing for the rest of the transaction: concurrent checkouts of one user run one at a time. */
  async lockUserBilling(db: Db, userId: number) {
    await db.execute(sql`select pg_advisory_xact_lock(${BILLING_LOCK_SPACE}, ${userId})`);
  },
};

// The first key of the two-key advisory lock: a namespace so billing locks never collide with other locks.
const BILLING_LOCK_SPACE = 8_001;
