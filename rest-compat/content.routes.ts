import type { Request } from "express";
import { z } from "zod";
import { exerciseListItemSchema, exerciseSchema } from "../src/modules/exercises/exercise.dto.js";
import { EXERCISE_CATEGORIES } from "../src/tables/exercise.table.js";
import { planAssignmentSchema, trainingPlanSchema } from "../src/modules/training-plans/training-plan.dto.js";
import { trainingListItemSchema, trainingSchema } from "../src/modules/trainings/training.dto.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "../src/modules/exercises/exercise.inputs.js";
import { assignInput, assignmentFilter, assignmentPaging, planFilter, planInput, planPaging } from "../src/modules/training-plans/training-plan.inputs.js";
import { trainingFilter, trainingInput, trainingPaging } from "../src/modules/trainings/training.inputs.js";
import type { ExerciseUpload } from "../src/modules/exercises/exercise.service.js";
import type { Services } from "../src/services.js";
import { actorOf, bodyReader, idParam, listReader, pageReader, userOf } from "./http.js";
import { parseJsonPart, readMultipart, type MultipartBody } from "./multipart.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter, MultipartPart } from "./routes.js";

const EXERCISES = "Exercises";
const TRAININGS = "Trainings";
const PLANS = "Training plans";
const EXERCISE_PARTS: Record<string, MultipartPart> = {
  exercise: { description: "the exercise, a JSON object (a text part, or a file part of type application/json)", required: true, json: exerciseInput },
  file: { description: "optional image (JPG, PNG or GIF, at most 5 MB)", required: false, file: true },
};

/** The multipart parts of an exercise, read when the service asks: the `exercise` JSON object and the `file` image. */
function exerciseUpload(req: Request): ExerciseUpload {
  let body: Promise<MultipartBody> | undefined;
  const read = () => (body ??= readMultipart(req));
  return {
    readExercise: async () => parseJsonPart(await read(), "exercise", exerciseInput),
    readFile: async () => (await read()).files.file,
  };
}

/** Exercises, trainings, training plans and their assignments (api-spec.md, contract §4–§5). */
export function addContentRoutes(routes: DocumentedRouter, services: Services): void {
  const { exercises, trainings, trainingPlans, planAssignments } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/categories",
      operationId: "listExerciseCategories",
      response: z.array(z.enum(EXERCISE_CATEGORIES)),
      errors: { 400: "JSON inválido (a body sent along that does not parse)" },
      tag: EXERCISES,
      summary: "The ten categories, in order",
      auth: "none",
      success: 200,
    },
    async (_req, res) => {
      res.json(exercises.listCategories());
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/my-exercises",
      operationId: "listMyExercises",
      paging: exercisePaging,
      response: pageOf(exerciseListItemSchema),
      tag: EXERCISES,
      summary: "Exercises the caller created",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await exercises.listMine(await userOf(services, req), pageReader(req, exercisePaging)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises",
      operationId: "listExercises",
      query: exerciseFilter,
      paging: exercisePaging,
      response: pageOf(exerciseListItemSchema),
      tag: EXERCISES,
      summary: "Public exercises, plus those visible to the caller",
      auth: "optional",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await exercises.list(await actorOf(services, req), listReader(req, exercisePaging, exerciseFilter)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/exercises",
      operationId: "createExercise",
      response: exerciseSchema,
      tag: EXERCISES,
      summary: "Create an exercise (multipart)",
      auth: "required",
      success: 201,
      multipart: EXERCISE_PARTS,
      errors: [400, 403],
    },
    async (req, res) => {
      res.status(201).json(await exercises.create(await userOf(services, req), exerciseUpload(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/:id",
      operationId: "getExercise",
      response: exerciseSchema,
      tag: EXERCISES,
      summary: "One exercise (token optional for public ones)",
      auth: "optional",
      success: 200,
      errors: [400, 401, 403, 404],
    },
    async (req, res) => {
      const actor = await actorOf(services, req);
      res.json(await exercises.get(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/exercises/:id",
      operationId: "updateExercise",
      response: exerciseSchema,
      tag: EXERCISES,
      summary: "Replace an exercise (multipart; a new image replaces the old)",
      auth: "required",
      success: 200,
      multipart: EXERCISE_PARTS,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await exercises.update(actor, idParam(req), exerciseUpload(req)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/exercises/:id",
      operationId: "deleteExercise",
      tag: EXERCISES,
      summary: "Delete an exercise (409 when used in trainings)",
      auth: "required",
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await exercises.delete(actor, idParam(req));
      res.status(204).end();
    },
  );

  routes.add(
    {
      method: "get",
      path: "/trainings/my-trainings",
      operationId: "listMyTrainings",
      paging: trainingPaging,
      response: pageOf(trainingListItemSchema),
      tag: TRAININGS,
      summary: "Trainings the caller created",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await trainings.listMine(await userOf(services, req), pageReader(req, trainingPaging)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/trainings",
      operationId: "listTrainings",
      query: trainingFilter,
      paging: trainingPaging,
      response: pageOf(trainingListItemSchema),
      tag: TRAININGS,
      summary: "Trainings visible to the caller",
      auth: "required",
      success: 200,
      errors: [400],
    },
    async (req, res) => {
      res.json(await trainings.list(await userOf(services, req), listReader(req, trainingPaging, trainingFilter)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/trainings",
      operationId: "createTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "Create a training",
      auth: "required",
      success: 201,
      body: trainingInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      res.status(201).json(await trainings.create(await userOf(services, req), bodyReader(req, trainingInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/trainings/:id",
      operationId: "getTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "One training",
      auth: "optional",
      success: 200,
      errors: [400, 401, 403, 404],
    },
    async (req, res) => {
      const actor = await actorOf(services, req);
      res.json(await trainings.get(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/trainings/:id",
      operationId: "updateTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "Replace a training",
      auth: "required",
      success: 200,
      body: trainingInput,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await trainings.update(actor, idParam(req), bodyReader(req, trainingInput)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/trainings/:id",
      operationId: "deleteTraining",
      tag: TRAININGS,
      summary: "Delete a training (409 when in a plan)",
      auth: "required",
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await trainings.delete(actor, idParam(req));
      res.status(204).end();
    },
  );

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
      method: "get",
      path: "/training-plans/my-plans",
      operationId: "listMyPlans",
      paging: planPaging,
      response: pageOf(trainingPlanSchema),
      tag: PLANS,
      summary: "Plans the trainer created",
      auth: "required",
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
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await trainingPlans.delete(actor, idParam(req));
      res.status(204).end();
    },
  );
  routes.add(
    {
      method: "post",
      path: "/training-plans/:id/assign",
      operationId: "assignTrainingPlan",
      response: planAssignmentSchema,
      tag: PLANS,
      summary: "Assign a plan to a linked student (another trainer's plan as the caller's own private copy)",
      auth: "required",
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
