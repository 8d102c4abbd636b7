import express, { type Request, type Response } from "express";
import { GatewayEventRejected } from "../src/modules/billing/payment-events.service.js";
import { z } from "zod";
import {
  checkoutSubscriptionSchema,
  invoiceSchema,
  paymentSchema,
  pixTransactionSchema,
  planSchema,
  subscriptionSchema,
} from "../src/modules/billing/billing.dto.js";
import {
  cancelCheckoutInput,
  cardEvent,
  cancelInput,
  checkoutInput,
  invoiceFilter,
  paymentFilter,
  pixTransactionId,
  pixEventBody,
  planCatalogueFilter,
  billingHistoryPaging,
  simulatePaymentInput,
  subscribeInput,
  updateSubscriptionInput,
} from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

const PLANS = "Subscription plans";
const SUBSCRIPTIONS = "Subscriptions";
const BILLING_HISTORY = "Payments and invoices";
const FLOW = "Payment flow";
/** The contract's OpenAPI tag of the gateways' calls. */
const GATEWAY_EVENTS_TAG = "Webhooks";
const STATUS_502 = "Gateway de pagamento indisponível";

/** Gateway events are read as the raw body (the card signature covers its exact bytes). */
export const rawGatewayEventBody = express.raw({ type: () => true, limit: "1mb" });

/** Gateway events are answered with an empty body: 200, or the status of a rejection. */
async function answerGatewayEvent(res: Response, handle: () => Promise<void>) {
  try {
    await handle();
    res.status(200).end();
  } catch (error) {
    if (error instanceof GatewayEventRejected) res.status(error.status).end();
    else throw error;
  }
}

const rawBody = (req: Request) => (Buffer.isBuffer(req.body) ? req.body : undefined);

/** Plans, subscriptions, payments, invoices, the payment flow and the gateways' events. */
export function addBillingRoutes(routes: DocumentedRouter, services: Services): void {
  const { subscriptionPlans, subscriptions, checkouts, billingHistory, paymentEvents } = services;

  routes.add(
    {
      method: "get",
      path: "/subscription-plans",
      operationId: "listSubscriptionPlans",
      query: planCatalogueFilter,
      response: z.array(planSchema),
      tag: PLANS,
      summary: "The plan catalogue (plain array)",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await subscriptionPlans.list(await userOf(services, req), queryReader(req, planCatalogueFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/subscription-plans/:id",
      operationId: "getSubscriptionPlan",
      response: planSchema,
      tag: PLANS,
      summary: "One plan",
      auth: "required",
      success: 200,
      errors: [400, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptionPlans.get(actor, idParam(req)));
    },
  );

  routes.add(
    {
      method: "get",
      path: "/subscriptions/my-subscription",
      operationId: "getMySubscription",
      response: subscriptionSchema,
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
      operationId: "subscribe",
      response: subscriptionSchema,
      tag: SUBSCRIPTIONS,
      summary: "Subscribe: card charged now; PIX or boleto pending until paid",
      auth: "required",
      success: 201,
      body: subscribeInput(new Date()),
      errors: { 404: "Plano não encontrado", 409: "a subscription already gives access", 422: "Pagamento recusado (with `details`)", 502: STATUS_502 },
    },
    async (req, res) => {
      res.status(201).json(await checkouts.subscribe(await userOf(services, req), bodyReader(req, subscribeInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/subscriptions/:id",
      operationId: "getSubscription",
      response: subscriptionSchema,
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
      operationId: "updateSubscription",
      response: subscriptionSchema,
      tag: SUBSCRIPTIONS,
      summary: "Change autoRenew, the payment method or the card renewals charge",
      auth: "required",
      success: 200,
      body: updateSubscriptionInput(new Date()),
      errors: {
        403: "Acesso negado",
        404: "Assinatura não encontrada",
        409: "the subscription cannot change now",
        422: "Pagamento recusado (with `details`)",
        502: STATUS_502,
      },
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
      operationId: "cancelSubscription",
      response: subscriptionSchema,
      tag: SUBSCRIPTIONS,
      summary: "Cancel now or at the end of the period",
      auth: "required",
      success: 200,
      body: cancelInput,
      // No 502: the cancellation commits, and the gateway is told after it (a failure there is logged, not answered).
      errors: { 403: "Acesso negado", 404: "Assinatura não encontrada", 409: "already canceled" },
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
      operationId: "listPayments",
      query: paymentFilter,
      paging: billingHistoryPaging,
      response: pageOf(paymentSchema),
      tag: BILLING_HISTORY,
      summary: "The caller's payments (administrators: all)",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingHistory.listPayments(await userOf(services, req), listReader(req, billingHistoryPaging, paymentFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices",
      operationId: "listInvoices",
      query: invoiceFilter,
      paging: billingHistoryPaging,
      response: pageOf(invoiceSchema),
      tag: BILLING_HISTORY,
      summary: "The caller's invoices (administrators: all)",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await billingHistory.listInvoices(await userOf(services, req), listReader(req, billingHistoryPaging, invoiceFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices/:id",
      operationId: "getInvoice",
      response: invoiceSchema,
      tag: BILLING_HISTORY,
      summary: "One invoice",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingHistory.getInvoice(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/invoices/:id/download",
      operationId: "downloadInvoice",
      response: {
        mediaType: "application/pdf",
        description: "the invoice as PDF",
        headers: { "Content-Disposition": 'attachment; filename="<the invoice\'s file name>"' },
      },
      tag: BILLING_HISTORY,
      summary: "The invoice as PDF",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const { fileName, pdf } = await billingHistory.invoicePdf(actor, idParam(req));
      res.setHeader("Content-Type", "application/pdf");
      res.setHeader("Content-Disposition", `attachment; filename="${fileName}"`);
      res.send(pdf);
    },
  );

  routes.add(
    {
      method: "post",
      path: "/payments/subscribe",
      operationId: "checkout",
      response: z.union([checkoutSubscriptionSchema, pixTransactionSchema]).describe("a card checkout: the subscription; PIX: the charge to pay"),
      tag: FLOW,
      summary: "Checkout: card subscription at the gateway, or a PIX QR code",
      auth: "required",
      success: 201,
      body: checkoutInput(new Date()),
      // The payment flow answers a refused card with 400 (api-spec: "card failure returns 400"); POST /subscriptions, 422.
      errors: {
        400: "Plano indisponível, or Pagamento recusado (with `details`)",
        404: "Plano não encontrado",
        409: "a subscription already gives access",
        502: STATUS_502,
      },
    },
    async (req, res) => {
      res.status(201).json(await checkouts.checkout(await userOf(services, req), bodyReader(req, checkoutInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/payments/subscriptions/current",
      operationId: "getCurrentCheckoutSubscription",
      response: checkoutSubscriptionSchema,
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
      operationId: "cancelCheckoutSubscription",
      body: cancelCheckoutInput,
      response: checkoutSubscriptionSchema,
      tag: FLOW,
      summary: "Cancel at the gateway and here; autoRenew off",
      auth: "required",
      success: 200,
      // No 502: the cancellation commits, and the gateway is told after it (a failure there is logged, not answered).
      errors: { 403: "Acesso negado", 404: "Assinatura não encontrada", 409: "already canceled" },
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptions.cancelCheckout(actor, idParam(req), bodyReader(req, cancelCheckoutInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/payments/:id",
      operationId: "getPayment",
      response: paymentSchema,
      tag: BILLING_HISTORY,
      summary: "One payment",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await billingHistory.getPayment(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/billing/status/:transactionId",
      operationId: "getPixStatus",
      pathParams: { transactionId: pixTransactionId },
      response: pixTransactionSchema,
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
      operationId: "simulatePixPayment",
      response: pixTransactionSchema,
      tag: FLOW,
      summary: "Pay a PIX charge (sandbox or gateway dev mode only)",
      auth: "required",
      success: 200,
      body: simulatePaymentInput,
      errors: { 403: "Acesso negado", 404: "Transação não encontrada, or no gateway that can simulate", 502: STATUS_502 },
    },
    async (req, res) => {
      res.json(await paymentEvents.simulatePixPayment(await userOf(services, req), bodyReader(req, simulatePaymentInput)));
    },
  );

  routes.add(
    {
      method: "post",
      path: "/webhooks/pix/payment",
      operationId: "pixWebhook",
      headers: { "X-Webhook-Secret": "the secret shared with the PIX gateway" },
      body: pixEventBody,
      tag: GATEWAY_EVENTS_TAG,
      summary: "PIX gateway notification (X-Webhook-Secret)",
      auth: "none",
      success: 200,
      emptyErrors: { 400: "the body is not a PIX notification", 403: "wrong X-Webhook-Secret" },
    },
    async (req, res) => {
      await answerGatewayEvent(res, () => paymentEvents.receivePixEvent(req.get("x-webhook-secret"), rawBody(req)));
    },
  );
  for (const path of ["/payments/webhook", "/webhooks/card"]) {
    routes.add(
      {
        method: "post",
        path,
        operationId: path === "/webhooks/card" ? "cardWebhook" : "paymentWebhook",
        tag: GATEWAY_EVENTS_TAG,
        summary: "Card gateway event (Card-Signature or Stripe-Signature)",
        auth: "none",
        success: 200,
        headers: { "Card-Signature": "the card gateway's signature of the body", "Stripe-Signature": "Stripe's signature of the body" },
        body: cardEvent,
        emptyErrors: { 400: "no valid signature, or not a card event" },
      },
      async (req, res) => {
        await answerGatewayEvent(res, () => paymentEvents.receiveCardEvent(rawBody(req), req.get("card-signature") ?? req.get("stripe-signature")));
      },
    );
  }
}

export const GATEWAY_EVENT_PATHS = ["/webhooks/pix/payment", "/payments/webhook", "/webhooks/card"];
