import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { filterId, optionalFlag, queryBoolean, requiredText } from "../../platform/validation.js";
import { EXERCISE_SORTS } from "./exercise.repository.js";
import { EXERCISE_CATEGORIES } from "../../tables/exercise.table.js";
import { difficulty, equipment, exerciseCategory } from "./exercise.dto.js";

export const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: "URL inválida (use http ou https)" }))
  .meta({ format: "uri" });

/** An exercise as its author creates or replaces it (a replacement gives every field). */
export const exerciseInput = z
  .object({
    name: requiredText(120).describe("Its name (1 to 120 characters), unique to its author"),
    description: requiredText(2000).describe("How it is done (1 to 2000 characters)"),
    category: exerciseCategory.schema.describe("The body part it trains most"),
    // Optional fields take null as "not given" (the GraphQL ExerciseInput declares them nullable).
    isPublic: optionalFlag.describe("true: every user sees it; false (the default): its author and the author's students only"),
    difficulty: difficulty.schema.nullish().describe("How hard it is"),
    equipment: equipment.schema.nullish().describe("What it is done with"),
    videoUrl: httpUrl.nullish().describe("A video showing it: an http or https address of at most 2048 characters"),
    instructions: z
      .array(z.string().trim().min(1, "Campo obrigatório").max(500))
      .max(50)
      .nullish()
      .transform((value) => value ?? [])
      .describe("Its steps, in order: at most 50, each 1 to 500 characters"),
    muscleGroups: z
      .array(exerciseCategory.schema)
      .max(EXERCISE_CATEGORIES.length)
      .refine((groups) => new Set(groups).size === groups.length, "Grupos musculares repetidos")
      .nullish()
      .transform((value) => value ?? [])
      .describe("Every body part it works, each once"),
  })
  .describe("An exercise as its author writes it; a replacement (PUT) gives every field, what it leaves out is cleared");
export type ExerciseInput = z.output<typeof exerciseInput>;

/** Exercise listings, by name unless another order is asked. */
export const exercisePaging: Paging = { sortable: Object.keys(EXERCISE_SORTS), fallbackSort: [{ field: "name", direction: "asc" }] };

/** What a listing of the exercises visible to a caller is narrowed by. */
export const exerciseFilter = z
  .object({
    category: exerciseCategory.schema.optional().describe("Only this category"),
    name: z.string().trim().max(120).optional().describe("Only names holding this text (case-insensitive)"),
    createdBy: filterId.optional().describe("Only this author's"),
    isPublic: queryBoolean.optional().describe("Only public (true) or only private (false) ones"),
    difficulty: difficulty.schema.optional().describe("Only this difficulty"),
    equipment: equipment.schema.optional().describe("Only this equipment"),
  })
  .describe("What narrows a listing of the exercises the caller sees; fields left out do not narrow it");
export type ExerciseListQuery = ListQuery<z.output<typeof exerciseFilter>>;
