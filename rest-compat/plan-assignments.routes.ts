import { planAssignmentSchema } from "../src/modules/training-plans/training-plan.dto.js";
import { assignInput, assignmentFilter, assignmentPaging } from "../src/modules/training-plans/training-plan.inputs.js";
import type { Services } from "../src/services.js";
import { queryId } from "../src/platform/validation.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";
import { PLANS } from "./training-plans.routes.js";

/** What each transition does, and who asks for it (contract §5). */
const TRANSITIONS_DONE = {
  accept: "Its student accepts it: PENDING → ACTIVE.",
  cancel: "Its trainer or its student cancels it: PENDING or ACTIVE → CANCELED.",
  complete: "Its trainer completes it: ACTIVE → COMPLETED (a daily job also completes ACTIVE assignments whose `endDate` has passed).",
} as const;

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
      description:
        "A trainer sees the assignments it made, a student its own, administrators all; the filters narrow that, never widen it. Latest assigned first unless `sort` says otherwise.",
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
        pathParams: { id: queryId.describe("The assignment's id") },
        operationId: `${transition}Assignment`,
        response: planAssignmentSchema,
        tag: PLANS,
        summary: `Assignment transition: ${transition}`,
        description: `${TRANSITIONS_DONE[transition]} An administrator may too; anyone else gets 403 \`Acesso negado\`. 404 \`Atribuição não encontrada\`; 409 \`Transição de status inválida\` from another status.`,
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
      pathParams: { id: queryId.describe("The id of the plan to assign") },
      operationId: "assignTrainingPlan",
      response: planAssignmentSchema,
      tag: PLANS,
      summary: "Assign a plan to a linked student (another trainer's plan as the caller's own private copy)",
      description:
        "Trainers only (403 for students). The plan must be one the caller may see; the student must exist as a student (404 `Aluno não encontrado`) with an ACTIVE link to the caller (403 `Aluno não vinculado a este personal`). The assignment answered is PENDING until the student accepts. Another trainer's plan is assigned as a private copy the caller owns, so its author's later edits do not reach the student.",
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
