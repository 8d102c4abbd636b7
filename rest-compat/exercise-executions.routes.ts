import { z } from "zod";
import {
  exerciseExecutionFilter,
  exerciseExecutionInput,
  exerciseExecutionPaging,
  progressFilter,
  userExerciseExecutionFilter,
} from "../src/modules/executions/execution.inputs.js";
import { exerciseExecutionSchema, exerciseProgressSchema, personalRecordSchema } from "../src/modules/executions/execution.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";
import { CLIENT_ID_LOGGED, EXECUTIONS } from "./training-executions.routes.js";

/**
 * Exercise executions, progress and personal records (api-spec.md "Exercise executions and progress"). Registered
 * before the /exercises/:id routes they share a prefix with.
 */
export function addExerciseExecutionRoutes(routes: DocumentedRouter, services: Services): void {
  const { executions, executionLogging, statistics } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/personal-records",
      operationId: "listPersonalRecords",
      response: z.array(personalRecordSchema),
      tag: EXECUTIONS,
      summary: "The caller's personal records, one per exercise",
      auth: "required",
      scope: "activity:read",
      success: 200,
    },
    async (req, res) => {
      res.json(await services.records.listPersonalRecords(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/executions/user/:userId",
      operationId: "listUserExerciseExecutions",
      query: userExerciseExecutionFilter,
      paging: exerciseExecutionPaging,
      response: pageOf(exerciseExecutionSchema),
      tag: EXECUTIONS,
      summary: "A user's exercise executions",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(
        await executions.listUserExerciseExecutions(actor, idParam(req, "userId"), listReader(req, exerciseExecutionPaging, userExerciseExecutionFilter)),
      );
    },
  );
  routes.add(
    {
      method: "post",
      path: "/exercises/:id/execution",
      operationId: "logExerciseExecution",
      response: exerciseExecutionSchema,
      tag: EXECUTIONS,
      summary: "Log an exercise execution",
      auth: "required",
      scope: "activity:write",
      success: 201,
      alsoAnswers: { 200: CLIENT_ID_LOGGED },
      body: exerciseExecutionInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const { execution, created } = await executionLogging.logExercise(actor, idParam(req), bodyReader(req, exerciseExecutionInput));
      res.status(created ? 201 : 200).json(execution);
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/:id/executions",
      operationId: "listExerciseExecutions",
      query: exerciseExecutionFilter,
      paging: exerciseExecutionPaging,
      response: pageOf(exerciseExecutionSchema),
      tag: EXECUTIONS,
      summary: "Executions of an exercise (the caller's unless userId)",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await executions.listExerciseExecutions(actor, idParam(req), listReader(req, exerciseExecutionPaging, exerciseExecutionFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/:id/progress",
      operationId: "getExerciseProgress",
      query: progressFilter,
      response: exerciseProgressSchema,
      tag: EXECUTIONS,
      summary: "Progress on an exercise by DAY, WEEK or MONTH",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await statistics.exerciseProgress(actor, idParam(req), queryReader(req, progressFilter)));
    },
  );
}
