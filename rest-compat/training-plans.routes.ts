import { trainingPlanSchema } from "../src/modules/training-plans/training-plan.dto.js";
import { planFilter, planInput, planPaging } from "../src/modules/training-plans/training-plan.inputs.js";
import type { Services } from "../src/services.js";
import { queryId } from "../src/platform/validation.js";
import { bodyReader, idParam, listReader, pageReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

/** The `id` of this module's paths. */
const PLAN_ID = queryId.describe("The plan's id");

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
      description: "Trainers only (403 for students): the plans the caller wrote, each with its trainings. Newest first unless `sort` says otherwise.",
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
      description:
        "Public plans, the caller's own, and those assigned to the caller (administrators see all), each with its trainings. Newest first unless `sort` says otherwise.",
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
      description:
        "Trainers only: 403 `Apenas personal trainers podem criar planos de treino` for anyone else. Every training must be one the caller may see (404 `Treino não encontrado` otherwise).",
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
      pathParams: { id: PLAN_ID },
      operationId: "getTrainingPlan",
      response: trainingPlanSchema,
      tag: PLANS,
      summary: "One plan",
      description:
        "A public plan is visible to every signed-in user; a private one to its author, administrators and the students it was assigned to (403 `Acesso negado` for anyone else).",
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
      pathParams: { id: PLAN_ID },
      operationId: "updateTrainingPlan",
      response: trainingPlanSchema,
      tag: PLANS,
      summary: "Replace a plan",
      description:
        "Its author or an administrator (403 otherwise). Every field and the week's trainings are replaced: what the body leaves out is cleared. Every training must be one the caller may see (404 `Treino não encontrado` otherwise).",
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
      pathParams: { id: PLAN_ID },
      operationId: "deleteTrainingPlan",
      tag: PLANS,
      summary: "Delete a plan (409 while assigned)",
      description:
        "Its author or an administrator (403 otherwise). 409 `Plano de treino está atribuído a alunos` while a PENDING or ACTIVE assignment uses it; its COMPLETED and CANCELED assignments are deleted with it.",
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
