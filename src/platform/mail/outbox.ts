import { and, asc, eq, lte, ne, sql } from "drizzle-orm";
import type { Db } from "../db/database.js";
import { mailOutbox } from "./outbox.table.js";

export interface MailMessage {
  to: string;
  subject: string;
  text: string;
  html?: string;
}

/**
 * Where services queue e-mails. A message is a row of the outbox, written with the transaction of the change that
 * causes it, and so is the request to deliver it: the mail worker's job is kicked in that transaction, so delivery
 * starts as soon as it commits, on whichever instance is free.
 */
export class MailOutbox {
  constructor(private readonly deliverSoon: (tx: Db) => Promise<void>) {}

  /** Queues an e-mail; call it with the transaction of the change that causes it. */
  async enqueue(tx: Db, message: MailMessage, now: Date): Promise<void> {
    await tx.insert(mailOutbox).values({
      recipient: message.to,
      subject: message.subject,
      text: message.text,
      html: message.html ?? null,
      nextAttemptAt: now,
    });
    await this.deliverSoon(tx);
  }

  /** Forgets the e-mails delivered (or given up on) to an address, whose owner had their data erased; queued ones still go. */
  async forgetDeliveredTo(tx: Db, recipient: string): Promise<void> {
    await tx.delete(mailOutbox).where(and(eq(mailOutbox.recipient, recipient), ne(mailOutbox.status, "PENDING")));
  }
}

export type OutboxRow = typeof mailOutbox.$inferSelect;

/**
 * Leases the next due message until `leaseUntil`, skipping ones another worker holds. Each lease counts an attempt,
 * so the returned `attempts` also names this lease: a worker whose lease ran out can no longer settle the message.
 */
export async function leaseNextMail(db: Db, now: Date, leaseUntil: Date): Promise<OutboxRow | undefined> {
  const next = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "PENDING"), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt), asc(mailOutbox.id))
    .limit(1)
    .for("update", { skipLocked: true });
  const [leased] = await db
    .update(mailOutbox)
    .set({ nextAttemptAt: leaseUntil, attempts: sql`${mailOutbox.attempts} + 1` })
    .where(eq(mailOutbox.id, next))
    .returning();
  return leased;
}

/**
 * Once delivered, the body is dropped: it may hold a single-use link, and only the token's hash may stay stored.
 * Delivered is a fact whoever holds the lease now: it ends every further attempt.
 */
export async function markMailSent(db: Db, id: number, now: Date): Promise<void> {
  await db
    .update(mailOutbox)
    .set({ status: "SENT", sentAt: now, lastError: null, text: "", html: null })
    .where(and(eq(mailOutbox.id, id), ne(mailOutbox.status, "SENT")));
}

/** Records a failed attempt, only while the lease `attempt` still holds: a later lease's send may be under way. */
export async function markMailFailed(db: Db, id: number, attempt: number, error: string, retryAt: Date | null): Promise<void> {
  await db
    .update(mailOutbox)
    .set(retryAt ? { lastError: error, nextAttemptAt: retryAt } : { lastError: error, status: "FAILED" })
    .where(and(eq(mailOutbox.id, id), eq(mailOutbox.status, "PENDING"), eq(mailOutbox.attempts, attempt)));
}
