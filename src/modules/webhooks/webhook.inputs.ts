import { z } from "zod";
import type { Paging } from "../../platform/paging.js";
import { optionalText } from "../../platform/validation.js";
import { DELIVERY_SORTS, ENDPOINT_SORTS } from "./webhook.repository.js";
import { DOMAIN_EVENT_TYPES } from "../../tables/events.table.js";

const url = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: "URL inválida (http ou https)" }))
  .meta({ format: "uri" });

const events = z
  .array(z.enum(DOMAIN_EVENT_TYPES))
  .min(1, "Informe ao menos um evento")
  .refine((list) => new Set(list).size === list.length, "Eventos repetidos")
  // What the rules above enforce, declared: each type once, so at most every type.
  .meta({ uniqueItems: true, maxItems: DOMAIN_EVENT_TYPES.length });

/** A new endpoint: where to POST, which events, what it is for. */
export const endpointInput = z
  .object({
    url: url.describe(
      "Where to POST the deliveries: http or https, at most 2048 characters. In production: https only, and no host resolving to a loopback, private, link-local or cloud-metadata address",
    ),
    events: events.describe(`The event types to receive: at least one, each once, among ${DOMAIN_EVENT_TYPES.join(", ")}`),
    description: optionalText(2000).describe("What it is for (at most 2000 characters); blank or null: none"),
  })
  .describe("A webhook endpoint to register: where to POST, which events, what it is for");
export type EndpointInput = z.output<typeof endpointInput>;

/** A change of an endpoint: any of its fields, and `enabled` (turning a disabled endpoint back on). */
export const endpointChangeInput = z
  .object({
    url: url.optional().describe("A new address, by the rules of registration"),
    events: events.optional().describe("A new list of event types (at least one, each once), replacing the old one"),
    description: optionalText(2000).describe("A new description (at most 2000 characters); blank or null: cleared"),
    enabled: z
      .boolean()
      .optional()
      .describe("false: turned off (events meanwhile are not sent to it, its pending deliveries wait); true: on again, its run of failures starting afresh"),
  })
  .describe("Changes to a webhook endpoint; fields left out stay as they are");
export type EndpointChangeInput = z.output<typeof endpointChangeInput>;

export const endpointPaging: Paging = { sortable: Object.keys(ENDPOINT_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };
export const deliveryPaging: Paging = { sortable: Object.keys(DELIVERY_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };
export const noFilter = z.object({});
