import express, { type Request, type Response } from "express";
import { WebhookRejected } from "../src/modules/billing/payment-events.service.js";
import {
  cancelCheckoutInput,
  cancelInput,
  checkoutInput,
  invoiceFilter,
  paymentFilter,
  planCatalogueFilter,
  recordPaging,
  simulatePaymentInput,
  subscribeInput,
  updateSubscriptionInput,
} from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

const PLANS = "Subscription plans";
const SUBSCRIPTIONS = "Subscriptions";
const RECORDS = "Payments and invoices";
const FLOW = "Payment flow";
const WEBHOOKS = "Webhooks";
const LISTING_QUERY = {
  status: "filter by status",
  startDate: "YYYY-MM-DD",
  endDate: "YYYY-MM-DD",
  page: "page number",
  size: "page size",
  sort: "field,asc|desc",
};

/** Webhook receivers read the raw body (the card signature covers its exact bytes). */
export const rawWebhookBody = express.raw({ type: () => true, limit: "1mb" });

/** Webhooks answer with an empty body: 200, or the status of a rejection. */
async function webhook(res: Response, handle: () => Promise<void>) {
  try {
    await handle();
    res.status(200).end();
  } catch (error) {
    if (error instanceof WebhookRejected) res.status(error.status).end();
    else throw error;
  }
}

const rawBody = (req: Request) => (Buffer.isBuffer(req.body) ? req.body : undefined);

/** Plans, subscriptions, payments, invoices, the payment flow and the gateways' webhooks. */
export function addBillingRoutes(routes: DocumentedRouter, services: Services): void {
  const { subscriptionPlans, subscriptions, checkouts, billingRecords, paymentEvents } = services;

  routes.add(
    {
      method: "get",
      path: "/subscription-plans",
      tag: PLANS,
      summary: "The plan catalogue (plain array)",
      auth: "required",
      success: 200,
      query: { userType: "ALUNO | PERSONAL", active: "true | false", interval: "MONTHLY | QUARTERLY | SEMIANNUAL | ANNUAL" },
      errors: [400],
    },
    async (req, res) => {
      res.json(await subscriptionPlans.list(await userOf(services, req), queryReader(req, planCatalogueFilter)));
    },
  );
  routes.add(
    { method: "get", path: "/subscription-plans/:id", tag: PLANS, summary: "One plan", auth: "required", success: 200, errors: [400, 404] },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptionPlans.get(actor, idParam(req)));
    },
  );

  routes.add(
    {
      method: "get",
      path: "/subscriptions/my-subscription",
      tag: SUBSCRIPTIONS,
      summary: "The subscription giving access, else the latest pending one",
      auth: "required",
      success: 200,
      errors: [404],
    },
    async (req, res) => {
      res.json(await subscriptions.mySubscription(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/subscriptions",
      tag: SUBSCRIPTIONS,
      summary: "Subscribe: card charged now; PIX or boleto pending until paid",
      auth: "required",
      success: 201,
      body: subscribeInput(new Date()),
      errors: [400, 404, 409, 422],
    },
    async (req, res) => {
      res.status(201).json(await checkouts.subscribe(await userOf(services, req), bodyReader(req, subscribeInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/subscriptions/:id",
      tag: SUBSCRIPTIONS,
      summary: "One subscription (owner or administrator)",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptions.get(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/subscriptions/:id",
      tag: SUBSCRIPTIONS,
      summary: "Change autoRenew, the payment method or the card renewals charge",
      auth: "required",
      success: 200,
      body: updateSubscriptionInput(new Date()),
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptions.update(actor, idParam(req), bodyReader(req, updateSubscriptionInput)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/subscriptions/:id/cancel",
      tag: SUBSCRIPTIONS,
      summary: "Cancel now or at the end of the period",
      auth: "required",
      success: 200,
      body: cancelInput,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptions.cancel(actor, idParam(req), bodyReader(req, cancelInput)));
    },
  );

  routes.add(
    {
      method: "get",
      path: "/payments",
      tag: RECORDS,
      summary: "The caller's payments (administrators: all)",
      auth: "required",
      success: 200,
      query: LISTING_QUERY,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingRecords.listPayments(await userOf(services, req), listReader(req, recordPaging, paymentFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices",
      tag: RECORDS,
      summary: "The caller's invoices (administrators: all)",
      auth: "required",
      success: 200,
      query: LISTING_QUERY,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingRecords.listInvoices(await userOf(services, req), listReader(req, recordPaging, invoiceFilter)));
    },
  );
  routes.add(
    { method: "get", path: "/invoices/:id", tag: RECORDS, summary: "One invoice", auth: "required", success: 200, errors: [400, 403, 404] },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingRecords.getInvoice(actor, idParam(req)));
    },
  );
  routes.add(
    { method: "get", path: "/invoices/:id/download", tag: RECORDS, summary: "The invoice as PDF", auth: "required", success: 200, errors: [400, 403, 404] },
    async (req, res) => {
      const actor = await userOf(services, req);
      const { fileName, pdf } = await billingRecords.invoicePdf(actor, idParam(req));
      res.setHeader("Content-Type", "application/pdf");
      res.setHeader("Content-Disposition", `attachment; filename="${fileName}"`);
      res.send(pdf);
    },
  );

  routes.add(
    {
      method: "post",
      path: "/payments/subscribe",
      tag: FLOW,
      summary: "Checkout: card subscription at the gateway, or a PIX QR code",
      auth: "required",
      success: 201,
      body: checkoutInput(new Date()),
      errors: [400, 404, 409],
    },
    async (req, res) => {
      res.status(201).json(await checkouts.checkout(await userOf(services, req), bodyReader(req, checkoutInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/payments/subscriptions/current",
      tag: FLOW,
      summary: "The current subscription (payment-flow shape)",
      auth: "required",
      success: 200,
      errors: [404],
    },
    async (req, res) => {
      res.json(await subscriptions.currentCheckout(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/payments/subscriptions/:id/cancel",
      tag: FLOW,
      summary: "Cancel at the gateway and here; autoRenew off",
      auth: "required",
      success: 200,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptions.cancelCheckout(actor, idParam(req), bodyReader(req, cancelCheckoutInput)));
    },
  );
  routes.add(
    { method: "get", path: "/payments/:id", tag: RECORDS, summary: "One payment", auth: "required", success: 200, errors: [400, 403, 404] },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingRecords.getPayment(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/billing/status/:transactionId",
      tag: FLOW,
      summary: "A PIX transaction (polled after showing the QR code)",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await paymentEvents.pixStatus(actor, String(req.params.transactionId)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/pages/pix-qrcode/simulate-payment",
      tag: FLOW,
      summary: "Pay a PIX charge (sandbox or gateway dev mode only)",
      auth: "required",
      success: 200,
      body: simulatePaymentInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.json(await paymentEvents.simulatePixPayment(await userOf(services, req), bodyReader(req, simulatePaymentInput)));
    },
  );

  routes.add(
    {
      method: "post",
      path: "/webhooks/pix/payment",
      tag: WEBHOOKS,
      summary: "PIX gateway notification (X-Webhook-Secret)",
      auth: "none",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      await webhook(res, () => paymentEvents.pixWebhook(req.get("x-webhook-secret"), rawBody(req)));
    },
  );
  for (const path of ["/payments/webhook", "/webhooks/card"]) {
    routes.add(
      { method: "post", path, tag: WEBHOOKS, summary: "Card gateway event (Card-Signature or Stripe-Signature)", auth: "none", success: 200, errors: [400] },
      async (req, res) => {
        await webhook(res, () => paymentEvents.cardWebhook(rawBody(req), req.get("card-signature") ?? req.get("stripe-signature")));
      },
    );
  }
}

export const WEBHOOK_PATHS = ["/webhooks/pix/payment", "/payments/webhook", "/webhooks/card"];
