import { randomBytes } from "node:crypto";
import { afterCommit, databaseOf } from "../../platform/db/after-commit.js";
import type { Db } from "../../platform/db/database.js";
import { DOMAIN_EVENT_TYPES, type WebhookEventType } from "../../tables/events.table.js";
import type { DomainEvent, PublicEvent } from "./domain-event.js";
import { outboxRepository } from "./outbox.repository.js";

export type { DomainEvent, DomainEventOf, PublicEvent } from "./domain-event.js";

/**
 * A consumer's part of every emit, inside the emitting transaction: what it must write with the change (the change
 * feed's rows, a log's read models and records) and can only compute from the state at that moment. It hears all the
 * events of one emit at once, so that it writes them in as few statements as one event; it may emit events of its own
 * (a record claimed), which every subscriber hears of in turn.
 */
export type EventSubscriber = (tx: Db, at: Date | undefined, events: readonly DomainEvent[]) => Promise<void>;

const subscribersOf = new WeakMap<Db, readonly EventSubscriber[]>();

/** Who hears of the events emitted on `db`, in order (the composition root's; a later call replaces them). */
export function subscribe(db: Db, ...subscribers: EventSubscriber[]): void {
  subscribersOf.set(db, subscribers);
}

/**
 * Emits events of changes made in the transaction `tx`, at the point where each subscriber must see the state (a
 * delete emits before its row goes): every subscriber hears of them there, and the public ones go into the outbox (as
 * mail goes into the outbox): a crash loses none, and a change rolled back sends none. `at` is the service clock's
 * moment of the change (the database's `now()` when not given).
 */
export async function emit(tx: Db, at: Date | undefined, ...events: DomainEvent[]): Promise<void> {
  if (events.length === 0) return;
  const database = databaseOf(tx);
  const subscribers = subscribersOf.get(database);
  if (!subscribers) throw new Error("events emitted on a database no composition root subscribed to");
  for (const subscriber of subscribers) await subscriber(tx, at, events);
  const recorded = await outboxRepository.insertEvents(
    tx,
    events
      .filter(isPublic)
      .map((event) => ({ publicId: newEventId(), type: event.type, subjectUserIds: [...new Set(event.subjectUserIds)], data: event.data, createdAt: at })),
  );
  const listener = listeners.get(database);
  if (listener && recorded.length > 0) afterCommit(tx, () => listener(recorded));
}

const PUBLIC_TYPES = new Set<string>(DOMAIN_EVENT_TYPES);
const isPublic = (event: DomainEvent): event is PublicEvent => PUBLIC_TYPES.has(event.type);

/** The public id of an event (`evt_` + 32 hex digits), the same in every delivery of it. */
export const newEventId = () => `evt_${randomBytes(16).toString("hex")}`;

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
 * Calls `listener` with the public events emitted on `db`, once the transaction that emitted them has committed
 * (never for a rollback): what wakes the webhook deliveries and announces live updates without waiting for a poll.
 * The outbox rows stay the truth; a listener that misses events (a crash right after the commit) only delays them.
 */
export function whenEventsCommitted(db: Db, listener: (events: CommittedEvent[]) => unknown): void {
  listeners.set(db, listener);
}
