import { createdEndpointSchema, deliverySchema, endpointSchema, rotatedSecretSchema } from "../src/modules/webhooks/webhook.dto.js";
import { endpointChangeInput, endpointInput, endpointPaging, noFilter } from "../src/modules/webhooks/webhook.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

export const WEBHOOKS = "Webhooks";

/** Outbound webhook endpoints: registered, changed, rotated, tested (contract §14.1). */
export function addWebhookEndpointRoutes(routes: DocumentedRouter, services: Services): void {
  const { webhooks } = services;

  routes.add(
    {
      method: "post",
      path: "/webhook-endpoints",
      operationId: "createWebhookEndpoint",
      tag: WEBHOOKS,
      summary: "Registers an endpoint for signed event deliveries; the answer holds its secret, shown only now",
      description:
        "Any signed-in user registers endpoints of their own (an app's token: endpoints of that app). Keep the `secret`: it verifies the `webhook-signature` header of each delivery (Standard Webhooks). In production the url must be https and resolve to a public address (else 400 on `url`).",
      auth: "required",
      scope: "webhooks:manage",
      success: 201,
      body: endpointInput,
      response: createdEndpointSchema,
      errors: [400],
    },
    async (req, res) => {
      res.status(201).json(await webhooks.create(await userOf(services, req), bodyReader(req, endpointInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/webhook-endpoints",
      operationId: "listWebhookEndpoints",
      tag: WEBHOOKS,
      summary: "The caller's endpoints (an administrator's: everyone's)",
      description:
        "A user's own endpoints; an administrator's login or personal token lists everyone's, an app's token only the endpoints that app registered for its user. Newest first unless `sort` says otherwise.",
      auth: "required",
      scope: "webhooks:manage",
      success: 200,
      paging: endpointPaging,
      response: pageOf(endpointSchema),
      errors: [400],
    },
    async (req, res) => {
      res.json(await webhooks.list(await userOf(services, req), listReader(req, endpointPaging, noFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/webhook-endpoints/:id",
      operationId: "getWebhookEndpoint",
      tag: WEBHOOKS,
      summary: "One endpoint",
      description:
        "The owner's, or any for an administrator (else 403 `Acesso negado`); 404 `Endpoint não encontrado`. An app's token reaches only the endpoints that app registered.",
      auth: "required",
      scope: "webhooks:manage",
      success: 200,
      response: endpointSchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.json(await webhooks.get(await userOf(services, req), idParam(req)));
    },
  );
  routes.add(
    {
      method: "patch",
      path: "/webhook-endpoints/:id",
      operationId: "updateWebhookEndpoint",
      tag: WEBHOOKS,
      summary: "Changes an endpoint's url, events, description, or turns it on or off",
      description:
        "Owner or administrator; fields left out stay. `enabled: true` turns an endpoint back on (after the service disabled it for 5 days of failed deliveries, say), its run of failures starting afresh.",
      auth: "required",
      scope: "webhooks:manage",
      success: 200,
      body: endpointChangeInput,
      response: endpointSchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.json(await webhooks.update(await userOf(services, req), idParam(req), bodyReader(req, endpointChangeInput)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/webhook-endpoints/:id",
      operationId: "deleteWebhookEndpoint",
      tag: WEBHOOKS,
      summary: "Deletes an endpoint and its deliveries",
      description: "Owner or administrator. Its deliveries go with it, pending ones included.",
      auth: "required",
      scope: "webhooks:manage",
      success: 204,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      await webhooks.remove(await userOf(services, req), idParam(req));
      res.status(204).end();
    },
  );
  routes.add(
    {
      method: "post",
      path: "/webhook-endpoints/:id/rotate-secret",
      operationId: "rotateWebhookSecret",
      tag: WEBHOOKS,
      summary: "A new signing secret; deliveries carry a signature by the previous one too for 24 hours",
      description:
        "Owner or administrator. The new secret is in this answer only. For 24 hours each delivery carries two `v1,` signatures, by the new and by the previous secret, so a receiver can switch without losing any.",
      auth: "required",
      scope: "webhooks:manage",
      success: 200,
      response: rotatedSecretSchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.json(await webhooks.rotateSecret(await userOf(services, req), idParam(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/webhook-endpoints/:id/test",
      operationId: "testWebhookEndpoint",
      tag: WEBHOOKS,
      summary: "Sends a `ping` event to the endpoint; the answer is its delivery",
      description:
        "Owner or administrator. Queues a `ping` to this endpoint alone, due at once, and answers its delivery (PENDING); follow it in GET /webhook-endpoints/{id}/deliveries. A disabled endpoint's ping waits until it is enabled again.",
      auth: "required",
      scope: "webhooks:manage",
      success: 202,
      response: deliverySchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.status(202).json(await webhooks.test(await userOf(services, req), idParam(req)));
    },
  );
}
