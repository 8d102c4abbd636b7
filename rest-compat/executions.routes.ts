import { z } from "zod";
import {
  exerciseExecutionFilter,
  exerciseExecutionInput,
  exerciseExecutionPaging,
  progressFilter,
  statisticsFilter,
  trainingExecutionFilter,
  trainingExecutionInput,
  trainingExecutionPaging,
  userExerciseExecutionFilter,
  userTrainingExecutionFilter,
} from "../src/modules/executions/execution.inputs.js";
import {
  exerciseExecutionSchema,
  exerciseProgressSchema,
  personalRecordSchema,
  trainingExecutionSchema,
  trainingExecutionSummarySchema,
  trainingStatisticsSchema,
} from "../src/modules/executions/execution.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

const TAG = "Executions and statistics";
const CLIENT_ID_LOGGED = "The clientId was logged before: the execution logged first (and the records it set), whatever this body says";

/**
 * Execution logs, statistics, progress and records (api-spec.md "Trainings and their executions", "Exercise
 * executions and progress"). Registered before the /trainings/:id and /exercises/:id routes they share a prefix with.
 */
export function addExecutionRoutes(routes: DocumentedRouter, services: Services): void {
  const { executions, executionLogging, statistics } = services;

  routes.add(
    {
      method: "get",
      path: "/trainings/executions/user/:userId",
      operationId: "listUserTrainingExecutions",
      query: userTrainingExecutionFilter,
      paging: trainingExecutionPaging,
      response: pageOf(trainingExecutionSummarySchema),
      tag: TAG,
      summary: "A user's training executions",
      auth: "required",
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
      tag: TAG,
      summary: "One training execution with its exercises and sets",
      auth: "required",
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
      tag: TAG,
      summary: "Log a training execution",
      auth: "required",
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
      tag: TAG,
      summary: "Executions of a training (the caller's unless userId)",
      auth: "required",
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
      tag: TAG,
      summary: "Statistics of a training's executions",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await statistics.trainingStatistics(actor, idParam(req), queryReader(req, statisticsFilter)));
    },
  );

  routes.add(
    {
      method: "get",
      path: "/exercises/personal-records",
      operationId: "listPersonalRecords",
      response: z.array(personalRecordSchema),
      tag: TAG,
      summary: "The caller's personal records, one per exercise",
      auth: "required",
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
      tag: TAG,
      summary: "A user's exercise executions",
      auth: "required",
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
      tag: TAG,
      summary: "Log an exercise execution",
      auth: "required",
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
      tag: TAG,
      summary: "Executions of an exercise (the caller's unless userId)",
      auth: "required",
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
      tag: TAG,
      summary: "Progress on an exercise by DAY, WEEK or MONTH",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await statistics.exerciseProgress(actor, idParam(req), queryReader(req, progressFilter)));
    },
  );
}
