import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { describedBy } from "../../graphql/described.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { deliveryPaging, endpointChangeInput, endpointInput, endpointPaging, noFilter } from "./webhook.inputs.js";
import {
  CreatedWebhookEndpoint,
  WebhookDelivery,
  WebhookDeliveryOrderBy,
  WebhookDeliveryPage,
  WebhookEndpoint,
  WebhookEndpointOrderBy,
  WebhookEndpointPage,
  WebhookSecret,
} from "./webhook.types.js";

/** The mutations' arguments are the fields of the REST bodies, described there. */
const created = describedBy(endpointInput);
const changed = describedBy(endpointChangeInput);
const ENDPOINT_ID = "The endpoint's id";

/** Webhook endpoints over GraphQL: the same service as REST's /webhook-endpoints. */
@Resolver()
export class WebhookResolver {
  @Scoped("webhooks:manage")
  @Query(() => WebhookEndpointPage, { description: "The signed-in user's webhook endpoints (an administrator's: everyone's)" })
  webhookEndpoints(
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | null,
    @Arg("orderBy", () => [WebhookEndpointOrderBy], { nullable: true, description: "The order: newest first (by createdAt, descending) unless given" })
    orderBy: OrderBy | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.list(ctx.actor, listReader(endpointPaging, noFilter, null, page, orderBy));
  }

  @Scoped("webhooks:manage")
  @Query(() => WebhookEndpoint, { description: "One endpoint: the owner's, or any for an administrator" })
  webhookEndpoint(@Arg("id", () => Int, { description: ENDPOINT_ID }) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.get(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Query(() => WebhookDeliveryPage, { description: "An endpoint's deliveries, newest first" })
  webhookDeliveries(
    @Arg("endpointId", () => Int, { description: ENDPOINT_ID }) endpointId: number,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | null,
    @Arg("orderBy", () => [WebhookDeliveryOrderBy], { nullable: true, description: "The order: newest first (by createdAt, descending) unless given" })
    orderBy: OrderBy | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.listDeliveries(ctx.actor, endpointId, pageReader(page, deliveryPaging, orderBy));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => CreatedWebhookEndpoint, {
    description: "Registers an endpoint of the caller's for signed event deliveries; the answer holds its secret, shown only now",
  })
  createWebhookEndpoint(
    @Arg("url", () => String, created("url")) url: string,
    @Arg("events", () => [String], created("events")) events: string[],
    @Arg("description", () => String, created("description", { nullable: true })) description: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.create(ctx.actor, inputReader(endpointInput, { url, events, description }));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookEndpoint, { description: "Changes the fields given (an argument left out or null: unchanged; description null: cleared)" })
  updateWebhookEndpoint(
    @Arg("id", () => Int, { description: ENDPOINT_ID }) id: number,
    @Arg("url", () => String, changed("url", { nullable: true })) url: string | null,
    @Arg("events", () => [String], changed("events", { nullable: true })) events: string[] | null,
    @Arg("description", () => String, changed("description", { nullable: true })) description: string | null | undefined,
    @Arg("enabled", () => Boolean, changed("enabled", { nullable: true })) enabled: boolean | null,
    @Ctx() ctx: Context,
  ) {
    const given = Object.fromEntries(Object.entries({ url, events, enabled }).filter(([, value]) => value !== null && value !== undefined));
    return ctx.services.webhooks.update(ctx.actor, id, inputReader(endpointChangeInput, { ...given, description }));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => Boolean, { description: "Deletes an endpoint and its deliveries (owner or administrator); true when done" })
  async deleteWebhookEndpoint(@Arg("id", () => Int, { description: ENDPOINT_ID }) id: number, @Ctx() ctx: Context) {
    await ctx.services.webhooks.remove(ctx.actor, id);
    return true;
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookSecret, {
    description: "A new signing secret for the endpoint; deliveries carry a signature by the previous one too for 24 hours",
  })
  rotateWebhookEndpointSecret(@Arg("id", () => Int, { description: ENDPOINT_ID }) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.rotateSecret(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookDelivery, { description: "Sends a `ping` event to the endpoint; the answer is its delivery, PENDING" })
  testWebhookEndpoint(@Arg("id", () => Int, { description: ENDPOINT_ID }) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.test(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookDelivery, { description: "Attempts a delivery again now (a FAILED one gets one more attempt)" })
  retryWebhookDelivery(
    @Arg("endpointId", () => Int, { description: ENDPOINT_ID }) endpointId: number,
    @Arg("deliveryId", () => Int, { description: "The delivery's id, one of that endpoint's" }) deliveryId: number,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.retryDelivery(ctx.actor, endpointId, deliveryId);
  }
}
