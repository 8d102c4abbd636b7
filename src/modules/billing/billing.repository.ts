import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import type { Db } from "../../platform/db/database.js";

/** What the billing tables share: a user's subscriptions, payments, invoices and PIX charges change under one lock. */
export const billingRepository = {
  /** Locks the user's billing for the rest of the transaction: concurrent checkouts of one user run one at a time. */
  async lockUserBilling(db: Db, userId: number) {
    await lockForTransaction(db, "billing", userId);
  },
};
