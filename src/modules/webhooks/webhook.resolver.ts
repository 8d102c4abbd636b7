import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { PageInput } from "../../graphql/page.js";
import { deliveryPaging, endpointChangeInput, endpointInput, endpointPaging, noFilter } from "./webhook.inputs.js";
import { CreatedWebhookEndpoint, WebhookDelivery, WebhookDeliveryPage, WebhookEndpoint, WebhookEndpointPage, WebhookSecret } from "./webhook.types.js";

/** Webhook endpoints over GraphQL: the same service as REST's /webhook-endpoints. */
@Resolver()
export class WebhookResolver {
  @Scoped("webhooks:manage")
  @Query(() => WebhookEndpointPage, { description: "The signed-in user's webhook endpoints (an administrator's: everyone's)" })
  webhookEndpoints(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | null, @Ctx() ctx: Context) {
    return ctx.services.webhooks.list(ctx.actor, listReader(endpointPaging, noFilter, null, page));
  }

  @Scoped("webhooks:manage")
  @Query(() => WebhookEndpoint)
  webhookEndpoint(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.get(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Query(() => WebhookDeliveryPage, { description: "An endpoint's deliveries, newest first" })
  webhookDeliveries(
    @Arg("endpointId", () => Int) endpointId: number,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.listDeliveries(ctx.actor, endpointId, pageReader(page, deliveryPaging));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => CreatedWebhookEndpoint)
  createWebhookEndpoint(
    @Arg("url", () => String) url: string,
    @Arg("events", () => [String]) events: string[],
    @Arg("description", () => String, { nullable: true }) description: string | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.webhooks.create(ctx.actor, inputReader(endpointInput, { url, events, description }));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookEndpoint, { description: "Changes the fields given (an argument left out or null: unchanged; description null: cleared)" })
  updateWebhookEndpoint(
    @Arg("id", () => Int) id: number,
    @Arg("url", () => String, { nullable: true }) url: string | null,
    @Arg("events", () => [String], { nullable: true }) events: string[] | null,
    @Arg("description", () => String, { nullable: true }) description: string | null | undefined,
    @Arg("enabled", () => Boolean, { nullable: true }) enabled: boolean | null,
    @Ctx() ctx: Context,
  ) {
    const given = Object.fromEntries(Object.entries({ url, events, enabled }).filter(([, value]) => value !== null && value !== undefined));
    return ctx.services.webhooks.update(ctx.actor, id, inputReader(endpointChangeInput, { ...given, description }));
  }

  @Scoped("webhooks:manage")
  @Mutation(() => Boolean)
  async deleteWebhookEndpoint(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.webhooks.remove(ctx.actor, id);
    return true;
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookSecret)
  rotateWebhookEndpointSecret(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.rotateSecret(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookDelivery, { description: "Sends a `ping` event to the endpoint" })
  testWebhookEndpoint(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.test(ctx.actor, id);
  }

  @Scoped("webhooks:manage")
  @Mutation(() => WebhookDelivery, { description: "Attempts a delivery again now (a FAILED one gets one more attempt)" })
  retryWebhookDelivery(@Arg("endpointId", () => Int) endpointId: number, @Arg("deliveryId", () => Int) deliveryId: number, @Ctx() ctx: Context) {
    return ctx.services.webhooks.retryDelivery(ctx.actor, endpointId, deliveryId);
  }
}
