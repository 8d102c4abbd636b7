import { and, asc, eq, inArray, lte, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { mailOutbox } from "./outbox.table.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/** Queues an e-mail; call it with the transaction of the change that causes it. */
export async function enqueueMail(db: Db, message: MailMessage, now: Date): Promise<void> {
  await db.insert(mailOutbox).values({
    recipient: message.to,
    subject: message.subject,
    text: message.text,
    html: message.html ?? null,
    nextAttemptAt: now,
  });
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/** Takes up to `limit` due messages and leases them until `leaseUntil`, skipping ones another worker holds. */
export async function leaseDueMail(db: Db, now: Date, leaseUntil: Date, limit: number): Promise<OutboxRow[]> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.status, "PENDING"), lte(mailOutbox.nextAttemptAt, now)))
      .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
      .limit(limit)
      .for("update", { skipLocked: true });
    if (due.length === 0) return [];
    return tx
      .update(mailOutbox)
      .set({ nextAttemptAt: leaseUntil, attempts: sql`${mailOutbox.attempts} + 1` })
      .where(inArray(
        mailOutbox.id,
        due.map((row) => row.id),
      ))
      .returning();
  });
}

/** Once delivered, the body is dropped: it may hold a single-use link, and only the token's hash may stay stored. */
export async function markMailSent(db: Db, id: number, now: Date): Promise<void> {
  await db.update(mailOutbox).set({ status: "SENT", sentAt: now, lastError: null, text: "", html: null }).where(eq(mailOutbox.id, id));
}

export async function markMailFailed(db: Db, id: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, status: "FAILED" })
    .where(eq(mailOutbox.id, id));
}
