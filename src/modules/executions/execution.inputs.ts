import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, isoDate, isoInstant, optionalText, queryBoolean } from "../../platform/validation.js";
import { kilograms } from "../trainings/training.inputs.js";
import { EXERCISE_EXECUTION_SORTS, TRAINING_EXECUTION_SORTS } from "./execution-listing.repository.js";

const MAX_DURATION_SECONDS = 86_400;

export const setInput = z.object({
  repetitions: z.number().int().min(0).max(10_000),
  weight: kilograms.nullish(),
  completed: z.boolean(),
});
export type SetInput = z.output<typeof setInput>;

/**
 * The id a client gives a log before sending it (contract §13.2): a UUID (any version), kept in lower case as
 * PostgreSQL writes it back.
 */
export const clientIdField = z
  .string()
  // Both cases spelled out: the OpenAPI document's pattern carries no flag.
  .regex(/^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$/, "UUID inválido")
  .transform((value) => value.toLowerCase());

const sets = z.array(setInput).min(1, "Informe ao menos uma série").max(100);
/** A session of a training: when it ran, and the sets done of each of its exercises. */
export const trainingExecutionInput = z
  .object({
    startTime: isoInstant,
    endTime: isoInstant,
    notes: optionalText(2000),
    completed: z.boolean(),
    clientId: clientIdField.nullish(),
    exerciseExecutions: z
      .array(z.object({ exerciseId: entityId, sets, notes: optionalText(2000) }))
      .min(1, "Informe ao menos um exercício")
      .max(100),
  })
  .superRefine((value, ctx) => {
    const seconds = (Date.parse(value.endTime) - Date.parse(value.startTime)) / 1000;
    if (seconds < 0) ctx.addIssue({ code: "custom", path: ["endTime"], message: "O fim deve ser posterior ao início" });
    else if (seconds > MAX_DURATION_SECONDS) ctx.addIssue({ code: "custom", path: ["endTime"], message: "A execução pode durar no máximo 24 horas" });
  });
export type TrainingExecutionInput = z.output<typeof trainingExecutionInput>;

/** One exercise done on its own, within a training the user may execute. */
export const exerciseExecutionInput = z.object({
  trainingId: entityId,
  sets,
  notes: optionalText(2000),
  duration: z.number().int().min(0).max(MAX_DURATION_SECONDS).nullish(),
  clientId: clientIdField.nullish(),
});
export type ExerciseExecutionInput = z.output<typeof exerciseExecutionInput>;

export const PROGRESS_INTERVALS = ["DAY", "WEEK", "MONTH"] as const;

const dateRange = { startDate: isoDate.optional(), endDate: isoDate.optional() };

/** Training execution listings, latest started first unless another order is asked. */
export const trainingExecutionPaging: Paging = { sortable: Object.keys(TRAINING_EXECUTION_SORTS), fallbackSort: [{ field: "startTime", direction: "desc" }] };
/** Exercise execution listings, latest first unless another order is asked. */
export const exerciseExecutionPaging: Paging = { sortable: Object.keys(EXERCISE_EXECUTION_SORTS), fallbackSort: [{ field: "executedAt", direction: "desc" }] };

export const trainingExecutionFilter = z.object({ userId: filterId.optional(), completed: queryBoolean.optional(), ...dateRange });
export type TrainingExecutionListQuery = ListQuery<z.output<typeof trainingExecutionFilter>>;
export const userTrainingExecutionFilter = z.object({ trainingId: filterId.optional(), completed: queryBoolean.optional(), ...dateRange });
export type UserTrainingExecutionListQuery = ListQuery<z.output<typeof userTrainingExecutionFilter>>;
export const exerciseExecutionFilter = z.object({ userId: filterId.optional(), ...dateRange });
export type ExerciseExecutionListQuery = ListQuery<z.output<typeof exerciseExecutionFilter>>;
export const userExerciseExecutionFilter = z.object({ exerciseId: filterId.optional(), ...dateRange });
export type UserExerciseExecutionListQuery = ListQuery<z.output<typeof userExerciseExecutionFilter>>;
export const statisticsFilter = z.object({ userId: filterId.optional(), ...dateRange });
export type StatisticsFilter = z.output<typeof statisticsFilter>;
export const progressFilter = z.object({ userId: filterId.optional(), interval: z.enum(PROGRESS_INTERVALS).default("DAY"), ...dateRange });
export type ProgressFilter = z.output<typeof progressFilter>;
