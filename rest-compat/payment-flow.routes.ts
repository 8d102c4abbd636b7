import { z } from "zod";
import { checkoutSubscriptionSchema, pixTransactionSchema } from "../src/modules/billing/billing.dto.js";
import { cancelCheckoutInput, checkoutInput, pixTransactionId, simulatePaymentInput } from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";
import { STATUS_502 } from "./subscriptions.routes.js";

const FLOW = "Payment flow";

/** The mobile apps' payment flow: a card or PIX checkout, the current subscription, the PIX status and the sandbox's payment. */
export function addPaymentFlowRoutes(routes: DocumentedRouter, services: Services): void {
  const { subscriptions, checkouts, paymentEvents } = services;

  routes.add(
    {
      method: "post",
      path: "/payments/subscribe",
      operationId: "checkout",
      response: z.union([checkoutSubscriptionSchema, pixTransactionSchema]).describe("a card checkout: the subscription; PIX: the charge to pay"),
      tag: FLOW,
      summary: "Checkout: card subscription at the gateway, or a PIX QR code",
      description:
        "The plan must be active and for the caller's userType (else 400). CREDIT_CARD, by `paymentMethodId` or by the card fields: a recurring subscription at the card gateway, answered in the payment flow's shape; a refused card is 400 `Pagamento recusado` with `details`, and the subscription FAILED. PIX: a PENDING subscription, answered with the PIX charge to pay.",
      auth: "required",
      scope: "login",
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
      description:
        "The caller's subscription giving access, else their latest PENDING one (as GET /subscriptions/my-subscription chooses), in the payment flow's shape; 404 `Assinatura não encontrada` when there is neither.",
      auth: "required",
      scope: "billing:read",
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
      description:
        "As POST /subscriptions/{id}/cancel, but at once unless `cancelImmediately` is false (the body may be left out); answered in the payment flow's shape. Owner or administrator.",
      auth: "required",
      scope: "login",
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
      path: "/billing/status/:transactionId",
      operationId: "getPixStatus",
      pathParams: { transactionId: pixTransactionId },
      response: pixTransactionSchema,
      tag: FLOW,
      summary: "A PIX transaction (polled after showing the QR code)",
      description:
        "The owner's, or any for an administrator. A PENDING charge is first checked with the PIX gateway, so a payment whose notification was lost still shows PAID (and starts its subscription).",
      auth: "required",
      scope: "billing:read",
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
      description:
        "Only while the PIX gateway is the sandbox or in dev mode (else 404). Pays the caller's PENDING charge (an administrator's: any) the way the gateway's notification does; a charge no longer PENDING is answered as it is.",
      auth: "required",
      scope: "login",
      success: 200,
      body: simulatePaymentInput,
      errors: { 403: "Acesso negado", 404: "Transação não encontrada, or no gateway that can simulate", 502: STATUS_502 },
    },
    async (req, res) => {
      res.json(await paymentEvents.simulatePixPayment(await userOf(services, req), bodyReader(req, simulatePaymentInput)));
    },
  );
}
