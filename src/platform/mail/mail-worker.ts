import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import type { Logger } from "../logger.js";
import type { MailTransport } from "./mail-transport.js";
import { leaseNextMail, markMailFailed, markMailSent, type OutboxRow } from "./outbox.js";

/** A lease outlasts the send it covers by this much: closing the aborted connection, marking the message. */
const LEASE_MARGIN_MS = 30_000;
export const MAX_MAIL_ATTEMPTS = 10;
/** The job that runs the mail worker. */
export const MAIL_DELIVERY_JOB = "mail-delivery";

/** Backoff after the n-th failed attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

/**
 * Delivers the outbox, one message at a time in queue order. Each message is leased right before its send, for
 * longer than the transport lets a send take, so no other worker takes it while that send may still be under way.
 * A worker that dies mid-send leaves the lease to run out and the message is sent again: at least once, never twice
 * at the same time.
 */
export class MailWorker {
  constructor(private readonly deps: { db: Db; clock: Clock; transport: MailTransport; from: string; logger: Logger }) {}

  /** Delivers what is due now; returns how many messages were sent. */
  async runOnce(): Promise<number> {
    const { db, clock, transport } = this.deps;
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const message = await leaseNextMail(db, now, new Date(now.getTime() + transport.maxSendMs + LEASE_MARGIN_MS));
      if (!message) return sent;
      if (await this.deliver(message)) sent++;
    }
  }

  private async deliver(message: OutboxRow): Promise<boolean> {
    const { db, clock, transport, from, logger } = this.deps;
    try {
      await transport.send({ from, to: message.recipient, subject: message.subject, text: message.text, html: message.html ?? undefined });
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      const retryAt = message.attempts >= MAX_MAIL_ATTEMPTS ? null : new Date(clock.now().getTime() + retryDelayMs(message.attempts));
      logger.warn({ mailId: message.id, attempts: message.attempts, reason }, "mail delivery failed");
      await markMailFailed(db, message.id, message.attempts, reason.slice(0, 1000), retryAt);
      return false;
    }
    await markMailSent(db, message.id, clock.now());
    return true;
  }
}
