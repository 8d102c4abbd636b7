import { subscriptionSchema } from "../src/modules/billing/billing.dto.js";
import { cancelInput, subscribeInput, updateSubscriptionInput } from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

const SUBSCRIPTIONS = "Subscriptions";
export const STATUS_502 = "Gateway de pagamento indisponível";

/** Subscriptions: subscribing, changing and cancelling them. */
export function addSubscriptionRoutes(routes: DocumentedRouter, services: Services): void {
  const { subscriptions, checkouts } = services;

  routes.add(
    {
      method: "get",
      path: "/subscriptions/my-subscription",
      operationId: "getMySubscription",
      response: subscriptionSchema,
      tag: SUBSCRIPTIONS,
      summary: "The subscription giving access, else the latest pending one",
      description:
        "The caller's own: the subscription giving access (ACTIVE, or CANCELED until its endDate), else the latest PENDING one; 404 `Assinatura não encontrada` when there is neither.",
      auth: "required",
      scope: "billing:read",
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
      description:
        "The plan must be active and for the caller's userType (else 400 `Plano não disponível para este usuário`). A card accepted gives an ACTIVE subscription, a COMPLETED payment and a PAID invoice; refused, 422 `Pagamento recusado` with the gateway's code in `details` and a FAILED payment. PIX or BOLETO gives a PENDING subscription with the `pix` or `boleto` to pay and a PENDING invoice; it replaces an earlier PENDING one, and asking again for the same plan and method answers the same charge.",
      auth: "required",
      scope: "login",
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
      description: "The owner's, or any for an administrator (else 403 `Acesso negado`); 404 `Assinatura não encontrada`.",
      auth: "required",
      scope: "billing:read",
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
      description:
        "Owner or administrator, while the subscription is PENDING or ACTIVE (else 409). Card fields are checked, then saved at the card gateway (not charged) as the card renewals charge; a refusal is 422 `Pagamento recusado` with `details`.",
      auth: "required",
      scope: "login",
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
      description:
        "Owner or administrator, for an ACTIVE or PENDING subscription (409 `Esta assinatura já está cancelada` when canceled already). `cancelImmediately: true` ends access now (the user back to FREEMIUM); otherwise access lasts until endDate. autoRenew turns false and renewalDate null; its pending invoices and PIX charges are canceled, and the card gateway is told after.",
      auth: "required",
      scope: "login",
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
}
