import express, { type Request, type Response } from "express";
import { GatewayEventRejected } from "../src/modules/billing/payment-events.service.js";
import { cardEvent, pixEventBody } from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import type { DocumentedRouter } from "./routes.js";

/** The contract's OpenAPI tag of the gateways' calls. */
const GATEWAY_EVENTS_TAG = "Webhooks";

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

/** The payment gateways' events: PIX notifications and card events. */
export function addGatewayEventRoutes(routes: DocumentedRouter, services: Services): void {
  const { paymentEvents } = services;

  routes.add(
    {
      method: "post",
      path: "/webhooks/pix/payment",
      operationId: "pixWebhook",
      headers: { "X-Webhook-Secret": "the secret shared with the PIX gateway" },
      body: pixEventBody,
      tag: GATEWAY_EVENTS_TAG,
      summary: "PIX gateway notification (X-Webhook-Secret)",
      description:
        "Called by the PIX gateway, not by clients. `data.status` PAID settles the transaction and starts its subscription; EXPIRED or CANCELLED closes it; unknown transactions and other statuses are answered 200 and ignored.",
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
        description:
          'Called by the card gateway, not by clients; `/payments/webhook` and `/webhooks/card` are the same receiver. The signature is `t=<unix>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`, within 5 minutes. Each event id is applied once; an event naming no subscription of ours is answered 200 and ignored.',
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
