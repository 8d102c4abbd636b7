import { z } from "zod";
import { planSchema } from "../src/modules/billing/billing.dto.js";
import { planCatalogueFilter } from "../src/modules/billing/billing.inputs.js";
import type { Services } from "../src/services.js";
import { idParam, queryReader, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

const PLANS = "Subscription plans";

/** The subscription plan catalogue. */
export function addSubscriptionPlanRoutes(routes: DocumentedRouter, services: Services): void {
  const { subscriptionPlans } = services;

  routes.add(
    {
      method: "get",
      path: "/subscription-plans",
      operationId: "listSubscriptionPlans",
      query: planCatalogueFilter,
      response: z.array(planSchema),
      tag: PLANS,
      summary: "The plan catalogue (plain array)",
      description: "Any signed-in user reads the catalogue: withdrawn plans too, unless `active=true` is asked. Ordered by userType, then price.",
      auth: "required",
      scope: "billing:read",
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
      description: "Any signed-in user; withdrawn plans too. 404 `Plano não encontrado` when there is none.",
      auth: "required",
      scope: "billing:read",
      success: 200,
      errors: [400, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await subscriptionPlans.get(actor, idParam(req)));
    },
  );
}
