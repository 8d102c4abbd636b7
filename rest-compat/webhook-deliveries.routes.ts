import { deliverySchema } from "../src/modules/webhooks/webhook.dto.js";
import { deliveryPaging } from "../src/modules/webhooks/webhook.inputs.js";
import type { Services } from "../src/services.js";
import { idParam, pageReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";
import { WEBHOOKS } from "./webhook-endpoints.routes.js";

/** An outbound endpoint's deliveries, listed and retried (contract §14.1). */
export function addWebhookDeliveryRoutes(routes: DocumentedRouter, services: Services): void {
  const { webhooks } = services;

  routes.add(
    {
      method: "get",
      path: "/webhook-endpoints/:id/deliveries",
      operationId: "listWebhookDeliveries",
      tag: WEBHOOKS,
      summary: "The endpoint's deliveries, newest first",
      description:
        "Owner or administrator. Newest first unless `sort` says otherwise. An event older than 30 days is deleted, with its deliveries, once none of them is PENDING.",
      auth: "required",
      scope: "webhooks:manage",
      success: 200,
      paging: deliveryPaging,
      response: pageOf(deliverySchema),
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.json(await webhooks.listDeliveries(await userOf(services, req), idParam(req), pageReader(req, deliveryPaging)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/webhook-endpoints/:id/deliveries/:deliveryId/retry",
      operationId: "retryWebhookDelivery",
      tag: WEBHOOKS,
      summary: "Attempts a delivery again now (a FAILED one gets one more attempt)",
      description:
        "Owner or administrator. The delivery is due again at once, whatever its status; asked while an attempt is under way, that attempt is the retry. 404 `Entrega não encontrada` when the endpoint has no such delivery.",
      auth: "required",
      scope: "webhooks:manage",
      success: 202,
      response: deliverySchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.status(202).json(await webhooks.retryDelivery(await userOf(services, req), idParam(req), idParam(req, "deliveryId")));
    },
  );
}
