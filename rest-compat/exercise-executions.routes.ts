import { z } from "zod";
import {
  exerciseExecutionFilter,
  exerciseExecutionInput,
  exerciseExecutionPaging,
  progressFilter,
  userExerciseExecutionFilter,
} from "../src/modules/executions/execution.inputs.js";
import { exerciseExecutionSchema, exerciseProgressSchema, personalRecordSchema } from "../src/modules/executions/execution.dto.js";
import { queryId } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
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
      description:
        "The heaviest completed set of each exercise the caller has lifted a weight on, by exercise name, with the best Epley one-rep-max estimate. Other record kinds: `GET /exercises/{id}/records`.",
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
      pathParams: { userId: queryId.describe("The user's id") },
      query: userExerciseExecutionFilter,
      paging: exerciseExecutionPaging,
      response: pageOf(exerciseExecutionSchema),
      tag: EXECUTIONS,
      summary: "A user's exercise executions",
      description:
        "For the user, administrators and the user's ACTIVE-linked trainer (403 for anyone else; 404 for an unknown user). Both exercises logged on their own and those of training executions, latest first unless `sort` says otherwise; the items carry `exerciseName` and `trainingName`.",
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
      pathParams: { id: queryId.describe("The exercise's id") },
      response: exerciseExecutionSchema,
      tag: EXECUTIONS,
      summary: "Log an exercise execution",
      description:
        "Logs an exercise the caller did on its own, dated when the server receives it, within `trainingId`: a training the caller may execute (403 otherwise); the exercise must be one the caller may see. `newRecords` lists the records it set. A `clientId` the caller logged before answers 200 with the execution logged first.",
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
      pathParams: { id: queryId.describe("The exercise's id") },
      query: exerciseExecutionFilter,
      paging: exerciseExecutionPaging,
      response: pageOf(exerciseExecutionSchema),
      tag: EXECUTIONS,
      summary: "Executions of an exercise (the caller's unless userId)",
      description:
        "The caller's executions of the exercise, or `userId`'s for administrators and that user's ACTIVE-linked trainer (403 for anyone else): those logged on their own and those of training executions, latest first unless `sort` says otherwise.",
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
      pathParams: { id: queryId.describe("The exercise's id") },
      query: progressFilter,
      response: exerciseProgressSchema,
      tag: EXECUTIONS,
      summary: "Progress on an exercise by DAY, WEEK or MONTH",
      description:
        "The caller's progress, or `userId`'s (administrators and that user's ACTIVE-linked trainer only, 403 for anyone else): a point per DAY (the default), WEEK or MONTH with executions within `startDate`..`endDate` when given, and the personal record whatever the range.",
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
