import { z } from "zod";
import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { UserTypeEnum } from "../users/user.types.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import {
  invoiceSchema,
  invoiceStatus,
  paymentMethod,
  paymentSchema,
  paymentStatus,
  pixStatus,
  pixTransactionSchema,
  planInterval,
  planSchema,
  subscriptionSchema,
  subscriptionStatus,
  type InvoiceDto,
  type PaymentDto,
  type PixTransactionDto,
  type PlanDto,
  type SubscriptionDto,
} from "./billing.dto.js";
import {
  billingHistoryPaging,
  cardFields,
  invoiceFilter,
  paymentFilter,
  planCatalogueFilter,
  subscribeInput,
  updateSubscriptionInput,
} from "./billing.inputs.js";
import { boletoSchema, type Boleto as BoletoDto } from "./boleto.js";

export const PlanIntervalEnum = graphqlEnum(planInterval);
export const PaymentMethodEnum = graphqlEnum(paymentMethod);
export const SubscriptionStatusEnum = graphqlEnum(subscriptionStatus);
export const PaymentStatusEnum = graphqlEnum(paymentStatus);
export const InvoiceStatusEnum = graphqlEnum(invoiceStatus);
export const PixTransactionStatusEnum = graphqlEnum(pixStatus);

const plan = describedBy(planSchema);

@ObjectType("SubscriptionPlan", { ...plan.type, simpleResolvers: true })
export class SubscriptionPlan implements LiteralsWidened<PlanDto> {
  @Field(() => Int, plan("id")) id!: number;
  @Field(() => String, plan("name")) name!: string;
  @Field(() => String, plan("description")) description!: string;
  @Field(() => UserTypeEnum, plan("userType")) userType!: string;
  @Field(() => Float, plan("price")) price!: number;
  @Field(() => String, plan("currency")) currency!: string;
  @Field(() => PlanIntervalEnum, plan("interval")) interval!: string;
  @Field(() => [String], plan("features")) features!: string[];
  @Field(() => Int, plan("maxStudents", { nullable: true })) maxStudents!: number | null;
  @Field(() => Boolean, plan("active")) active!: boolean;
  @Field(() => DateTime, plan("createdAt")) createdAt!: Date;
  @Field(() => DateTime, plan("updatedAt")) updatedAt!: Date;
}

const pix = describedBy(pixTransactionSchema);

@ObjectType("PixTransaction", { ...pix.type, simpleResolvers: true })
export class PixTransaction implements LiteralsWidened<PixTransactionDto> {
  @Field(() => String, pix("id")) id!: string;
  @Field(() => Int, pix("subscriptionId")) subscriptionId!: number;
  @Field(() => Float, pix("amount")) amount!: number;
  @Field(() => String, pix("currency")) currency!: string;
  @Field(() => PixTransactionStatusEnum, pix("status")) status!: string;
  @Field(() => String, pix("brCode")) brCode!: string;
  @Field(() => String, pix("brCodeBase64")) brCodeBase64!: string;
  @Field(() => DateTime, pix("expiresAt")) expiresAt!: Date;
  @Field(() => DateTime, pix("createdAt")) createdAt!: Date;
}

const boleto = describedBy(boletoSchema);

@ObjectType("Boleto", { ...boleto.type, simpleResolvers: true })
export class Boleto implements BoletoDto {
  @Field(() => String, boleto("barcode")) barcode!: string;
  @Field(() => String, boleto("digitableLine")) digitableLine!: string;
  @Field(() => LocalDate, boleto("dueDate")) dueDate!: string;
  @Field(() => Float, boleto("amount")) amount!: number;
}

const subscription = describedBy(subscriptionSchema);

@ObjectType("UserSubscription", { ...subscription.type, simpleResolvers: true })
export class UserSubscription implements LiteralsWidened<SubscriptionDto> {
  @Field(() => Int, subscription("id")) id!: number;
  @Field(() => Int, subscription("userId")) userId!: number;
  @Field(() => String, subscription("userName")) userName!: string;
  @Field(() => Int, subscription("planId")) planId!: number;
  @Field(() => String, subscription("planName")) planName!: string;
  @Field(() => SubscriptionStatusEnum, subscription("status")) status!: string;
  @Field(() => DateTime, subscription("startDate", { nullable: true })) startDate!: Date | null;
  @Field(() => DateTime, subscription("endDate", { nullable: true })) endDate!: Date | null;
  @Field(() => DateTime, subscription("renewalDate", { nullable: true })) renewalDate!: Date | null;
  @Field(() => DateTime, subscription("canceledAt", { nullable: true })) canceledAt!: Date | null;
  @Field(() => Float, subscription("price")) price!: number;
  @Field(() => String, subscription("currency")) currency!: string;
  @Field(() => PaymentMethodEnum, subscription("paymentMethod")) paymentMethod!: string;
  @Field(() => String, subscription("lastFourDigits", { nullable: true })) lastFourDigits!: string | null;
  @Field(() => Boolean, subscription("autoRenew")) autoRenew!: boolean;
  @Field(() => DateTime, subscription("createdAt")) createdAt!: Date;
  @Field(() => DateTime, subscription("updatedAt")) updatedAt!: Date;
  @Field(() => PixTransaction, subscription("pix", { nullable: true })) pix?: PixTransaction;
  @Field(() => Boleto, subscription("boleto", { nullable: true })) boleto?: Boleto;
}

const payment = describedBy(paymentSchema);

@ObjectType("Payment", { ...payment.type, simpleResolvers: true })
export class Payment implements LiteralsWidened<PaymentDto> {
  @Field(() => Int, payment("id")) id!: number;
  @Field(() => Int, payment("userId")) userId!: number;
  @Field(() => String, payment("userName")) userName!: string;
  @Field(() => Int, payment("subscriptionId", { nullable: true })) subscriptionId!: number | null;
  @Field(() => String, payment("planName", { nullable: true })) planName!: string | null;
  @Field(() => Float, payment("amount")) amount!: number;
  @Field(() => String, payment("currency")) currency!: string;
  @Field(() => PaymentStatusEnum, payment("status")) status!: string;
  @Field(() => PaymentMethodEnum, payment("paymentMethod")) paymentMethod!: string;
  @Field(() => String, payment("lastFourDigits", { nullable: true })) lastFourDigits!: string | null;
  @Field(() => String, payment("transactionId", { nullable: true })) transactionId!: string | null;
  @Field(() => String, payment("invoiceUrl", { nullable: true })) invoiceUrl!: string | null;
  @Field(() => DateTime, payment("createdAt")) createdAt!: Date;
  @Field(() => DateTime, payment("updatedAt")) updatedAt!: Date;
}

const invoice = describedBy(invoiceSchema);

@ObjectType("Invoice", { ...invoice.type, simpleResolvers: true })
export class Invoice implements LiteralsWidened<InvoiceDto> {
  @Field(() => Int, invoice("id")) id!: number;
  @Field(() => Int, invoice("userId")) userId!: number;
  @Field(() => String, invoice("userName")) userName!: string;
  @Field(() => Int, invoice("subscriptionId", { nullable: true })) subscriptionId!: number | null;
  @Field(() => String, invoice("planName", { nullable: true })) planName!: string | null;
  @Field(() => Float, invoice("amount")) amount!: number;
  @Field(() => String, invoice("currency")) currency!: string;
  @Field(() => InvoiceStatusEnum, invoice("status")) status!: string;
  @Field(() => DateTime, invoice("dueDate")) dueDate!: Date;
  @Field(() => DateTime, invoice("paidAt", { nullable: true })) paidAt!: Date | null;
  @Field(() => Int, invoice("paymentId", { nullable: true })) paymentId!: number | null;
  @Field(() => String, invoice("invoiceUrl")) invoiceUrl!: string;
  @Field(() => DateTime, invoice("createdAt")) createdAt!: Date;
  @Field(() => DateTime, invoice("updatedAt")) updatedAt!: Date;
}

export const PaymentPage = PageOf(Payment, "PaymentPage");
export const PaymentOrderBy = orderByEnum("PaymentOrderBy", billingHistoryPaging, "payments");
export const InvoicePage = PageOf(Invoice, "InvoicePage");
export const InvoiceOrderBy = orderByEnum("InvoiceOrderBy", billingHistoryPaging, "invoices");

const planFilter = describedBy(planCatalogueFilter);

@InputType("SubscriptionPlanFilter", planFilter.type)
export class SubscriptionPlanFilter {
  @Field(() => UserTypeEnum, planFilter("userType", { nullable: true })) userType?: string;
  @Field(() => Boolean, planFilter("active", { nullable: true })) active?: boolean;
  @Field(() => PlanIntervalEnum, planFilter("interval", { nullable: true })) interval?: string;
}

const byPayment = describedBy(paymentFilter);

@InputType("PaymentFilter", byPayment.type)
export class PaymentFilter {
  @Field(() => PaymentStatusEnum, byPayment("status", { nullable: true })) status?: string;
  @Field(() => LocalDate, byPayment("startDate", { nullable: true })) startDate?: string;
  @Field(() => LocalDate, byPayment("endDate", { nullable: true })) endDate?: string;
  @Field(() => Int, byPayment("userId", { nullable: true })) userId?: number;
}

const byInvoice = describedBy(invoiceFilter);

@InputType("InvoiceFilter", byInvoice.type)
export class InvoiceFilter {
  @Field(() => InvoiceStatusEnum, byInvoice("status", { nullable: true })) status?: string;
  @Field(() => LocalDate, byInvoice("startDate", { nullable: true })) startDate?: string;
  @Field(() => LocalDate, byInvoice("endDate", { nullable: true })) endDate?: string;
  @Field(() => Int, byInvoice("userId", { nullable: true })) userId?: number;
}

const card = describedBy(z.object(cardFields));

/** The card fields of a checkout or of a card change, as REST takes them (required when paying by card). */
@InputType()
class CardFieldsInput {
  @Field(() => String, card("cardNumber", { nullable: true })) cardNumber?: string;
  @Field(() => String, card("cardHolderName", { nullable: true })) cardHolderName?: string;
  @Field(() => String, card("cardExpirationMonth", { nullable: true })) cardExpirationMonth?: string;
  @Field(() => String, card("cardExpirationYear", { nullable: true })) cardExpirationYear?: string;
  @Field(() => String, card("cardCvv", { nullable: true })) cardCvv?: string;
}

// The input schemas take the moment their card is checked at; any moment gives the same descriptions.
const subscribe = describedBy(subscribeInput(new Date(0)));

@InputType("SubscribeInput", subscribe.type)
export class SubscribeInput extends CardFieldsInput {
  @Field(() => Int, subscribe("planId")) planId!: number;
  @Field(() => PaymentMethodEnum, subscribe("paymentMethod")) paymentMethod!: string;
}

const change = describedBy(updateSubscriptionInput(new Date(0)));

/** Changes to a subscription: autoRenew, the payment method, and a new card (saved at the gateway, not charged). */
@InputType("UpdateSubscriptionInput", change.type)
export class UpdateSubscriptionInput extends CardFieldsInput {
  @Field(() => Boolean, change("autoRenew", { nullable: true })) autoRenew?: boolean;
  @Field(() => PaymentMethodEnum, change("paymentMethod", { nullable: true })) paymentMethod?: string;
}
