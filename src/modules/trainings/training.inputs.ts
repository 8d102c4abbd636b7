import { z } from "zod";
import { hasAtMostTwoDecimals } from "../../platform/hundredths.js";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, optionalFlag, optionalText, queryBoolean, requiredText } from "../../platform/validation.js";
import { TRAINING_SORTS } from "./training.repository.js";

/** A weight in kg, 0…2000 with at most two decimals: the columns keep two, so more would come back silently rounded. */
export const kilograms = z.number().min(0).max(2000).refine(hasAtMostTwoDecimals, "No máximo 2 casas decimais");

const trainingExerciseInput = z.object({
  exerciseId: entityId,
  sets: z.number().int().min(1).max(50),
  repetitions: z.number().int().min(0).max(10_000).nullish(),
  weight: kilograms.nullish(),
  restSeconds: z.number().int().min(0).max(86_400).nullish(),
  order: z.number().int().min(0).max(1000).nullish(),
  notes: optionalText(2000),
});

/** A training as its author creates or replaces it (contract §4). */
export const trainingInput = z.object({
  name: requiredText(120),
  description: optionalText(2000),
  isPublic: optionalFlag,
  exercises: z.array(trainingExerciseInput).min(1, "Informe ao menos um exercício").max(100),
});
export type TrainingInput = z.output<typeof trainingInput>;

/** Training listings, newest first unless another order is asked. */
export const trainingPaging: Paging = { sortable: Object.keys(TRAINING_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };

/** What a listing of the trainings visible to a user is narrowed by. */
export const trainingFilter = z.object({
  name: z.string().trim().max(120).optional(),
  createdBy: filterId.optional(),
  isPublic: queryBoolean.optional(),
});
export type TrainingListQuery = ListQuery<z.output<typeof trainingFilter>>;
