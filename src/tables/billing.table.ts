import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, primaryKey, serial, text, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf, updatedAt } from "../platform/db/columns.js";
import { USER_TYPES, users, type UserType } from "./user.table.js";

export const PLAN_INTERVALS = ["MONTHLY", "QUARTERLY", "SEMIANNUAL", "ANNUAL"] as const;
export type PlanInterval = (typeof PLAN_INTERVALS)[number];
export const PAYMENT_METHODS = ["CREDIT_CARD", "PIX", "BOLETO"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];
export const SUBSCRIPTION_STATUSES = ["PENDING", "ACTIVE", "CANCELED", "FAILED", "EXPIRED"] as const;
export type SubscriptionStatus = (typeof SUBSCRIPTION_STATUSES)[number];
/** REFUND_DUE: money received for a subscription no longer wanted, to be returned (then REFUNDED). */
export const PAYMENT_STATUSES = ["PENDING", "COMPLETED", "FAILED", "REFUND_DUE", "REFUNDED"] as const;
export type PaymentStatus = (typeof PAYMENT_STATUSES)[number];
/** REFUNDED: its payment came in after the subscription was no longer wanted, and was returned. */
export const INVOICE_STATUSES = ["PENDING", "PAID", "OVERDUE", "CANCELED", "REFUNDED"] as const;
export type InvoiceStatus = (typeof INVOICE_STATUSES)[number];
export const PIX_STATUSES = ["PENDING", "PAID", "EXPIRED", "CANCELLED"] as const;
export type PixTransactionStatus = (typeof PIX_STATUSES)[number];

/** The plan catalogue of contract §8 (seeded by a migration, editable). Money in integer cents. */
export const subscriptionPlans = pgTable(
  "subscription_plans",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 120 }).notNull(),
    description: text("description").notNull(),
    userType: text("user_type").$type<UserType>().notNull(),
    priceCents: integer("price_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("BRL"),
    interval: text("interval").$type<PlanInterval>().notNull(),
    features: jsonb("features")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    maxStudents: integer("max_students"),
    /** The user's subscriptionType while this plan gives access (PREMIUM_MENSAL, PERSONAL_BASIC, …). */
    subscriptionType: text("subscription_type").notNull(),
    active: boolean("active").notNull().default(true),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    check("subscription_plans_user_type_check", sql`${t.userType} in (${oneOf(USER_TYPES)})`),
    check("subscription_plans_interval_check", sql`${t.interval} in (${oneOf(PLAN_INTERVALS)})`),
    check("subscription_plans_price_check", sql`${t.priceCents} >= 0`),
  ],
);

export const subscriptions = pgTable(
  "subscriptions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    planId: integer("plan_id")
      .notNull()
      .references(() => subscriptionPlans.id),
    status: text("status").$type<SubscriptionStatus>().notNull(),
    startDate: instant("start_date"),
    endDate: instant("end_date"),
    renewalDate: instant("renewal_date"),
    canceledAt: instant("canceled_at"),
    cancelReason: text("cancel_reason"),
    /** Price when subscribed: a later catalogue change does not touch running subscriptions. */
    priceCents: integer("price_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("BRL"),
    paymentMethod: text("payment_method").$type<PaymentMethod>().notNull(),
    lastFourDigits: varchar("last_four_digits", { length: 4 }),
    autoRenew: boolean("auto_renew").notNull().default(true),
    gateway: text("gateway").notNull(),
    gatewayCustomerId: text("gateway_customer_id"),
    gatewayPaymentMethodId: text("gateway_payment_method_id"),
    gatewaySubscriptionId: text("gateway_subscription_id"),
    /**
     * The idempotency key of the request that asks the PIX gateway for this subscription's charge: every request
     * for the same PENDING subscription sends it, so the gateway makes one charge however many ask.
     */
    chargeKey: text("charge_key"),
    /** Failed renewal charges of the current period (contract §8: 3 tries). */
    renewalFailures: integer("renewal_failures").notNull().default(0),
    renewalReminderSentAt: instant("renewal_reminder_sent_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    // One ACTIVE subscription per user, enforced by the database.
    uniqueIndex("subscriptions_one_active_per_user")
      .on(t.userId)
      .where(sql`${t.status} = 'ACTIVE'`),
    index("subscriptions_user_idx").on(t.userId, t.createdAt),
    index("subscriptions_renewal_idx")
      .on(t.endDate)
      .where(sql`${t.status} in ('ACTIVE', 'CANCELED')`),
    index("subscriptions_gateway_subscription_idx").on(t.gatewaySubscriptionId),
    uniqueIndex("subscriptions_charge_key").on(t.chargeKey),
    check("subscriptions_status_check", sql`${t.status} in (${oneOf(SUBSCRIPTION_STATUSES)})`),
    check("subscriptions_payment_method_check", sql`${t.paymentMethod} in (${oneOf(PAYMENT_METHODS)})`),
  ],
);

export const payments = pgTable(
  "payments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("BRL"),
    status: text("status").$type<PaymentStatus>().notNull(),
    paymentMethod: text("payment_method").$type<PaymentMethod>().notNull(),
    lastFourDigits: varchar("last_four_digits", { length: 4 }),
    transactionId: text("transaction_id"),
    failureReason: text("failure_reason"),
    /**
     * A card charge we ask a gateway for (checkout, renewal): the idempotency key it is sent with. The payment is
     * written PENDING with it before the call and settled after, so a charge whose answer was lost can be found.
     */
    idempotencyKey: text("idempotency_key"),
    /** The gateway's id of the refund that returned a REFUNDED payment. */
    refundId: text("refund_id"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("payments_user_idx").on(t.userId, t.createdAt),
    uniqueIndex("payments_transaction_key").on(t.transactionId),
    uniqueIndex("payments_idempotency_key").on(t.idempotencyKey),
    // Payments waiting on a gateway (an unsettled charge, a refund to make): what the follow-up job looks at.
    index("payments_unsettled_idx")
      .on(t.createdAt)
      .where(sql`${t.status} in ('PENDING', 'REFUND_DUE')`),
    check("payments_status_check", sql`${t.status} in (${oneOf(PAYMENT_STATUSES)})`),
    check("payments_amount_check", sql`${t.amountCents} >= 0`),
  ],
);

export const invoices = pgTable(
  "invoices",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id").references(() => subscriptions.id, { onDelete: "set null" }),
    paymentId: integer("payment_id").references(() => payments.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("BRL"),
    status: text("status").$type<InvoiceStatus>().notNull(),
    dueDate: instant("due_date").notNull(),
    paidAt: instant("paid_at"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("invoices_user_idx").on(t.userId, t.createdAt),
    index("invoices_subscription_idx").on(t.subscriptionId),
    check("invoices_status_check", sql`${t.status} in (${oneOf(INVOICE_STATUSES)})`),
    check("invoices_amount_check", sql`${t.amountCents} >= 0`),
  ],
);

/** PIX charges: the gateway's transaction id, what it pays for, and its QR code. */
export const pixTransactions = pgTable(
  "pix_transactions",
  {
    id: text("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    subscriptionId: integer("subscription_id")
      .notNull()
      .references(() => subscriptions.id, { onDelete: "cascade" }),
    invoiceId: integer("invoice_id").references(() => invoices.id, { onDelete: "set null" }),
    amountCents: integer("amount_cents").notNull(),
    currency: varchar("currency", { length: 3 }).notNull().default("BRL"),
    status: text("status").$type<PixTransactionStatus>().notNull(),
    brCode: text("br_code").notNull(),
    brCodeBase64: text("br_code_base64").notNull(),
    expiresAt: instant("expires_at").notNull(),
    paidAt: instant("paid_at"),
    /** CANCELLED here but not yet at the gateway (a replaced or canceled subscription's charge): a job retries. */
    gatewayCancelDue: boolean("gateway_cancel_due").notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index("pix_transactions_subscription_idx").on(t.subscriptionId),
    // One QR code that can be paid per subscription, whatever the gateway made and however many instances asked it.
    uniqueIndex("pix_transactions_one_pending_per_subscription")
      .on(t.subscriptionId)
      .where(sql`${t.status} = 'PENDING'`),
    index("pix_transactions_cancel_due_idx")
      .on(t.userId)
      .where(sql`${t.gatewayCancelDue}`),
    check("pix_transactions_status_check", sql`${t.status} in (${oneOf(PIX_STATUSES)})`),
  ],
);

/** Every payment gateway's event applied, once: a second delivery of the same id finds its row and does nothing. */
export const gatewayEvents = pgTable(
  "webhook_events",
  {
    provider: text("provider").notNull(),
    eventId: text("event_id").notNull(),
    eventType: text("event_type").notNull(),
    receivedAt: instant("received_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.provider, t.eventId] })],
);
