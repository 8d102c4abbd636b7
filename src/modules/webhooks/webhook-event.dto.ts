import { z } from "zod";
import { int, instant } from "../../platform/answer-fields.js";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "../../tables/events.table.js";
import { paymentSchema, subscriptionSchema } from "../billing/billing.dto.js";
import { linkSchema, sentInviteSchema } from "../coaching/coaching.dto.js";
import { exerciseExecutionSchema, trainingExecutionSchema } from "../executions/execution.dto.js";
import { recordSchema } from "../records/records.dto.js";
import { planAssignmentSchema } from "../training-plans/training-plan.dto.js";

/**
 * What an endpoint receives for each event type (contract §14.1): the Standard Webhooks envelope around the event's
 * data, the REST answer of its subject. Declared here once: the OpenAPI document's `webhooks` section carries them,
 * so a receiver generates its types, and the delivery tests check every event delivered against it.
 */
const EVENTS: Record<WebhookEventType, { summary: string; data: z.ZodType }> = {
  "training_execution.created": {
    summary: "A student logged a session",
    data: trainingExecutionSchema.required({ newRecords: true }),
  },
  "exercise_execution.created": {
    summary: "A student logged an exercise on its own",
    data: exerciseExecutionSchema.required({ newRecords: true }),
  },
  "personal_record.achieved": {
    summary: "A student set a record (contract §12.1)",
    data: recordSchema.extend({ userId: int().describe("The student who set it") }),
  },
  "plan_assignment.updated": { summary: "A plan assignment was made, accepted, completed or canceled", data: planAssignmentSchema },
  "invite.updated": { summary: "An invite was sent, accepted, rejected, canceled or expired", data: sentInviteSchema },
  "link.updated": { summary: "A trainer-student link was made or ended", data: linkSchema },
  "subscription.updated": { summary: "A subscription changed (bought, renewed, changed, canceled, expired)", data: subscriptionSchema },
  "payment.completed": { summary: "A payment went through", data: paymentSchema },
  ping: {
    summary: "The test event POST /webhook-endpoints/{id}/test sends to its endpoint alone",
    data: z.object({ endpointId: int().describe("The endpoint tested"), url: z.string().describe("Its address") }),
  },
};

/** An event type's name in the documents: `training_execution.created` → `TrainingExecutionCreated`. */
const nameOf = (type: WebhookEventType) => type.replace(/(?:^|[._])(\w)/g, (_, letter: string) => letter.toUpperCase());

/** The Standard Webhooks envelope of one event type, `<name>Event` in the document. */
function envelopeOf(type: WebhookEventType) {
  return z
    .object({
      id: z.string().describe("The event's id (`evt_…`): the same on every attempt, so a receiver drops one it already applied"),
      type: z.literal(type).describe("The event type"),
      createdAt: instant.describe("When the event happened (for a ping: when the test was asked)"),
      data: EVENTS[type].data.describe("The event's subject, as its REST answer"),
    })
    .meta({ id: `${nameOf(type)}Event`, description: EVENTS[type].summary });
}

/** Each event type's envelope and what it means, in the order the contract lists them. */
export const webhookEvents = WEBHOOK_EVENT_TYPES.map((type) => ({ type, name: nameOf(type), summary: EVENTS[type].summary, schema: envelopeOf(type) }));
