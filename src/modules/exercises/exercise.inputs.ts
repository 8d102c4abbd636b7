import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { filterId, optionalFlag, queryBoolean, requiredText } from "../../platform/validation.js";
import { EXERCISE_SORTS } from "./exercise.repository.js";
import { DIFFICULTIES, EQUIPMENT, EXERCISE_CATEGORIES } from "../../tables/exercise.table.js";

export const httpUrl = z
  .string()
  .trim()
  .max(2048)
  .pipe(z.url({ protocol: /^https?$/, error: "URL inválida (use http ou https)" }));

/** An exercise as its author creates or replaces it (a replacement gives every field). */
export const exerciseInput = z.object({
  name: requiredText(120),
  description: requiredText(2000),
  category: z.enum(EXERCISE_CATEGORIES),
  // Optional fields take null as "not given" (the GraphQL ExerciseInput declares them nullable).
  isPublic: optionalFlag,
  difficulty: z.enum(DIFFICULTIES).nullish(),
  equipment: z.enum(EQUIPMENT).nullish(),
  videoUrl: httpUrl.nullish(),
  instructions: z
    .array(z.string().trim().min(1, "Campo obrigatório").max(500))
    .max(50)
    .nullish()
    .transform((value) => value ?? []),
  muscleGroups: z
    .array(z.enum(EXERCISE_CATEGORIES))
    .max(EXERCISE_CATEGORIES.length)
    .refine((groups) => new Set(groups).size === groups.length, "Grupos musculares repetidos")
    .nullish()
    .transform((value) => value ?? []),
});
export type ExerciseInput = z.output<typeof exerciseInput>;

/** Exercise listings, by name unless another order is asked. */
export const exercisePaging: Paging = { sortable: Object.keys(EXERCISE_SORTS), fallbackSort: [{ field: "name", direction: "asc" }] };

/** What a listing of the exercises visible to a caller is narrowed by. */
export const exerciseFilter = z.object({
  category: z.enum(EXERCISE_CATEGORIES).optional(),
  name: z.string().trim().max(120).optional(),
  createdBy: filterId.optional(),
  isPublic: queryBoolean.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  equipment: z.enum(EQUIPMENT).optional(),
});
export type ExerciseListQuery = ListQuery<z.output<typeof exerciseFilter>>;
