import { trainingListItemSchema, trainingSchema } from "../src/modules/trainings/training.dto.js";
import { trainingFilter, trainingInput, trainingPaging } from "../src/modules/trainings/training.inputs.js";
import type { Services } from "../src/services.js";
import { actorOf, bodyReader, idParam, listReader, pageReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

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
      operationId: "getTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "One training",
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
      operationId: "updateTraining",
      response: trainingSchema,
      tag: TRAININGS,
      summary: "Replace a training",
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
      operationId: "deleteTraining",
      tag: TRAININGS,
      summary: "Delete a training (409 when in a plan)",
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
