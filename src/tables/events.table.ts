import { sql } from "drizzle-orm";
import { bigserial, check, index, integer, jsonb, pgTable, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf } from "../platform/db/columns.js";

/**
 * The event types (contract §14.1), and what makes a reader entitled to each: `activity` is a user's logged activity
 * (its user, administrators and the user's ACTIVE-linked trainer, contract §7); `parties` an entity of its subject
 * users (them and administrators: invites, links and assignments of their two parties, one's own subscriptions and
 * payments). `ping` goes only to the endpoint it tests.
 */
export const WEBHOOK_EVENT_RULES = {
  "training_execution.created": "activity",
  "exercise_execution.created": "activity",
  "personal_record.achieved": "activity",
  "plan_assignment.updated": "parties",
  "invite.updated": "parties",
  "link.updated": "parties",
  "subscription.updated": "parties",
  "payment.completed": "parties",
} as const;
export type DomainEventType = keyof typeof WEBHOOK_EVENT_RULES;
export const DOMAIN_EVENT_TYPES = Object.keys(WEBHOOK_EVENT_RULES) as DomainEventType[];
export const WEBHOOK_EVENT_TYPES = [...DOMAIN_EVENT_TYPES, "ping"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/**
 * The outbox of domain events, written in the transaction of the change that causes each. `subjectUserIds` are the
 * users whose activity or entity the event is: a reader's right to the event is decided from them and the type's rule
 * (WEBHOOK_EVENT_RULES), by the webhook dispatcher for endpoints and by any other consumer for its own readers.
 * `dispatchedAt` is set once the webhook dispatcher has made the event's deliveries.
 */
export const domainEvents = pgTable(
  "domain_events",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    publicId: text("public_id").notNull(),
    type: text("type").$type<WebhookEventType>().notNull(),
    subjectUserIds: integer("subject_user_ids").array().notNull(),
    data: jsonb("data").$type<object>().notNull(),
    createdAt: createdAt(),
    dispatchedAt: instant("dispatched_at"),
  },
  (t) => [
    uniqueIndex("domain_events_public_id_idx").on(t.publicId),
    index("domain_events_undispatched_idx")
      .on(t.id)
      .where(sql`${t.dispatchedAt} is null`),
    index("domain_events_created_at_idx").on(t.createdAt),
    check("domain_events_type_check", sql`${t.type} in (${oneOf(WEBHOOK_EVENT_TYPES)})`),
  ],
);
