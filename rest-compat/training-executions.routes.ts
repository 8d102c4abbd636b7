import {
  statisticsFilter,
  trainingExecutionFilter,
  trainingExecutionInput,
  trainingExecutionPaging,
  userTrainingExecutionFilter,
} from "../src/modules/executions/execution.inputs.js";
import { trainingExecutionSchema, trainingExecutionSummarySchema, trainingStatisticsSchema } from "../src/modules/executions/execution.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
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
      query: userTrainingExecutionFilter,
      paging: trainingExecutionPaging,
      response: pageOf(trainingExecutionSummarySchema),
      tag: EXECUTIONS,
      summary: "A user's training executions",
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
      response: trainingExecutionSchema,
      tag: EXECUTIONS,
      summary: "One training execution with its exercises and sets",
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
      response: trainingExecutionSchema,
      tag: EXECUTIONS,
      summary: "Log a training execution",
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
      query: trainingExecutionFilter,
      paging: trainingExecutionPaging,
      response: pageOf(trainingExecutionSummarySchema),
      tag: EXECUTIONS,
      summary: "Executions of a training (the caller's unless userId)",
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
      query: statisticsFilter,
      response: trainingStatisticsSchema,
      tag: EXECUTIONS,
      summary: "Statistics of a training's executions",
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
