import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { argumentsReader, inputReader, listReader } from "../../graphql/arguments.js";
import { PageInput } from "../../graphql/page.js";
import { User } from "../users/user.types.js";
import {
  cancelInput,
  invoiceFilter,
  paymentFilter,
  planCatalogueFilter,
  billingHistoryPaging,
  simulatePaymentInput,
  subscribeInput,
  updateSubscriptionInput,
} from "./billing.inputs.js";
import {
  BillingHistoryFilterInput,
  InvoicePage,
  Invoice,
  PaymentPage,
  Payment,
  PixTransaction,
  SubscribeInput,
  SubscriptionPlanFilter,
  SubscriptionPlan,
  UserSubscription,
  UpdateSubscriptionInput,
} from "./billing.types.js";

/** Plans, subscriptions, payments and invoices over GraphQL: the same services as REST. */
@Resolver()
export class BillingResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("billing:read")
  @Query(() => [SubscriptionPlan])
  subscriptionPlans(@Arg("filter", () => SubscriptionPlanFilter, { nullable: true }) filter: SubscriptionPlanFilter | undefined, @Ctx() ctx: Context) {
    return ctx.services.subscriptionPlans.list(ctx.actor, argumentsReader(planCatalogueFilter, filter));
  }

  @Scoped("billing:read")
  @Query(() => SubscriptionPlan)
  subscriptionPlan(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.subscriptionPlans.get(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => UserSubscription, { description: "The subscription giving access, else the latest pending one" })
  mySubscription(@Ctx() ctx: Context) {
    return ctx.services.subscriptions.mySubscription(ctx.actor);
  }

  @Scoped("billing:read")
  @Query(() => PaymentPage)
  payments(
    @Arg("filter", () => BillingHistoryFilterInput, { nullable: true }) filter: BillingHistoryFilterInput | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.billingHistory.listPayments(ctx.actor, listReader(billingHistoryPaging, paymentFilter, filter, page));
  }

  @Scoped("billing:read")
  @Query(() => Payment)
  payment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.billingHistory.getPayment(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => InvoicePage)
  invoices(
    @Arg("filter", () => BillingHistoryFilterInput, { nullable: true }) filter: BillingHistoryFilterInput | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.billingHistory.listInvoices(ctx.actor, listReader(billingHistoryPaging, invoiceFilter, filter, page));
  }

  @Scoped("billing:read")
  @Query(() => Invoice)
  invoice(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.billingHistory.getInvoice(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => PixTransaction, { description: "A PIX transaction's status (polled after showing the QR code)" })
  pixTransaction(@Arg("id", () => String) id: string, @Ctx() ctx: Context) {
    return ctx.services.paymentEvents.pixStatus(ctx.actor, id);
  }

  @Scoped("login")
  @Mutation(() => UserSubscription, { description: "Card: charged now (ACTIVE or UNPROCESSABLE); PIX/BOLETO: PENDING with the QR code" })
  subscribe(@Arg("input", () => SubscribeInput) input: SubscribeInput, @Ctx() ctx: Context) {
    return ctx.services.checkouts.subscribe(ctx.actor, inputReader(subscribeInput, input));
  }

  @Scoped("login")
  @Mutation(() => UserSubscription)
  updateSubscription(@Arg("id", () => Int) id: number, @Arg("input", () => UpdateSubscriptionInput) input: UpdateSubscriptionInput, @Ctx() ctx: Context) {
    return ctx.services.subscriptions.update(ctx.actor, id, inputReader(updateSubscriptionInput, input));
  }

  @Scoped("login")
  @Mutation(() => UserSubscription)
  cancelSubscription(
    @Arg("id", () => Int) id: number,
    @Arg("cancelImmediately", () => Boolean, { defaultValue: false }) cancelImmediately: boolean,
    @Arg("reason", () => String, { nullable: true }) reason: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.subscriptions.cancel(ctx.actor, id, inputReader(cancelInput, { cancelImmediately, reason }));
  }

  @Scoped("login")
  @Mutation(() => PixTransaction, { description: "Pays a PIX charge (sandbox or gateway dev mode only)" })
  simulatePixPayment(@Arg("id", () => String) id: string, @Ctx() ctx: Context) {
    return ctx.services.paymentEvents.simulatePixPayment(ctx.actor, inputReader(simulatePaymentInput, { id }));
  }
}

/** `User.subscription`: for the user themself and administrators' dashboards. */
@Resolver(() => User)
export class UserSubscriptionResolver {
  @Scoped("billing:read")
  @FieldResolver(() => UserSubscription, { nullable: true, description: "The subscription giving access (self or administrators)" })
  subscription(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.loaders.subscriptionOfUser.load(user.id);
  }
}
