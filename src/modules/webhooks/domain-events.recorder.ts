import { randomBytes } from "node:crypto";
import type { Db } from "../../platform/db/database.js";
import { webhookRepository } from "./webhook.repository.js";
import type { DomainEventType, WebhookEventType } from "./webhook.table.js";

export type { DomainEventType } from "./webhook.table.js";

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
  await webhookRepository.insertEvents(
    tx,
    events.map((event) => ({ publicId: newEventId(), type: event.type, subjectUserIds: [...new Set(event.subjectUserIds)], data: event.data, createdAt: at })),
  );
}
