import { sql } from "drizzle-orm";
import { check, index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf } from "../db/columns.js";

export const OUTBOX_STATUSES = ["PENDING", "SENT", "FAILED"] as const;

/** E-mails written in the same transaction as the change that causes them; the mail worker delivers them. */
export const mailOutbox = pgTable(
  "mail_outbox",
  {
    id: serial("id").primaryKey(),
    recipient: text("recipient").notNull(),
    subject: text("subject").notNull(),
    text: text("text").notNull(),
    html: text("html"),
    status: text("status").$type<(typeof OUTBOX_STATUSES)[number]>().notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    // Also the lease: a worker that takes a message pushes this forward so no other worker takes it meanwhile.
    nextAttemptAt: instant("next_attempt_at")
      .notNull()
      .default(sql`now()`),
    lastError: text("last_error"),
    createdAt: createdAt(),
    sentAt: instant("sent_at"),
  },
  (t) => [
    index("mail_outbox_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    check("mail_outbox_status_check", sql`${t.status} in (${oneOf(OUTBOX_STATUSES)})`),
  ],
);
