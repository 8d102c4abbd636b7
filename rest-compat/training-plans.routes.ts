import { trainingPlanSchema } from "../src/modules/training-plans/training-plan.dto.js";
import { planFilter, planInput, planPaging } from "../src/modules/training-plans/training-plan.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, pageReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

export const PLANS = "Training plans";

/** Training plans (api-spec.md, contract §5). */
export function addTrainingPlanRoutes(routes: DocumentedRouter, services: Services): void {
  const { trainingPlans } = services;

  routes.add(
    {
      method: "get",
      path: "/training-plans/my-plans",
      operationId: "listMyPlans",
      paging: planPaging,
      response: pageOf(trainingPlanSchema),
      tag: PLANS,
      summary: "Plans the trainer created",
      auth: "required",
      scope: "content:read",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await trainingPlans.listMine(await userOf(services, req), pageReader(req, planPaging)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/training-plans",
      operationId: "listTrainingPlans",
      query: planFilter,
      paging: planPaging,
      response: pageOf(trainingPlanSchema),
      tag: PLANS,
      summary: "Plans visible to the caller",
      auth: "required",
      scope: "content:read",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await trainingPlans.list(await userOf(services, req), listReader(req, planPaging, planFilter)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/training-plans",
      operationId: "createTrainingPlan",
      response: trainingPlanSchema,
      tag: PLANS,
      summary: "Create a plan (trainers)",
      auth: "required",
      scope: "content:write",
      success: 201,
      body: planInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.status(201).json(await trainingPlans.create(await userOf(services, req), bodyReader(req, planInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/training-plans/:id",
      operationId: "getTrainingPlan",
      response: trainingPlanSchema,
      tag: PLANS,
      summary: "One plan",
      auth: "required",
      scope: "content:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await trainingPlans.get(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/training-plans/:id",
      operationId: "updateTrainingPlan",
      response: trainingPlanSchema,
      tag: PLANS,
      summary: "Replace a plan",
      auth: "required",
      scope: "content:write",
      success: 200,
      body: planInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await trainingPlans.update(actor, idParam(req), bodyReader(req, planInput)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/training-plans/:id",
      operationId: "deleteTrainingPlan",
      tag: PLANS,
      summary: "Delete a plan (409 while assigned)",
      auth: "required",
      scope: "content:write",
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await trainingPlans.delete(actor, idParam(req));
      res.status(204).end();
    },
  );
}
