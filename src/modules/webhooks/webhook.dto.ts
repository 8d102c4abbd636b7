import { z } from "zod";
import { instant } from "../../platform/answer-fields.js";
import { enumeration } from "../../platform/enumeration.js";
import { DELIVERY_STATUSES } from "../../tables/webhook.table.js";
import { DOMAIN_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "../../tables/events.table.js";
import type { DeliveryRow, EndpointRow } from "./webhook.repository.js";

export const deliveryStatus = enumeration(DELIVERY_STATUSES, {
  name: "WebhookDeliveryStatus",
  description: "Where a delivery of an event to an endpoint stands",
  meanings: {
    PENDING: "Not delivered yet: an attempt is due at nextAttemptAt (or under way)",
    SUCCEEDED: "An attempt was answered with a 2xx status within 10 seconds",
    FAILED: "Every attempt of the retry schedule failed; a retry gives it one more attempt",
  },
});

/** The event types an endpoint may subscribe to, as the descriptions list them. */
const DOMAIN_EVENTS = DOMAIN_EVENT_TYPES.join(", ");

/* The answers' shapes as zod schemas: the DTO types are read from them and the OpenAPI document describes them. */

export const endpointSchema = z
  .object({
    id: z.number().int().describe("The endpoint's id"),
    url: z.string().describe("Where the deliveries are POSTed"),
    events: z.array(z.enum(DOMAIN_EVENT_TYPES)).describe(`The event types it receives, among ${DOMAIN_EVENTS}`),
    description: z.string().nullable().describe("What it is for, in its owner's words; null when not given"),
    enabled: z.boolean().describe("false: disabled by its owner, or by the service after 5 days of only failed deliveries"),
    createdAt: instant.describe("When it was registered"),
    updatedAt: instant.describe("When it last changed"),
  })
  .describe("An endpoint receiving signed event deliveries (contract §14.1), without its secret");
export type EndpointDto = z.output<typeof endpointSchema>;

export const createdEndpointSchema = endpointSchema
  .extend({
    secret: z.string().describe("whsec_ + base64 of 24 random bytes: the signing key, shown only here and at rotation"),
  })
  .describe("A new endpoint with its signing secret, shown only now");
export type CreatedEndpointDto = EndpointDto & { secret: string };

export const rotatedSecretSchema = z
  .object({
    secret: z.string().describe("The new signing key; the previous one keeps signing alongside it for 24 hours"),
  })
  .describe("A new signing secret of an endpoint, shown only now");

export const deliverySchema = z
  .object({
    id: z.number().int().describe("The delivery's id"),
    eventId: z.string().describe("The event's id (evt_…): the webhook-id header of every attempt"),
    eventType: z.enum(WEBHOOK_EVENT_TYPES).describe("The event's type: one the endpoint receives, or ping (sent by a test)"),
    status: deliveryStatus.schema.describe("Where it stands"),
    attempts: z.number().int().describe("How many attempts were made: at most 8 on the retry schedule, and one more for each retry asked after it FAILED"),
    lastStatusCode: z
      .number()
      .int()
      .nullable()
      .describe("The HTTP status the endpoint answered the last attempt with; null before any attempt, or when no answer came (timeout, network error)"),
    lastError: z
      .string()
      .nullable()
      .describe("Why the last attempt failed (the HTTP status and the start of the answer, a timeout, a network error); null when it did not fail"),
    nextAttemptAt: instant.nullable().describe("When the next attempt is due, while PENDING; null otherwise"),
    createdAt: instant.describe("When the delivery was made for the event"),
    deliveredAt: instant.nullable().describe("When an attempt succeeded; null until then"),
  })
  .describe("One event to one endpoint, attempted on the retry schedule (about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h after each failure)");
export type DeliveryDto = z.output<typeof deliverySchema>;

export function toEndpointDto(row: EndpointRow): EndpointDto {
  return {
    id: row.id,
    url: row.url,
    events: row.events.filter((type) => type !== "ping") as EndpointDto["events"],
    description: row.description,
    enabled: row.enabled,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}

export function toDeliveryDto(row: DeliveryRow, event: { publicId: string; type: DeliveryDto["eventType"] }): DeliveryDto {
  return {
    id: row.id,
    eventId: event.publicId,
    eventType: event.type,
    status: row.status,
    attempts: row.attempts,
    lastStatusCode: row.lastStatusCode,
    lastError: row.lastError,
    nextAttemptAt: row.status === "PENDING" ? row.nextAttemptAt : null,
    createdAt: row.createdAt,
    deliveredAt: row.deliveredAt,
  };
}
