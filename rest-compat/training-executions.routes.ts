import {
  statisticsFilter,
  trainingExecutionFilter,
  trainingExecutionInput,
  trainingExecutionPaging,
  userTrainingExecutionFilter,
} from "../src/modules/executions/execution.inputs.js";
import { trainingExecutionSchema, trainingExecutionSummarySchema, trainingStatisticsSchema } from "../src/modules/executions/execution.dto.js";
import { queryId } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

export const EXECUTIONS = "Executions and statistics";
export const CLIENT_ID_LOGGED = "The clientId was logged before: the execution logged first (and the records it set), whatever this body says";

/**
 * Training executions: their logs, lists and statistics (api-spec.md "Trainings and their executions"). Registered
 * before the /trainings/:id routes they share a prefix with.
 */
export function addTrainingExecutionRoutes(routes: DocumentedRouter, services: Services): void {
  const { executions, executionLogging, statistics } = services;

  routes.add(
    {
      method: "get",
      path: "/trainings/executions/user/:userId",
      operationId: "listUserTrainingExecutions",
      pathParams: { userId: queryId.describe("The user's id") },
      query: userTrainingExecutionFilter,
      paging: trainingExecutionPaging,
      response: pageOf(trainingExecutionSummarySchema),
      tag: EXECUTIONS,
      summary: "A user's training executions",
      description:
        "For the user, administrators and the user's ACTIVE-linked trainer (403 for anyone else; 404 for an unknown user). Latest started first unless `sort` says otherwise; the items carry `trainingName`.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(
        await executions.listUserTrainingExecutions(actor, idParam(req, "userId"), listReader(req, trainingExecutionPaging, userTrainingExecutionFilter)),
      );
    },
  );
  routes.add(
    {
      method: "get",
      path: "/trainings/executions/:id",
      operationId: "getTrainingExecution",
      pathParams: { id: queryId.describe("The training execution's id") },
      response: trainingExecutionSchema,
      tag: EXECUTIONS,
      summary: "One training execution with its exercises and sets",
      description:
        "For the execution's user, administrators and the user's ACTIVE-linked trainer (403 for anyone else). Carries the user's name and every exercise done, with its sets.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await executions.getTrainingExecution(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/trainings/:id/execution",
      operationId: "logTrainingExecution",
      pathParams: { id: queryId.describe("The training's id") },
      response: trainingExecutionSchema,
      tag: EXECUTIONS,
      summary: "Log a training execution",
      description:
        "Logs a session the caller did of a training it may execute: its own, or one of a plan assigned to it, PENDING or ACTIVE (403 otherwise). Every exercise must be one of the training; each also becomes an exercise execution dated at `endTime`, and `newRecords` lists the records the session set. A `clientId` the caller logged before answers 200 with the execution logged first.",
      auth: "required",
      scope: "activity:write",
      success: 201,
      alsoAnswers: { 200: CLIENT_ID_LOGGED },
      body: trainingExecutionInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const { execution, created } = await executionLogging.logTraining(actor, idParam(req), bodyReader(req, trainingExecutionInput));
      res.status(created ? 201 : 200).json(execution);
    },
  );
  routes.add(
    {
      method: "get",
      path: "/trainings/:id/executions",
      operationId: "listTrainingExecutions",
      pathParams: { id: queryId.describe("The training's id") },
      query: trainingExecutionFilter,
      paging: trainingExecutionPaging,
      response: pageOf(trainingExecutionSummarySchema),
      tag: EXECUTIONS,
      summary: "Executions of a training (the caller's unless userId)",
      description:
        "The caller's executions of the training, or `userId`'s for administrators and that user's ACTIVE-linked trainer (403 for anyone else). Latest started first unless `sort` says otherwise; the items leave out `trainingName`.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await executions.listTrainingExecutions(actor, idParam(req), listReader(req, trainingExecutionPaging, trainingExecutionFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/trainings/:id/statistics",
      operationId: "getTrainingStatistics",
      pathParams: { id: queryId.describe("The training's id") },
      query: statisticsFilter,
      response: trainingStatisticsSchema,
      tag: EXECUTIONS,
      summary: "Statistics of a training's executions",
      description:
        "Counts the caller's executions of the training, or `userId`'s (administrators and that user's ACTIVE-linked trainer only, 403 for anyone else), dated by `startTime` within `startDate`..`endDate` when given. Set figures count completed sets only; weights and volumes are in kg, durations in seconds.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await statistics.trainingStatistics(actor, idParam(req), queryReader(req, statisticsFilter)));
    },
  );
}
