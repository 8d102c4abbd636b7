import { Field, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { describedBy } from "../../graphql/described.js";
import type { DeliveryStatus } from "../../tables/webhook.table.js";
import type { z } from "zod";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import {
  createdEndpointSchema,
  deliverySchema,
  deliveryStatus,
  endpointSchema,
  rotatedSecretSchema,
  type CreatedEndpointDto,
  type DeliveryDto,
  type EndpointDto,
} from "./webhook.dto.js";
import { deliveryPaging, endpointPaging } from "./webhook.inputs.js";

export const DeliveryStatusEnum = graphqlEnum(deliveryStatus);

const endpoint = describedBy(endpointSchema);

@ObjectType("WebhookEndpoint", { ...endpoint.type, simpleResolvers: true })
export class WebhookEndpoint implements LiteralsWidened<EndpointDto> {
  @Field(() => Int, endpoint("id")) id!: number;
  @Field(() => String, endpoint("url")) url!: string;
  @Field(() => [String], endpoint("events")) events!: string[];
  @Field(() => String, endpoint("description", { nullable: true })) description!: string | null;
  @Field(() => Boolean, endpoint("enabled")) enabled!: boolean;
  @Field(() => DateTime, endpoint("createdAt")) createdAt!: Date;
  @Field(() => DateTime, endpoint("updatedAt")) updatedAt!: Date;
}

const created = describedBy(createdEndpointSchema);

@ObjectType("CreatedWebhookEndpoint", { ...created.type, simpleResolvers: true })
export class CreatedWebhookEndpoint extends WebhookEndpoint implements LiteralsWidened<CreatedEndpointDto> {
  @Field(() => String, created("secret")) secret!: string;
}

const rotated = describedBy(rotatedSecretSchema);

@ObjectType("WebhookSecret", { ...rotated.type, simpleResolvers: true })
export class WebhookSecret implements z.output<typeof rotatedSecretSchema> {
  @Field(() => String, rotated("secret")) secret!: string;
}

const delivery = describedBy(deliverySchema);

@ObjectType("WebhookDelivery", { ...delivery.type, simpleResolvers: true })
export class WebhookDelivery implements LiteralsWidened<DeliveryDto> {
  @Field(() => Int, delivery("id")) id!: number;
  @Field(() => String, delivery("eventId")) eventId!: string;
  @Field(() => String, delivery("eventType")) eventType!: string;
  @Field(() => DeliveryStatusEnum, delivery("status")) status!: DeliveryStatus;
  @Field(() => Int, delivery("attempts")) attempts!: number;
  @Field(() => Int, delivery("lastStatusCode", { nullable: true })) lastStatusCode!: number | null;
  @Field(() => String, delivery("lastError", { nullable: true })) lastError!: string | null;
  @Field(() => DateTime, delivery("nextAttemptAt", { nullable: true })) nextAttemptAt!: Date | null;
  @Field(() => DateTime, delivery("createdAt")) createdAt!: Date;
  @Field(() => DateTime, delivery("deliveredAt", { nullable: true })) deliveredAt!: Date | null;
}

export const WebhookEndpointPage = PageOf(WebhookEndpoint, "WebhookEndpointPage");
export const WebhookEndpointOrderBy = orderByEnum("WebhookEndpointOrderBy", endpointPaging, "webhook endpoints");
export const WebhookDeliveryPage = PageOf(WebhookDelivery, "WebhookDeliveryPage");
export const WebhookDeliveryOrderBy = orderByEnum("WebhookDeliveryOrderBy", deliveryPaging, "webhook deliveries");
