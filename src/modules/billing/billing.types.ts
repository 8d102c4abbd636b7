import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { UserTypeEnum } from "../users/user.types.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { PLAN_INTERVALS, PAYMENT_METHODS } from "../../tables/billing.table.js";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";
import type { InvoiceDto, PaymentDto, PixTransactionDto, PlanDto, SubscriptionDto } from "./billing.dto.js";
import type { Boleto as BoletoDto } from "./boleto.js";

export const PlanIntervalEnum = graphqlEnum(PLAN_INTERVALS, "PlanInterval");
export const PaymentMethodEnum = graphqlEnum(PAYMENT_METHODS, "PaymentMethod");

@ObjectType("SubscriptionPlan", { simpleResolvers: true })
export class SubscriptionPlan implements LiteralsWidened<PlanDto> {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) description!: string;
  @Field(() => UserTypeEnum) userType!: string;
  @Field(() => Float) price!: number;
  @Field(() => String) currency!: string;
  @Field(() => PlanIntervalEnum) interval!: string;
  @Field(() => [String]) features!: string[];
  @Field(() => Int, { nullable: true, description: "null means unlimited" }) maxStudents!: number | null;
  @Field(() => Boolean) active!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType("PixTransaction", { simpleResolvers: true })
export class PixTransaction implements LiteralsWidened<PixTransactionDto> {
  @Field(() => String) id!: string;
  @Field(() => Int) subscriptionId!: number;
  @Field(() => Float) amount!: number;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: "PENDING, PAID, EXPIRED or CANCELLED" }) status!: string;
  @Field(() => String, { description: "EMV 'copia e cola' payload" }) brCode!: string;
  @Field(() => String, { description: "PNG QR code as a data URL" }) brCodeBase64!: string;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => DateTime) createdAt!: Date;
}

@ObjectType("Boleto", { simpleResolvers: true })
export class Boleto implements BoletoDto {
  @Field(() => String, { description: "44 digits" }) barcode!: string;
  @Field(() => String, { description: "the 47-digit 'linha digitável', formatted" }) digitableLine!: string;
  @Field(() => LocalDate) dueDate!: string;
  @Field(() => Float) amount!: number;
}

@ObjectType("UserSubscription", { simpleResolvers: true })
export class UserSubscription implements LiteralsWidened<SubscriptionDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) userId!: number;
  @Field(() => String) userName!: string;
  @Field(() => Int) planId!: number;
  @Field(() => String) planName!: string;
  @Field(() => String, { description: "PENDING, ACTIVE, CANCELED, FAILED or EXPIRED" }) status!: string;
  @Field(() => DateTime, { nullable: true }) startDate!: Date | null;
  @Field(() => DateTime, { nullable: true }) endDate!: Date | null;
  @Field(() => DateTime, { nullable: true }) renewalDate!: Date | null;
  @Field(() => DateTime, { nullable: true }) canceledAt!: Date | null;
  @Field(() => Float) price!: number;
  @Field(() => String) currency!: string;
  @Field(() => PaymentMethodEnum) paymentMethod!: string;
  @Field(() => String, { nullable: true }) lastFourDigits!: string | null;
  @Field(() => Boolean) autoRenew!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
  @Field(() => PixTransaction, { nullable: true, description: "The QR code to pay, for a PIX subscription just created" })
  pix?: PixTransaction;
  @Field(() => Boleto, { nullable: true, description: "The boleto to pay, for a BOLETO subscription just created" })
  boleto?: Boleto;
}

@ObjectType("Payment", { simpleResolvers: true })
export class Payment implements LiteralsWidened<PaymentDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) userId!: number;
  @Field(() => String) userName!: string;
  @Field(() => Int, { nullable: true }) subscriptionId!: number | null;
  @Field(() => String, { nullable: true }) planName!: string | null;
  @Field(() => Float) amount!: number;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: "PENDING, COMPLETED, FAILED, REFUND_DUE (received for a subscription no longer wanted; being returned) or REFUNDED" })
  status!: string;
  @Field(() => PaymentMethodEnum) paymentMethod!: string;
  @Field(() => String, { nullable: true }) lastFourDigits!: string | null;
  @Field(() => String, { nullable: true }) transactionId!: string | null;
  @Field(() => String, { nullable: true }) invoiceUrl!: string | null;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType("Invoice", { simpleResolvers: true })
export class Invoice implements LiteralsWidened<InvoiceDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) userId!: number;
  @Field(() => String) userName!: string;
  @Field(() => Int, { nullable: true }) subscriptionId!: number | null;
  @Field(() => String, { nullable: true }) planName!: string | null;
  @Field(() => Float) amount!: number;
  @Field(() => String) currency!: string;
  @Field(() => String, { description: "PENDING, PAID, OVERDUE, CANCELED or REFUNDED (paid after it was canceled, and returned)" }) status!: string;
  @Field(() => DateTime) dueDate!: Date;
  @Field(() => DateTime, { nullable: true }) paidAt!: Date | null;
  @Field(() => Int, { nullable: true }) paymentId!: number | null;
  @Field(() => String, { description: "The PDF download URL (REST, bearer token)" }) invoiceUrl!: string;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

export const PaymentPage = PageOf(Payment, "PaymentPage");
export const InvoicePage = PageOf(Invoice, "InvoicePage");

@InputType("SubscriptionPlanFilter")
export class SubscriptionPlanFilter {
  @Field(() => UserTypeEnum, { nullable: true }) userType?: string;
  @Field(() => Boolean, { nullable: true }) active?: boolean;
  @Field(() => PlanIntervalEnum, { nullable: true }) interval?: string;
}

/** Filters payment and invoice listings; the schema keeps the contract's name for it. */
@InputType("BillingRecordFilter")
export class BillingHistoryFilterInput {
  @Field(() => String, { nullable: true }) status?: string;
  @Field(() => LocalDate, { nullable: true }) startDate?: string;
  @Field(() => LocalDate, { nullable: true }) endDate?: string;
  @Field(() => Int, { nullable: true, description: "administrators only: one user's payments or invoices" }) userId?: number;
}

/** The card fields of a checkout or of a card change, as REST takes them (required when paying by card). */
@InputType()
class CardFieldsInput {
  @Field(() => String, { nullable: true }) cardNumber?: string;
  @Field(() => String, { nullable: true }) cardHolderName?: string;
  @Field(() => String, { nullable: true, description: "MM" }) cardExpirationMonth?: string;
  @Field(() => String, { nullable: true, description: "YYYY" }) cardExpirationYear?: string;
  @Field(() => String, { nullable: true }) cardCvv?: string;
}

@InputType("SubscribeInput")
export class SubscribeInput extends CardFieldsInput {
  @Field(() => Int) planId!: number;
  @Field(() => PaymentMethodEnum) paymentMethod!: string;
}

/** Changes to a subscription: autoRenew, the payment method, and a new card (saved at the gateway, not charged). */
@InputType("UpdateSubscriptionInput")
export class UpdateSubscriptionInput extends CardFieldsInput {
  @Field(() => Boolean, { nullable: true }) autoRenew?: boolean;
  @Field(() => PaymentMethodEnum, { nullable: true }) paymentMethod?: string;
}
