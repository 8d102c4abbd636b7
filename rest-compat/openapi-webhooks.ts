import type { z } from "zod";

type JsonSchema = Record<string, unknown>;

/** The tag of the document's webhooks section. */
export const RECEIVED_WEBHOOKS_TAG = "Webhooks you receive";

/** An event the service POSTs to the endpoints subscribed to it (contract §14.1). */
export interface WebhookEventSpec {
  type: string;
  /** Its name in the document (PascalCase): the receiver's operation is `receive<name>`. */
  name: string;
  summary: string;
  /** The envelope, with the event's data. */
  schema: z.ZodType;
}

/** The Standard Webhooks headers every delivery carries. */
const WEBHOOK_HEADERS = [
  ["webhook-id", "The event's id (as the body's `id`): the same on every attempt"],
  ["webhook-timestamp", "When this attempt was signed, in Unix seconds: refuse one far from your clock (replays)"],
  [
    "webhook-signature",
    "`v1,<base64 HMAC-SHA256>` of `<webhook-id>.<webhook-timestamp>.<body>`, keyed by the base64-decoded part of the endpoint's secret after `whsec_`; one value per active secret (two for 24 h after a rotation), space-separated",
  ],
].map(([name, description]) => ({ name, in: "header", required: true, description, schema: { type: "string" } }));

/** The document's `webhooks` section: what an endpoint receives, by event type, as a receiver's operations. */
export function webhooksOf(events: readonly WebhookEventSpec[], bodySchema: (schema: z.ZodType) => JsonSchema): Record<string, JsonSchema> {
  return Object.fromEntries(
    events.map((event) => [
      event.type,
      {
        post: {
          operationId: `receive${event.name}`,
          tags: [RECEIVED_WEBHOOKS_TAG],
          summary: event.summary,
          description:
            "POSTed to each enabled endpoint subscribed to the event whose owner may see its subject (contract §14.1), signed by Standard Webhooks. At least once, in no guaranteed order: drop an `id` already applied.",
          security: [],
          parameters: WEBHOOK_HEADERS,
          requestBody: { required: true, content: { "application/json": { schema: bodySchema(event.schema) } } },
          responses: {
            "200": { description: "Received: any 2xx within 10 s. Anything else is tried again after about 5 s, 5 min, 30 min, 2 h, 5 h, 10 h and 10 h" },
          },
        },
      },
    ]),
  );
}
