import { sql } from "drizzle-orm";
import { bigint, boolean, check, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf, updatedAt } from "../platform/db/columns.js";
import { domainEvents, type WebhookEventType } from "./events.table.js";
import { users } from "./user.table.js";

export const DELIVERY_STATUSES = ["PENDING", "SUCCEEDED", "FAILED"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** Endpoints registered by users; secrets are stored sealed (AES-256-GCM under a key derived from the server's secret). */
export const webhookEndpoints = pgTable(
  "webhook_endpoints",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    url: text("url").notNull(),
    events: text("events").array().$type<WebhookEventType[]>().notNull(),
    description: text("description"),
    enabled: boolean("enabled").notNull().default(true),
    sealedSecret: text("sealed_secret").notNull(),
    /** The app whose token registered it (contract §18.2): it is that app's, for that user, and goes with its grant. */
    clientId: text("client_id"),
    /** The secret before the last rotation: it signs alongside the new one until `previousSecretUntil`. */
    sealedPreviousSecret: text("sealed_previous_secret"),
    previousSecretUntil: instant("previous_secret_until"),
    /** The first failed attempt since the last success (null: none); 5 days of only failures disable the endpoint. */
    failingSince: instant("failing_since"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("webhook_endpoints_user_idx").on(t.userId, t.id)],
);

/** One event to one endpoint, attempted on the retry schedule until it succeeds or fails for good. */
export const webhookDeliveries = pgTable(
  "webhook_deliveries",
  {
    id: serial("id").primaryKey(),
    endpointId: integer("endpoint_id")
      .notNull()
      .references(() => webhookEndpoints.id, { onDelete: "cascade" }),
    eventId: bigint("event_id", { mode: "number" })
      .notNull()
      .references(() => domainEvents.id, { onDelete: "cascade" }),
    status: text("status").$type<DeliveryStatus>().notNull().default("PENDING"),
    attempts: integer("attempts").notNull().default(0),
    lastStatusCode: integer("last_status_code"),
    lastError: text("last_error"),
    // Also the lease: a worker that takes a delivery pushes this past its attempt so no other worker takes it meanwhile.
    nextAttemptAt: instant("next_attempt_at"),
    // Until when an attempt under way holds the delivery (null once settled): a retry asked meanwhile is that attempt.
    leasedUntil: instant("leased_until"),
    createdAt: createdAt(),
    deliveredAt: instant("delivered_at"),
  },
  (t) => [
    uniqueIndex("webhook_deliveries_event_endpoint_idx").on(t.eventId, t.endpointId),
    index("webhook_deliveries_endpoint_idx").on(t.endpointId, t.id),
    index("webhook_deliveries_due_idx")
      .on(t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    // Each endpoint's pending deliveries by when they are due: the worker walks the endpoints with one due, oldest first.
    index("webhook_deliveries_pending_endpoint_idx")
      .on(t.endpointId, t.nextAttemptAt)
      .where(sql`${t.status} = 'PENDING'`),
    check("webhook_deliveries_status_check", sql`${t.status} in (${oneOf(DELIVERY_STATUSES)})`),
  ],
);
