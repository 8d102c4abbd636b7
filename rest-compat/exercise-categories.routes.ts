import { z } from "zod";
import { exerciseCategory } from "../src/modules/exercises/exercise.dto.js";
import type { Services } from "../src/services.js";
import { EXERCISES } from "./exercises.routes.js";
import type { DocumentedRouter } from "./routes.js";

/** The exercise categories (api-spec.md, contract §4). Registered before /exercises/:id. */
export function addExerciseCategoryRoutes(routes: DocumentedRouter, services: Services): void {
  const { exercises } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/categories",
      operationId: "listExerciseCategories",
      response: z.array(exerciseCategory.schema),
      errors: { 400: "JSON inválido (a body sent along that does not parse)" },
      tag: EXERCISES,
      summary: "The ten categories, in order",
      description: "No token needed. The ten `ExerciseCategory` values, always in the same order (the apps show them so).",
      auth: "none",
      success: 200,
    },
    async (_req, res) => {
      res.json(exercises.listCategories());
    },
  );
}
