import { z } from "zod";
import { entityId, isoDate, isoInstant, optionalText, queryBoolean, queryId } from "../../platform/validation.js";
import { kilograms } from "../trainings/training.inputs.js";

const MAX_DURATION_SECONDS = 86_400;

export const setInput = z.object({
  repetitions: z.number().int().min(0).max(10_000),
  weight: kilograms.nullish(),
  completed: z.boolean(),
});
export type SetInput = z.infer<typeof setInput>;

const sets = z.array(setInput).min(1, "Informe ao menos uma série").max(100);
/** POST /trainings/{id}/execution. */
export const trainingExecutionInput = z
  .object({
    startTime: isoInstant,
    endTime: isoInstant,
    notes: optionalText(2000),
    completed: z.boolean(),
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
export type TrainingExecutionInput = z.infer<typeof trainingExecutionInput>;

/** POST /exercises/{id}/execution. */
export const exerciseExecutionInput = z.object({
  trainingId: entityId,
  sets,
  notes: optionalText(2000),
  duration: z.number().int().min(0).max(MAX_DURATION_SECONDS).nullish(),
});

export const PROGRESS_INTERVALS = ["DAY", "WEEK", "MONTH"] as const;

const dateRange = { startDate: isoDate.optional(), endDate: isoDate.optional() };

export const trainingExecutionFilter = z.object({ userId: queryId.optional(), completed: queryBoolean.optional(), ...dateRange });
export const userTrainingExecutionFilter = z.object({ trainingId: queryId.optional(), completed: queryBoolean.optional(), ...dateRange });
export const exerciseExecutionFilter = z.object({ userId: queryId.optional(), ...dateRange });
export const userExerciseExecutionFilter = z.object({ exerciseId: queryId.optional(), ...dateRange });
export const statisticsFilter = z.object({ userId: queryId.optional(), ...dateRange });
export const progressFilter = z.object({ userId: queryId.optional(), interval: z.enum(PROGRESS_INTERVALS).default("DAY"), ...dateRange });
