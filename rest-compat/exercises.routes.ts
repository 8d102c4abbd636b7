import type { Request } from "express";
import { exerciseListItemSchema, exerciseSchema } from "../src/modules/exercises/exercise.dto.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "../src/modules/exercises/exercise.inputs.js";
import type { ExerciseUpload } from "../src/modules/exercises/exercise.service.js";
import type { Services } from "../src/services.js";
import { actorOf, idParam, listReader, pageReader, userOf } from "./http.js";
import { parseJsonPart, readMultipart, type MultipartBody } from "./multipart.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter, MultipartPart } from "./routes.js";

export const EXERCISES = "Exercises";

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

/** The exercise library (api-spec.md, contract §4). */
export function addExerciseRoutes(routes: DocumentedRouter, services: Services): void {
  const { exercises } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/my-exercises",
      operationId: "listMyExercises",
      paging: exercisePaging,
      response: pageOf(exerciseListItemSchema),
      tag: EXERCISES,
      summary: "Exercises the caller created",
      description: "The exercises the caller wrote, public and private. By name, A to Z, unless `sort` says otherwise.",
      auth: "required",
      scope: "content:read",
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
      description:
        "Without a token, public exercises only. With one, public exercises plus the private ones the caller may see: the caller's own, an ACTIVE-linked student's, and those in trainings of the caller's PENDING or ACTIVE plan assignments (administrators see all). By name, A to Z, unless `sort` says otherwise.",
      auth: "optional",
      scope: "content:read",
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
      description:
        "Any signed-in user. The `exercise` part is the exercise as JSON; the optional `file` part is its image, whose type is judged from its bytes. Students create only private exercises: `isPublic: true` from a student answers 403 `Apenas personal trainers podem criar conteúdo público`.",
      auth: "required",
      scope: "content:write",
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
      description:
        "A public exercise needs no token. A private one is visible to its author, administrators, the trainer ACTIVE-linked to its student author, and students whose PENDING or ACTIVE plan assignment uses it: 403 `Acesso negado` for anyone else, 401 without a token.",
      auth: "optional",
      scope: "content:read",
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
      description:
        "Its author or an administrator (403 otherwise). Every field is replaced: what the `exercise` part leaves out is cleared. A new `file` replaces the image and gives `imageUrl` a new `?v=` version; without one the image stays.",
      auth: "required",
      scope: "content:write",
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
      description: "Its author or an administrator (403 otherwise); its image goes with it. 409 `Exercício está em uso em treinos` while a training holds it.",
      auth: "required",
      scope: "content:write",
      success: 204,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await exercises.delete(actor, idParam(req));
      res.status(204).end();
    },
  );
}
