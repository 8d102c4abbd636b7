import { z } from "zod";
import { hasAtMostTwoDecimals } from "../../platform/hundredths.js";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, optionalFlag, optionalText, queryBoolean, requiredText } from "../../platform/validation.js";
import { TRAINING_SORTS } from "./training.repository.js";

/** A weight in kg, 0…2000 with at most two decimals: the columns keep two, so more would come back silently rounded. */
export const kilograms = z.number().min(0).max(2000).refine(hasAtMostTwoDecimals, "No máximo 2 casas decimais");

/** An exercise line of a training, as its author writes it. */
export const trainingExerciseInput = z
  .object({
    exerciseId: entityId.describe("The exercise: one the caller may see, else 404"),
    sets: z.number().int().min(1).max(50).describe("How many sets (1 to 50)"),
    repetitions: z.number().int().min(0).max(10_000).nullish().describe("Repetitions per set (0 to 10000)"),
    weight: kilograms.nullish().describe("The weight to lift, in kg: 0 to 2000, at most two decimals"),
    restSeconds: z.number().int().min(0).max(86_400).nullish().describe("The rest between sets, in seconds (0 to 86400)"),
    order: z.number().int().min(0).max(1000).nullish().describe("The author's own ordering number (0 to 1000); lines keep the order they are sent in"),
    notes: optionalText(2000).describe("Notes on this line (at most 2000 characters; blank is none)"),
  })
  .describe("An exercise line of a training");

/** A training as its author creates or replaces it (contract §4). */
export const trainingInput = z
  .object({
    name: requiredText(120).describe("Its name (1 to 120 characters)"),
    description: optionalText(2000).describe("What it is about (at most 2000 characters; blank is none)"),
    isPublic: optionalFlag.describe("true: every user sees it (trainers only: 403 for a student); false (the default): private"),
    exercises: z
      .array(trainingExerciseInput)
      .min(1, "Informe ao menos um exercício")
      .max(100)
      .describe("Its exercise lines: 1 to 100, kept in the order given"),
  })
  .describe("A training as its author writes it; a replacement (PUT) gives every field, what it leaves out is cleared");
export type TrainingInput = z.output<typeof trainingInput>;

/** Training listings, newest first unless another order is asked. */
export const trainingPaging: Paging = { sortable: Object.keys(TRAINING_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };

/** What a listing of the trainings visible to a user is narrowed by. */
export const trainingFilter = z
  .object({
    name: z.string().trim().max(120).optional().describe("Only names holding this text (case-insensitive)"),
    createdBy: filterId.optional().describe("Only this author's"),
    isPublic: queryBoolean.optional().describe("Only public (true) or only private (false) ones"),
  })
  .describe("What narrows a listing of the trainings the caller sees; fields left out do not narrow it");
export type TrainingListQuery = ListQuery<z.output<typeof trainingFilter>>;
