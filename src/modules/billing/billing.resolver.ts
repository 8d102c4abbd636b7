import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { argumentsReader, inputReader, listReader } from "../../graphql/arguments.js";
import { describedBy } from "../../graphql/described.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
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
  InvoiceFilter,
  InvoiceOrderBy,
  InvoicePage,
  Invoice,
  PaymentFilter,
  PaymentOrderBy,
  PaymentPage,
  Payment,
  PixTransaction,
  SubscribeInput,
  SubscriptionPlanFilter,
  SubscriptionPlan,
  UserSubscription,
  UpdateSubscriptionInput,
} from "./billing.types.js";

const cancelField = (key: "cancelImmediately" | "reason") => describedBy(cancelInput)(key).description;
const simulateField = (key: "id") => describedBy(simulatePaymentInput)(key).description;

/** Plans, subscriptions, payments and invoices over GraphQL: the same services as REST. */
@Resolver()
export class BillingResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("billing:read")
  @Query(() => [SubscriptionPlan], { description: "The plan catalogue, by userType, then price: a plain list, not a page" })
  subscriptionPlans(
    @Arg("filter", () => SubscriptionPlanFilter, { nullable: true, description: "What narrows the catalogue" }) filter: SubscriptionPlanFilter | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.subscriptionPlans.list(ctx.actor, argumentsReader(planCatalogueFilter, filter));
  }

  @Scoped("billing:read")
  @Query(() => SubscriptionPlan, { description: "One plan of the catalogue (withdrawn ones too)" })
  subscriptionPlan(@Arg("id", () => Int, { description: "The plan's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.subscriptionPlans.get(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => UserSubscription, { description: "The subscription giving access, else the latest pending one; NOT_FOUND when there is neither" })
  mySubscription(@Ctx() ctx: Context) {
    return ctx.services.subscriptions.mySubscription(ctx.actor);
  }

  @Scoped("billing:read")
  @Query(() => PaymentPage, { description: "The caller's payments; an administrator's listing has everyone's" })
  payments(
    @Arg("filter", () => PaymentFilter, { nullable: true, description: "What narrows the listing" }) filter: PaymentFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [PaymentOrderBy], { nullable: true, description: "The order: newest first (by createdAt, descending) unless given" })
    orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.billingHistory.listPayments(ctx.actor, listReader(billingHistoryPaging, paymentFilter, filter, page, orderBy));
  }

  @Scoped("billing:read")
  @Query(() => Payment, { description: "One payment: the owner's, or any for an administrator" })
  payment(@Arg("id", () => Int, { description: "The payment's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.billingHistory.getPayment(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => InvoicePage, { description: "The caller's invoices; an administrator's listing has everyone's" })
  invoices(
    @Arg("filter", () => InvoiceFilter, { nullable: true, description: "What narrows the listing" }) filter: InvoiceFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [InvoiceOrderBy], { nullable: true, description: "The order: newest first (by createdAt, descending) unless given" })
    orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.billingHistory.listInvoices(ctx.actor, listReader(billingHistoryPaging, invoiceFilter, filter, page, orderBy));
  }

  @Scoped("billing:read")
  @Query(() => Invoice, { description: "One invoice: the owner's, or any for an administrator (its PDF: REST's invoiceUrl)" })
  invoice(@Arg("id", () => Int, { description: "The invoice's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.billingHistory.getInvoice(ctx.actor, id);
  }

  @Scoped("billing:read")
  @Query(() => PixTransaction, {
    description:
      "A PIX transaction's status (polled after showing the QR code): the owner's or, for an administrator, any; a PENDING one is checked with the gateway first",
  })
  pixTransaction(@Arg("id", () => String, { description: "The PIX transaction's id, as the gateway gave it" }) id: string, @Ctx() ctx: Context) {
    return ctx.services.paymentEvents.pixStatus(ctx.actor, id);
  }

  @Scoped("login")
  @Mutation(() => UserSubscription, {
    description:
      "Card: charged now (ACTIVE or UNPROCESSABLE); PIX/BOLETO: PENDING with the QR code (pix) or the boleto to pay. CONFLICT when a subscription already gives access",
  })
  subscribe(@Arg("input", () => SubscribeInput, { description: "The plan and how it is paid" }) input: SubscribeInput, @Ctx() ctx: Context) {
    return ctx.services.checkouts.subscribe(ctx.actor, inputReader(subscribeInput, input));
  }

  @Scoped("login")
  @Mutation(() => UserSubscription, {
    description:
      "Changes autoRenew, the payment method or the card renewals charge (owner or administrator); CONFLICT once the subscription is CANCELED, EXPIRED or FAILED",
  })
  updateSubscription(
    @Arg("id", () => Int, { description: "The subscription's id" }) id: number,
    @Arg("input", () => UpdateSubscriptionInput, { description: "What changes" }) input: UpdateSubscriptionInput,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.subscriptions.update(ctx.actor, id, inputReader(updateSubscriptionInput, input));
  }

  @Scoped("login")
  @Mutation(() => UserSubscription, {
    description: "Cancels an ACTIVE or PENDING subscription (owner or administrator), at the card gateway too; CONFLICT when it is already canceled",
  })
  cancelSubscription(
    @Arg("id", () => Int, { description: "The subscription's id" }) id: number,
    @Arg("cancelImmediately", () => Boolean, { defaultValue: false, description: cancelField("cancelImmediately") }) cancelImmediately: boolean,
    @Arg("reason", () => String, { nullable: true, description: cancelField("reason") }) reason: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.subscriptions.cancel(ctx.actor, id, inputReader(cancelInput, { cancelImmediately, reason }));
  }

  @Scoped("login")
  @Mutation(() => PixTransaction, {
    description: "Pays a PIX charge (sandbox or gateway dev mode only; NOT_FOUND otherwise) as its payer would: the owner's, or any for an administrator",
  })
  simulatePixPayment(@Arg("id", () => String, { description: simulateField("id") }) id: string, @Ctx() ctx: Context) {
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
