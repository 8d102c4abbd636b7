import { centsToAmount } from "../../platform/money.js";
import { INTERVAL_NAMES } from "./billing-period.js";
import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { enumeration } from "../../platform/enumeration.js";
import { userType } from "../users/user.dto.js";
import {
  INVOICE_STATUSES,
  PAYMENT_METHODS,
  PAYMENT_STATUSES,
  PIX_STATUSES,
  PLAN_INTERVALS,
  SUBSCRIPTION_STATUSES,
  type invoices,
  type payments,
  type pixTransactions,
  type subscriptionPlans,
  type subscriptions,
} from "../../tables/billing.table.js";
import { boletoSchema } from "./boleto.js";

export type PlanRow = typeof subscriptionPlans.$inferSelect;
export type SubscriptionRow = typeof subscriptions.$inferSelect;
export type PaymentRow = typeof payments.$inferSelect;
export type InvoiceRow = typeof invoices.$inferSelect;
export type PixTransactionRow = typeof pixTransactions.$inferSelect;

export const planInterval = enumeration(PLAN_INTERVALS, {
  name: "PlanInterval",
  description: "How long one paid period of a plan lasts, in calendar months",
  meanings: {
    MONTHLY: "One month",
    QUARTERLY: "Three months",
    SEMIANNUAL: "Six months",
    ANNUAL: "Twelve months",
  },
});

export const paymentMethod = enumeration(PAYMENT_METHODS, {
  name: "PaymentMethod",
  description: "How a subscription is paid",
  meanings: {
    CREDIT_CARD: "A credit card: charged when subscribing, and again at each renewal while autoRenew is on",
    PIX: "PIX, Brazil's instant bank transfer: a QR code (or copy-and-paste code) the payer pays in a bank app",
    BOLETO: "A boleto bancário: a bank slip paid by its barcode, due 3 days after subscribing",
  },
});

/** The methods the payment flow's checkout takes (POST /payments/subscribe): no boleto there. */
export const checkoutPaymentMethod = enumeration(["CREDIT_CARD", "PIX"] as const, {
  name: "CheckoutPaymentMethod",
  description: "How the payment flow's checkout is paid",
  meanings: {
    CREDIT_CARD: "A credit card, by the gateway's payment method id or by its card fields: a recurring subscription at the card gateway",
    PIX: "PIX: answered with the charge to pay (its QR code)",
  },
});

export const subscriptionStatus = enumeration(SUBSCRIPTION_STATUSES, {
  name: "SubscriptionStatus",
  description: "Where a subscription stands; it gives access while ACTIVE, or while CANCELED until its endDate",
  meanings: {
    PENDING: "Waiting for its first payment: a PIX charge or boleto to pay, or a card charge under way",
    ACTIVE: "Paid: gives access until endDate, and renews when autoRenew is on",
    CANCELED:
      "Canceled by its user or an administrator, by the card gateway, or (a PENDING one) replaced by a newer subscription; canceled at period end, it gives access until endDate",
    FAILED: "Its first card charge was refused, or the card gateway reported a charge of it failed; it gives no access",
    EXPIRED: "Its period ended without a renewal; access ended then",
  },
});

export const paymentStatus = enumeration(PAYMENT_STATUSES, {
  name: "PaymentStatus",
  description: "Where a payment stands",
  meanings: {
    PENDING: "A card charge asked of the gateway whose answer is not recorded yet",
    COMPLETED: "The money was received",
    FAILED: "The gateway refused the charge (a declined card, insufficient funds…)",
    REFUND_DUE: "Received for a subscription no longer wanted (canceled, or another one ACTIVE meanwhile): being returned at the gateway, then REFUNDED",
    REFUNDED: "Returned to the payer at the gateway",
  },
});

export const invoiceStatus = enumeration(INVOICE_STATUSES, {
  name: "InvoiceStatus",
  description: "Where an invoice stands",
  meanings: {
    PENDING: "Waiting to be paid (a PIX or boleto subscription's first period)",
    PAID: "Paid: paidAt and paymentId say when and by which payment",
    OVERDUE: "Unpaid past its due date (a value of the contract: this service does not set it today)",
    CANCELED: "Will not be paid: its subscription was canceled or replaced before payment, or the money came too late and is returned",
    REFUNDED: "The payment it was paid with came after its subscription was no longer wanted, and was returned",
  },
});

export const pixStatus = enumeration(PIX_STATUSES, {
  name: "PixTransactionStatus",
  description: "Where a PIX charge stands",
  meanings: {
    PENDING: "Waiting to be paid, until expiresAt",
    PAID: "Paid: its subscription was started",
    EXPIRED: "Not paid in time, as the gateway reported",
    CANCELLED: "Will not be paid: its subscription was canceled or replaced by a newer one, or the gateway canceled it",
  },
});

/** A plan of the catalogue as REST answers it (GET /subscription-plans/{id}). */
export const planSchema = z
  .object({
    id: int().describe("The plan's id"),
    name: z.string().describe("Its name, as the apps show it (Mensal, Básico…)"),
    description: z.string().describe("What it offers, in a sentence"),
    userType: userType.schema.describe("Who may subscribe to it: students (ALUNO) or trainers (PERSONAL)"),
    price: z.number().describe("What one period costs, in currency units with cents as decimals (49.9 is R$ 49,90), not in cents"),
    currency: z.string().describe("The ISO 4217 code of the price's currency: BRL"),
    interval: planInterval.schema.describe("How long one paid period lasts"),
    features: z.array(z.string()).describe("What it includes, as short texts (in Portuguese) to list"),
    maxStudents: int()
      .nullable()
      .describe(
        "For a trainer's plan, how many students a trainer subscribed to it may coach (an invite past it is 422); null: unlimited, and for students' plans",
      ),
    active: z.boolean().describe("false: withdrawn; subscribing to it is refused (400 `Plano não disponível para este usuário`)"),
    createdAt: instant.describe("When it was added to the catalogue"),
    updatedAt: instant.describe("When it was last changed"),
  })
  .meta({
    id: "SubscriptionPlan",
    description: "A plan of the catalogue: what a student or a trainer subscribes to, its price and its period",
    examples: [
      {
        id: 1,
        name: "Mensal",
        description: "Acesso premium com cobrança mensal",
        userType: "ALUNO",
        price: 49.9,
        currency: "BRL",
        interval: "MONTHLY",
        features: ["Treinos ilimitados", "Estatísticas de progresso", "Recordes pessoais"],
        maxStudents: null,
        active: true,
        createdAt: "2025-01-01T00:00:00.000Z",
        updatedAt: "2025-01-01T00:00:00.000Z",
      },
    ],
  });
export type PlanDto = z.output<typeof planSchema>;

export const toPlanDto = (row: PlanRow): PlanDto => ({
  id: row.id,
  name: row.name,
  description: row.description,
  userType: row.userType,
  price: centsToAmount(row.priceCents),
  currency: row.currency,
  interval: row.interval,
  features: row.features,
  maxStudents: row.maxStudents,
  active: row.active,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A PIX charge as REST answers it (GET /billing/status/{transactionId}). */
export const pixTransactionSchema = z
  .object({
    id: z.string().describe("The gateway's transaction id: the id to poll its status with (GET /billing/status/{transactionId}, GraphQL pixTransaction)"),
    subscriptionId: int().describe("The id of the subscription it pays for"),
    amount: z.number().describe("What it charges, in currency units (49.9 is R$ 49,90)"),
    currency: z.string().describe("The ISO 4217 code of the amount's currency: BRL"),
    status: pixStatus.schema.describe("Where the charge stands"),
    brCode: z.string().describe("The PIX copy-and-paste code (an EMV 'copia e cola' payload, CRC16 checked) to paste in a bank app"),
    brCodeBase64: z.string().describe("The QR code of brCode, as a PNG data URL (data:image/png;base64,…) to show as an image"),
    expiresAt: instant.describe("When the gateway stops taking payment for it"),
    createdAt: instant.describe("When it was created"),
  })
  .meta({ id: "PixTransaction", description: "A PIX charge for a subscription: the QR code to pay, and whether it was paid" });
export type PixTransactionDto = z.output<typeof pixTransactionSchema>;

/** A subscription as REST answers it (GET /subscriptions/{id}). */
export const subscriptionSchema = z
  .object({
    id: int().describe("The subscription's id"),
    userId: int().describe("The id of the user who subscribed"),
    userName: z.string().describe("That user's name"),
    planId: int().describe("The id of the plan subscribed to"),
    planName: z.string().describe("That plan's name"),
    status: subscriptionStatus.schema.describe("Where it stands"),
    startDate: instant.nullable().describe("When its first paid period began; null until paid"),
    endDate: instant
      .nullable()
      .describe("When the paid period ends (access ends then unless renewed); once canceled, when access ended or ends; null until paid"),
    renewalDate: instant.nullable().describe("When the next period is due (the current period's end); null until paid, and once canceled or expired"),
    canceledAt: instant.nullable().describe("When it was canceled; null until then"),
    price: z.number().describe("What each period costs, in currency units (49.9 is R$ 49,90): the plan's price when subscribed"),
    currency: z.string().describe("The ISO 4217 code of the price's currency: BRL"),
    paymentMethod: paymentMethod.schema.describe("How its periods are paid"),
    lastFourDigits: z.string().nullable().describe("The last four digits of the card it charges; null when no card was charged or saved for it"),
    autoRenew: z
      .boolean()
      .describe(
        "true: a card subscription is charged again in the 3 days before endDate (3 tries); false: one reminder e-mail, then it expires at endDate. PIX and boleto subscriptions are never charged again",
      ),
    createdAt: instant.describe("When it was created"),
    updatedAt: instant.describe("When it last changed"),
    pix: pixTransactionSchema.optional().describe("The PIX charge to pay: only in the answer that creates a PIX subscription"),
    boleto: boletoSchema.optional().describe("The boleto to pay: only in the answer that creates a BOLETO subscription (sandbox: no bank settles it)"),
  })
  .meta({
    id: "Subscription",
    description: "A user's subscription to a plan: where it stands, its period, its price and how it is paid",
    examples: [
      {
        id: 42,
        userId: 7,
        userName: "Ana Souza",
        planId: 1,
        planName: "Mensal",
        status: "ACTIVE",
        startDate: "2025-03-01T12:00:00.000Z",
        endDate: "2025-04-01T12:00:00.000Z",
        renewalDate: "2025-04-01T12:00:00.000Z",
        canceledAt: null,
        price: 49.9,
        currency: "BRL",
        paymentMethod: "CREDIT_CARD",
        lastFourDigits: "4242",
        autoRenew: true,
        createdAt: "2025-03-01T12:00:00.000Z",
        updatedAt: "2025-03-01T12:00:00.000Z",
      },
    ],
  });
export type SubscriptionDto = z.output<typeof subscriptionSchema>;

/** The payment-flow endpoints' shape (api-spec.md "Payment-flow endpoints"). */
export const checkoutSubscriptionSchema = z
  .object({
    id: int().describe("The subscription's id"),
    userId: int().describe("The id of the user who subscribed"),
    subscriptionType: z.string().describe("Its plan's period, in Portuguese: MENSAL, TRIMESTRAL, SEMESTRAL or ANUAL"),
    startDate: instant.nullable().describe("When its first paid period began; null until paid"),
    endDate: instant.nullable().describe("When the paid period ends; once canceled, when access ended or ends; null until paid"),
    paymentId: z
      .string()
      .nullable()
      .describe("The gateway's id of its latest charge, else of its recurring subscription at the card gateway; null when it has neither"),
    paymentMethod: paymentMethod.schema.describe("How its periods are paid"),
    status: subscriptionStatus.schema.describe("Where it stands"),
    autoRenew: z.boolean().describe("Whether it renews at the end of each period (false once canceled)"),
    createdAt: instant.describe("When it was created"),
    updatedAt: instant.describe("When it last changed"),
    user: z
      .object({
        id: int().describe("The user's id"),
        name: z.string().describe("The user's name"),
        email: z.string().describe("The user's e-mail address"),
        userType: z.string().describe("ALUNO (a student) or PERSONAL (a trainer)"),
      })
      .describe("The user who subscribed"),
  })
  .meta({ id: "CheckoutSubscription", description: "A subscription in the shape of the mobile apps' payment flow (api-spec.md)" });
export type CheckoutSubscriptionDto = z.output<typeof checkoutSubscriptionSchema>;

export const toPixDto = (row: PixTransactionRow): PixTransactionDto => ({
  id: row.id,
  subscriptionId: row.subscriptionId,
  amount: centsToAmount(row.amountCents),
  currency: row.currency,
  status: row.status,
  brCode: row.brCode,
  brCodeBase64: row.brCodeBase64,
  expiresAt: row.expiresAt,
  createdAt: row.createdAt,
});

/** A subscription in the contract's shape, with its plan's and its user's names. */
export const toSubscriptionDto = (row: SubscriptionRow, names: { planName: string; userName: string }): SubscriptionDto => ({
  id: row.id,
  userId: row.userId,
  userName: names.userName,
  planId: row.planId,
  planName: names.planName,
  status: row.status,
  startDate: row.startDate,
  endDate: row.endDate,
  renewalDate: row.renewalDate,
  canceledAt: row.canceledAt,
  price: centsToAmount(row.priceCents),
  currency: row.currency,
  paymentMethod: row.paymentMethod,
  lastFourDigits: row.lastFourDigits,
  autoRenew: row.autoRenew,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

/** A subscription in the payment flow's shape: paymentId is its latest charge's gateway transaction, else its gateway subscription. */
export const toCheckoutSubscriptionDto = (
  row: SubscriptionRow,
  plan: PlanRow,
  user: { name: string; email: string; userType: string } | null,
  latestPayment: PaymentRow | null,
): CheckoutSubscriptionDto => ({
  id: row.id,
  userId: row.userId,
  subscriptionType: INTERVAL_NAMES[plan.interval],
  startDate: row.startDate,
  endDate: row.endDate,
  paymentId: latestPayment?.transactionId ?? row.gatewaySubscriptionId,
  paymentMethod: row.paymentMethod,
  status: row.status,
  autoRenew: row.autoRenew,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
  user: { id: row.userId, name: user?.name ?? "", email: user?.email ?? "", userType: user?.userType ?? "" },
});

/** What a payment and an invoice are both shown with (`what`: the record's name in the descriptions). */
const billingEntryFields = (what: "payment" | "invoice") => ({
  id: int().describe(`The ${what}'s id`),
  userId: int().describe(`The id of the user it ${what === "payment" ? "was charged to" : "bills"}`),
  userName: z.string().describe("That user's name"),
  subscriptionId: int().nullable().describe("The id of the subscription it is for; null if that subscription no longer exists"),
  planName: z.string().nullable().describe("The name of that subscription's plan; null without a subscription"),
  amount: z.number().describe("The amount, in currency units (49.9 is R$ 49,90)"),
  currency: z.string().describe("The ISO 4217 code of the amount's currency: BRL"),
  createdAt: instant.describe(`When the ${what} was recorded (what the startDate and endDate filters look at)`),
  updatedAt: instant.describe("When it last changed"),
});

/** A payment as REST answers it (GET /payments/{id}). */
export const paymentSchema = z
  .object({
    ...billingEntryFields("payment"),
    status: paymentStatus.schema.describe("Where it stands"),
    paymentMethod: paymentMethod.schema.describe("How it was paid"),
    lastFourDigits: z.string().nullable().describe("The last four digits of the card charged; null for PIX and boleto, or when the gateway gave none"),
    transactionId: z.string().nullable().describe("The gateway's id of the charge; null when the gateway has not given one"),
    invoiceUrl: z
      .string()
      .nullable()
      .describe(
        "Where the PDF of the invoice it paid is downloaded (GET with a bearer token: the owner's or an administrator's); null when no invoice names it",
      ),
  })
  .meta({
    id: "Payment",
    description: "Money charged to a user for a subscription: a first payment or a renewal, received, refused or returned",
    examples: [
      {
        id: 90,
        userId: 7,
        userName: "Ana Souza",
        subscriptionId: 42,
        planName: "Mensal",
        amount: 49.9,
        currency: "BRL",
        createdAt: "2025-03-01T12:00:00.000Z",
        updatedAt: "2025-03-01T12:00:00.000Z",
        status: "COMPLETED",
        paymentMethod: "CREDIT_CARD",
        lastFourDigits: "4242",
        transactionId: "ch_sandbox_5f1c2a9e0b7d4c3e8a6f1b2d",
        invoiceUrl: "https://api.example.com/api/invoices/88/download",
      },
    ],
  });
export type PaymentDto = z.output<typeof paymentSchema>;

/** An invoice as REST answers it (GET /invoices/{id}). */
export const invoiceSchema = z
  .object({
    ...billingEntryFields("invoice"),
    status: invoiceStatus.schema.describe("Where it stands"),
    dueDate: instant.describe("When it is due: for a boleto, 3 days after subscribing; otherwise when it was issued"),
    paidAt: instant.nullable().describe("When the money for it was received; null until then"),
    paymentId: int().nullable().describe("The id of the payment that paid it; null until paid"),
    invoiceUrl: z.string().describe("Where its PDF is downloaded (GET with a bearer token: the owner's or an administrator's)"),
  })
  .meta({ id: "Invoice", description: "What a user is billed for a subscription's period: issued paid for a card payment, pending for PIX and boleto" });
export type InvoiceDto = z.output<typeof invoiceSchema>;

/** The names and link a payment or invoice is shown with. */
export interface BillingEntryReferences {
  userName: string;
  planName: string | null;
  invoiceUrl: string | null;
}

/** The fields a payment's and an invoice's shape open with, in that order. */
const billingEntryHead = (row: PaymentRow | InvoiceRow, refs: BillingEntryReferences) => ({
  id: row.id,
  userId: row.userId,
  userName: refs.userName,
  subscriptionId: row.subscriptionId,
  planName: refs.planName,
  amount: centsToAmount(row.amountCents),
  currency: row.currency,
});

/** Where an invoice's PDF is downloaded (GET /api/invoices/{id}/download). */
export const invoiceDownloadUrl = (publicBaseUrl: string, invoiceId: number) => `${publicBaseUrl}/api/invoices/${invoiceId}/download`;

export const toPaymentDto = (row: PaymentRow, refs: BillingEntryReferences): PaymentDto => ({
  ...billingEntryHead(row, refs),
  status: row.status,
  paymentMethod: row.paymentMethod,
  lastFourDigits: row.lastFourDigits,
  transactionId: row.transactionId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});

export const toInvoiceDto = (row: InvoiceRow, refs: BillingEntryReferences & { invoiceUrl: string }): InvoiceDto => ({
  ...billingEntryHead(row, refs),
  status: row.status,
  dueDate: row.dueDate,
  paidAt: row.paidAt,
  paymentId: row.paymentId,
  invoiceUrl: refs.invoiceUrl,
  createdAt: row.createdAt,
  updatedAt: row.updatedAt,
});
