import { Field, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { DELIVERY_STATUSES, type DeliveryStatus } from "../../tables/webhook.table.js";
import { WEBHOOK_EVENT_TYPES } from "../../tables/events.table.js";
import type { z } from "zod";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import type { CreatedEndpointDto, DeliveryDto, EndpointDto, rotatedSecretSchema } from "./webhook.dto.js";

const EVENT_TYPES = WEBHOOK_EVENT_TYPES.join(" | ");

export const DeliveryStatusEnum = graphqlEnum(DELIVERY_STATUSES, "WebhookDeliveryStatus");

@ObjectType("WebhookEndpoint", { description: "An endpoint receiving signed event deliveries (contract §14.1)", simpleResolvers: true })
export class WebhookEndpoint implements LiteralsWidened<EndpointDto> {
  @Field(() => Int) id!: number;
  @Field(() => String) url!: string;
  @Field(() => [String], { description: EVENT_TYPES }) events!: string[];
  @Field(() => String, { nullable: true }) description!: string | null;
  @Field(() => Boolean, { description: "false: disabled by its owner, or by the service after 5 days of only failed deliveries" }) enabled!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType("CreatedWebhookEndpoint", { description: "A new endpoint with its signing secret, shown only now", simpleResolvers: true })
export class CreatedWebhookEndpoint extends WebhookEndpoint implements LiteralsWidened<CreatedEndpointDto> {
  @Field(() => String, { description: "whsec_ + base64 of 24 random bytes" }) secret!: string;
}

@ObjectType("WebhookSecret", { description: "A new signing secret; the previous one keeps signing alongside it for 24 hours", simpleResolvers: true })
export class WebhookSecret implements z.output<typeof rotatedSecretSchema> {
  @Field(() => String) secret!: string;
}

@ObjectType("WebhookDelivery", { description: "One event to one endpoint, attempted on the retry schedule", simpleResolvers: true })
export class WebhookDelivery implements LiteralsWidened<DeliveryDto> {
  @Field(() => Int) id!: number;
  @Field(() => String, { description: "the event's id (evt_…), the webhook-id header of every attempt" }) eventId!: string;
  @Field(() => String, { description: EVENT_TYPES }) eventType!: string;
  @Field(() => DeliveryStatusEnum) status!: DeliveryStatus;
  @Field(() => Int) attempts!: number;
  @Field(() => Int, { nullable: true }) lastStatusCode!: number | null;
  @Field(() => String, { nullable: true }) lastError!: string | null;
  @Field(() => DateTime, { nullable: true }) nextAttemptAt!: Date | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime, { nullable: true }) deliveredAt!: Date | null;
}

export const WebhookEndpointPage = PageOf(WebhookEndpoint, "WebhookEndpointPage");
export const WebhookDeliveryPage = PageOf(WebhookDelivery, "WebhookDeliveryPage");
