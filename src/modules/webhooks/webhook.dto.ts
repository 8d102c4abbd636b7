import { z } from "zod";
import { DELIVERY_STATUSES } from "../../tables/webhook.table.js";
import { DOMAIN_EVENT_TYPES, WEBHOOK_EVENT_TYPES } from "../../tables/events.table.js";
import type { DeliveryRow, EndpointRow } from "./webhook.repository.js";

/* The answers' shapes as zod schemas: the DTO types are read from them and the OpenAPI document describes them. */

export const endpointSchema = z.object({
  id: z.number().int(),
  url: z.string(),
  events: z.array(z.enum(DOMAIN_EVENT_TYPES)),
  description: z.string().nullable(),
  enabled: z.boolean().describe("false: disabled by its owner, or by the service after 5 days of only failed deliveries"),
  createdAt: z.iso.datetime(),
  updatedAt: z.iso.datetime(),
});
export type EndpointDto = Omit<z.output<typeof endpointSchema>, "createdAt" | "updatedAt"> & { createdAt: Date; updatedAt: Date };

export const createdEndpointSchema = endpointSchema.extend({
  secret: z.string().describe("whsec_ + base64 of 24 random bytes: the signing key, shown only here and at rotation"),
});
export type CreatedEndpointDto = EndpointDto & { secret: string };

export const rotatedSecretSchema = z.object({
  secret: z.string().describe("the new signing key; the previous one keeps signing alongside it for 24 hours"),
});

export const deliverySchema = z.object({
  id: z.number().int(),
  eventId: z.string().describe("the event's id (evt_…), the webhook-id header of every attempt"),
  eventType: z.enum(WEBHOOK_EVENT_TYPES),
  status: z.enum(DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastStatusCode: z.number().int().nullable(),
  lastError: z.string().nullable(),
  nextAttemptAt: z.iso.datetime().nullable(),
  createdAt: z.iso.datetime(),
  deliveredAt: z.iso.datetime().nullable(),
});
export interface DeliveryDto {
  id: number;
  eventId: string;
  eventType: (typeof WEBHOOK_EVENT_TYPES)[number];
  status: (typeof DELIVERY_STATUSES)[number];
  attempts: number;
  lastStatusCode: number | null;
  lastError: string | null;
  nextAttemptAt: Date | null;
  createdAt: Date;
  deliveredAt: Date | null;
}

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
