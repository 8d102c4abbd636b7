import { planAssignmentSchema } from "../src/modules/training-plans/training-plan.dto.js";
import { assignInput, assignmentFilter, assignmentPaging } from "../src/modules/training-plans/training-plan.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";
import { PLANS } from "./training-plans.routes.js";

/**
 * A training plan's assignments to students, and their transitions (api-spec.md, contract §5). Registered before the
 * training plans' routes: /training-plans/assignments is not a plan's id.
 */
export function addPlanAssignmentRoutes(routes: DocumentedRouter, services: Services): void {
  const { planAssignments } = services;

  routes.add(
    {
      method: "get",
      path: "/training-plans/assignments",
      operationId: "listAssignments",
      query: assignmentFilter,
      paging: assignmentPaging,
      response: pageOf(planAssignmentSchema),
      tag: PLANS,
      summary: "Assignments: a trainer's, a student's own, or all (administrators)",
      auth: "required",
      scope: "students:read",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await planAssignments.list(await userOf(services, req), listReader(req, assignmentPaging, assignmentFilter)));
    },
  );
  for (const transition of ["accept", "cancel", "complete"] as const) {
    routes.add(
      {
        method: "post",
        path: `/training-plans/assignments/:id/${transition}`,
        operationId: `${transition}Assignment`,
        response: planAssignmentSchema,
        tag: PLANS,
        summary: `Assignment transition: ${transition}`,
        auth: "required",
        scope: "students:write",
        success: 200,
        errors: [400, 403, 404, 409],
      },
      async (req, res) => {
        const actor = await userOf(services, req);
        res.json(await planAssignments[transition](actor, idParam(req)));
      },
    );
  }
  routes.add(
    {
      method: "post",
      path: "/training-plans/:id/assign",
      operationId: "assignTrainingPlan",
      response: planAssignmentSchema,
      tag: PLANS,
      summary: "Assign a plan to a linked student (another trainer's plan as the caller's own private copy)",
      auth: "required",
      scope: "students:write",
      success: 201,
      body: assignInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.status(201).json(await planAssignments.assign(actor, idParam(req), bodyReader(req, assignInput)));
    },
  );
}
