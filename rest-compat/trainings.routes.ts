import { trainingListItemSchema, trainingSchema } from "../src/modules/trainings/training.dto.js";
import { trainingFilter, trainingInput, trainingPaging } from "../src/modules/trainings/training.inputs.js";
import type { Services } from "../src/services.js";
import { queryId } from "../src/platform/validation.js";
import { actorOf, bodyReader, idParam, listReader, pageReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

/** The `id` of this module's paths. */
const TRAINING_ID = queryId.describe("The training's id");

const TRAININGS = "Trainings";

/** Trainings (api-spec.md, contract §4). */
export function addTrainingRoutes(routes: DocumentedRouter, services: Services): void {
  const { trainings } = services;

  routes.add(
    {
      method: "get",
      path: "/trainings/my-trainings",
      operationId: "listMyTrainings",
      paging: trainingPaging,
      response: pageOf(trainingListItemSchema),
      tag: TRAININGS,
      summary: "Trainings the caller created",
      description:
        "The trainings the caller wrote, public and private, as list items (`exerciseCount` in place of the lines). Newest first unless `sort` says otherwise.",
      auth: "required",
      scope: "content:read",
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
      description:
        "Public trainings plus the private ones the caller may see: the caller's own, an ACTIVE-linked student's, and those scheduled by the caller's PENDING or ACTIVE plan assignments (administrators see all). List items carry `exerciseCount` in place of the lines. Newest first unless `sort` says otherwise.",
      auth: "required",
      scope: "content:read",
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
      description:
        "Any signed-in user. Every exercise must be one the caller may see (404 `Exercício não encontrado` otherwise). Students create only private trainings: `isPublic: true` from a student answers 403 `Apenas personal trainers podem criar conteúdo público`.",
      auth: "required",
      scope: "content:write",
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
      pathParams: { id: TRAINING_ID },
      operationId: "getTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "One training",
      description:
        "A public training needs no token. A private one is visible to its author, administrators, the trainer ACTIVE-linked to its student author, and students whose PENDING or ACTIVE plan assignment schedules it: 403 `Acesso negado` for anyone else, 401 without a token.",
      auth: "optional",
      scope: "content:read",
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
      pathParams: { id: TRAINING_ID },
      operationId: "updateTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "Replace a training",
      description:
        "Its author or an administrator (403 otherwise). Every field and every exercise line is replaced: what the body leaves out is cleared. Every exercise must be one the caller may see (404 otherwise).",
      auth: "required",
      scope: "content:write",
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
      pathParams: { id: TRAINING_ID },
      operationId: "deleteTraining",
      tag: TRAININGS,
      summary: "Delete a training (409 when in a plan)",
      description:
        "Its author or an administrator (403 otherwise). 409 `Treino está em uso em planos de treino` while a plan schedules it. Executions logged of it stay, their `trainingId` then null.",
      auth: "required",
      scope: "content:write",
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await trainings.delete(actor, idParam(req));
      res.status(204).end();
    },
  );
}
