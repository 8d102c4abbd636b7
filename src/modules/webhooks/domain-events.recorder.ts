import { randomBytes } from "node:crypto";
import { afterCommit, databaseOf } from "../../platform/db/after-commit.js";
import type { Db } from "../../platform/db/database.js";
import { webhookRepository } from "./webhook.repository.js";
import type { DomainEventType, WebhookEventType } from "../../tables/webhook.table.js";

export type { DomainEventType } from "../../tables/webhook.table.js";

/**
 * An event of the domain (contract §14.1): its type, the users whose activity or entity it is (who may read it follows
 * from them and the type's rule, WEBHOOK_EVENT_RULES), and its data (the REST DTO a reader gets).
 */
export interface DomainEvent<Type extends WebhookEventType = DomainEventType> {
  type: Type;
  subjectUserIds: readonly number[];
  data: object;
}

/** The public id of an event (`evt_` + 32 hex digits), the same in every delivery of it. */
export const newEventId = () => `evt_${randomBytes(16).toString("hex")}`;

/**
 * Records events in the outbox, inside the transaction `tx` of the change that causes them (as mail goes into the
 * outbox): a crash loses none, and a change rolled back sends none. `at` is the service clock's moment of the change.
 */
export async function recordEvent(tx: Db, at: Date, ...events: DomainEvent[]): Promise<void> {
  const recorded = await webhookRepository.insertEvents(
    tx,
    events.map((event) => ({ publicId: newEventId(), type: event.type, subjectUserIds: [...new Set(event.subjectUserIds)], data: event.data, createdAt: at })),
  );
  const listener = listeners.get(databaseOf(tx));
  if (listener && recorded.length > 0) afterCommit(tx, () => listener(recorded));
}

/** An event as its consumers hear of it once committed: its ids, type and subject users (its data stays in the row). */
export interface CommittedEvent {
  id: number;
  /** `evt_…`, never reused (row ids may be, in a database restored or emptied). */
  publicId: string;
  type: WebhookEventType;
  subjectUserIds: number[];
}

const listeners = new WeakMap<Db, (events: CommittedEvent[]) => unknown>();

/**
 * Calls `listener` with the events recorded on `db`, once the transaction that recorded them has committed (never for
 * a rollback): what wakes the webhook deliveries and announces live updates without waiting for a poll. The outbox
 * rows stay the truth; a listener that misses events (a crash right after the commit) only delays them.
 */
export function whenEventsCommitted(db: Db, listener: (events: CommittedEvent[]) => unknown): void {
  listeners.set(db, listener);
}
