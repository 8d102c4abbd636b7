import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import type { Logger } from "../logger.js";
import type { MailTransport } from "./mail-transport.js";
import { leaseDueMail, markMailFailed, markMailSent } from "./outbox.js";

const BATCH_SIZE = 20;
const LEASE_MS = 60_000;
export const MAX_MAIL_ATTEMPTS = 10;

/** Backoff after the n-th failed attempt: 30 s, 1 min, 2 min … capped at 1 h. */
export const retryDelayMs = (attempts: number) => Math.min(30_000 * 2 ** (attempts - 1), 3_600_000);

/** Delivers the outbox: each message is leased, sent, then marked; failures retry with backoff. */
export class MailWorker {
  constructor(
    private readonly deps: { db: Db; clock: Clock; transport: MailTransport; from: string; logger: Logger },
  ) {}

  /** Delivers what is due now; returns how many messages were sent. */
  async runOnce(): Promise<number> {
    const { db, clock, transport, from, logger } = this.deps;
    let sent = 0;
    for (;;) {
      const now = clock.now();
      const batch = await leaseDueMail(db, now, new Date(now.getTime() + LEASE_MS), BATCH_SIZE);
      if (batch.length === 0) return sent;
      for (const message of batch) {
        try {
          await transport.send({ from, to: message.recipient, subject: message.subject, text: message.text, html: message.html ?? undefined });
          await markMailSent(db, message.id, clock.now());
          sent++;
        } catch (error) {
          const reason = error instanceof Error ? error.message : String(error);
          const retryAt = message.attempts >= MAX_MAIL_ATTEMPTS ? null : new Date(clock.now().getTime() + retryDelayMs(message.attempts));
          logger.warn({ mailId: message.id, attempts: message.attempts, reason }, "mail delivery failed");
          await markMailFailed(db, message.id, reason.slice(0, 1000), retryAt);
        }
      }
      if (batch.length < BATCH_SIZE) return sent;
    }
  }
}
