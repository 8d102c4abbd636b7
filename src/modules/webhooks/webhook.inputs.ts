import { z } from "zod";
import type { Paging } from "../../platform/paging.js";
import { optionalText } from "../../platform/validation.js";
import { DELIVERY_SORTS, ENDPOINT_SORTS } from "./webhook.repository.js";
import { DOMAIN_EVENT_TYPES } from "../../tables/events.table.js";

const url = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: "URL inválida (http ou https)" }));

const events = z
  .array(z.enum(DOMAIN_EVENT_TYPES))
  .min(1, "Informe ao menos um evento")
  .refine((list) => new Set(list).size === list.length, "Eventos repetidos");

/** A new endpoint: where to POST, which events, what it is for. */
export const endpointInput = z.object({
  url,
  events,
  description: optionalText(2000),
});
export type EndpointInput = z.output<typeof endpointInput>;

/** A change of an endpoint: any of its fields, and `enabled` (turning a disabled endpoint back on). */
export const endpointChangeInput = z.object({
  url: url.optional(),
  events: events.optional(),
  description: optionalText(2000),
  enabled: z.boolean().optional(),
});
export type EndpointChangeInput = z.output<typeof endpointChangeInput>;

export const endpointPaging: Paging = { sortable: Object.keys(ENDPOINT_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };
export const deliveryPaging: Paging = { sortable: Object.keys(DELIVERY_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };
export const noFilter = z.object({});
