import type { executionSets } from "../../tables/execution.table.js";
import type { ExerciseExecutionRow } from "./execution.repository.js";
import type { SetInput } from "./execution.inputs.js";
import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { hundredthsText, toHundredths } from "../../platform/hundredths.js";
import { RECORD_KINDS } from "../../tables/records.table.js";

/** What a record's value counts (contract §12.1): kg, or repetitions for MAX_REPS. */
export const recordUnit = z.enum(["kg", "reps"]);

/** A record a logging call just set (contract §12.1), as its answer lists it. */
export const newRecordSchema = z
  .object({ exerciseId: int(), kind: z.enum(RECORD_KINDS), value: z.number(), unit: recordUnit, previousValue: z.number().nullable() })
  .meta({ id: "NewRecord" });
export type NewRecordDto = z.output<typeof newRecordSchema>;

export const setSchema = z.object({ repetitions: int(), weight: z.number().nullable().describe("kg"), completed: z.boolean() }).meta({ id: "ExecutionSet" });
export type SetDto = z.output<typeof setSchema>;

/** A training execution in listings. */
export const trainingExecutionSummarySchema = z
  .object({
    id: int(),
    trainingId: int().nullable(),
    trainingName: z.string().optional(),
    userId: int(),
    startTime: instant,
    endTime: instant,
    duration: int().describe("seconds"),
    completed: z.boolean(),
    notes: z.string().nullable(),
    clientId: z.string().nullable().describe("the client's id of the log (contract §13.2), null when it gave none"),
  })
  .meta({ id: "TrainingExecutionSummary" });
export type TrainingExecutionSummaryDto = z.output<typeof trainingExecutionSummarySchema>;

/** A training execution with its exercises and sets (GET /trainings/executions/{id}, the logging answer). */
export const trainingExecutionSchema = trainingExecutionSummarySchema
  .extend({
    userName: z.string(),
    exerciseExecutions: z.array(
      z.object({ id: int(), exerciseId: int().nullable(), exerciseName: z.string(), personalRecord: z.boolean(), sets: z.array(setSchema) }),
    ),
    newRecords: z.array(newRecordSchema).optional().describe("the records the log set: in the logging answer only"),
  })
  .meta({ id: "TrainingExecution" });
export type TrainingExecutionDto = z.output<typeof trainingExecutionSchema>;

/** An exercise execution; exerciseName and trainingName in the listings by user. */
export const exerciseExecutionSchema = z
  .object({
    id: int(),
    exerciseId: int().nullable(),
    exerciseName: z.string().optional(),
    userId: int(),
    trainingId: int().nullable(),
    trainingName: z.string().nullable().optional(),
    sets: z.array(setSchema),
    notes: z.string().nullable(),
    executedAt: instant,
    duration: int().nullable().describe("seconds"),
    personalRecord: z.boolean(),
    clientId: z
      .string()
      .nullable()
      .describe("the client's id of a log on its own (contract §13.2), null when it gave none (always, inside a training execution)"),
    newRecords: z.array(newRecordSchema).optional().describe("the records the log set: in the logging answer only"),
  })
  .meta({ id: "ExerciseExecution" });
export type ExerciseExecutionDto = z.output<typeof exerciseExecutionSchema>;

const personalRecordFields = { value: z.number(), unit: z.literal("kg"), date: instant, estimatedOneRepMax: z.number().nullable() };

/** The legacy personal record of an exercise: its heaviest completed set. */
export const personalRecordSchema = z.object({ exerciseId: int(), exerciseName: z.string(), ...personalRecordFields }).meta({ id: "PersonalRecord" });
export type PersonalRecordDto = z.output<typeof personalRecordSchema>;

/** GET /trainings/{id}/statistics. */
export const trainingStatisticsSchema = z
  .object({
    trainingId: int(),
    trainingName: z.string(),
    totalExecutions: int(),
    completedExecutions: int(),
    averageDuration: z.number(),
    totalVolume: z.number(),
    exerciseStatistics: z.array(
      z.object({
        exerciseId: int().nullable(),
        exerciseName: z.string(),
        totalSets: int(),
        totalReps: int(),
        maxWeight: z.number().nullable(),
        averageWeight: z.number().nullable(),
        totalVolume: z.number(),
      }),
    ),
    progressData: z.array(z.object({ date: day, totalVolume: z.number(), duration: z.number() })),
  })
  .meta({ id: "TrainingStatistics" });
export type TrainingStatisticsDto = z.output<typeof trainingStatisticsSchema>;
export type TrainingStatisticsFigures = Omit<TrainingStatisticsDto, "trainingId" | "trainingName">;

/** GET /exercises/{id}/progress. */
export const exerciseProgressSchema = z
  .object({
    exerciseId: int(),
    exerciseName: z.string(),
    progressData: z.array(
      z.object({
        date: day,
        maxWeight: z.number().nullable(),
        totalVolume: z.number(),
        totalSets: int(),
        totalReps: int(),
        estimatedOneRepMax: z.number().nullable(),
      }),
    ),
    personalRecord: z.object(personalRecordFields).nullable(),
  })
  .meta({ id: "ExerciseProgress" });
export type ExerciseProgressDto = z.output<typeof exerciseProgressSchema>;

/** GET /users/metrics. */
export const userMetricsSchema = z
  .object({
    userId: int(),
    totalTrainings: int(),
    completedTrainings: int(),
    totalExercises: int(),
    totalTime: z.number(),
    weeklyProgress: z.array(z.object({ date: day, trainingsCount: int(), totalTime: z.number() })),
    weightHistory: z.array(z.object({ date: instant, value: z.number() })),
    personalRecords: z.array(z.object({ exerciseName: z.string(), ...personalRecordFields })),
  })
  .meta({ id: "UserMetrics" });
export type UserMetricsDto = z.output<typeof userMetricsSchema>;

/** A logging answer: the execution, and whether this call wrote it (false: its client id was logged before, contract §13.2). */
export interface Logged<T> {
  execution: T;
  created: boolean;
}

export const toSetDto = (set: typeof executionSets.$inferSelect): SetDto => ({
  repetitions: set.repetitions,
  weight: set.weight === null ? null : Number(set.weight),
  completed: set.completed,
});

export function toExerciseExecutionDto(row: ExerciseExecutionRow, sets: (typeof executionSets.$inferSelect)[], shape: "short" | "named"): ExerciseExecutionDto {
  return {
    id: row.id,
    exerciseId: row.exerciseId,
    ...(shape === "named" ? { exerciseName: row.exerciseName } : {}),
    userId: row.userId,
    trainingId: row.trainingId,
    ...(shape === "named" ? { trainingName: row.trainingName } : {}),
    sets: sets.map(toSetDto),
    notes: row.notes,
    executedAt: row.executedAt,
    duration: row.durationSeconds,
    personalRecord: row.personalRecord,
    clientId: row.clientId,
  };
}

/** Epley estimates from more repetitions are unreliable (contract §7): such sets give none. */
const MAX_ESTIMATE_REPS = 12;

/**
 * The Epley one-rep-max estimate w × (1 + r/30) of a set, in hundredths (of a kilogram) rounded half up; one
 * repetition gives the weight itself, and sets of no or more than 12 repetitions give none (contract §7).
 */
export function estimatedOneRepMax(weight: number, repetitions: number): number | null {
  if (repetitions < 1 || repetitions > MAX_ESTIMATE_REPS) return null;
  if (repetitions === 1) return weight;
  // w × (30 + r) / 30, rounded half up: ⌊(2w(30 + r) + 30) / 60⌋
  return Math.floor((weight * (30 + repetitions) * 2 + 30) / 60);
}

/**
 * The figures of one execution's completed sets, in exact decimal text: weights are taken as integer
 * hundredths of a kilogram, so no float sum ever drifts.
 */
export function setAggregates(sets: SetInput[]) {
  let completedSets = 0;
  let totalReps = 0;
  let volume = 0n;
  let weightSum = 0n;
  let weightedSets = 0;
  let maxWeight: bigint | null = null;
  let bestOneRepMax: number | null = null; // hundredths
  for (const set of sets) {
    if (!set.completed) continue;
    completedSets += 1;
    totalReps += set.repetitions;
    if (set.weight === null || set.weight === undefined) continue;
    const weight = BigInt(toHundredths(set.weight));
    volume += weight * BigInt(set.repetitions);
    weightSum += weight;
    weightedSets += 1;
    if (maxWeight === null || weight > maxWeight) maxWeight = weight;
    const estimate = estimatedOneRepMax(Number(weight), set.repetitions);
    if (estimate !== null && (bestOneRepMax === null || estimate > bestOneRepMax)) bestOneRepMax = estimate;
  }
  return {
    completedSets,
    totalReps,
    volume: hundredthsText(volume),
    maxWeight: maxWeight === null ? null : hundredthsText(maxWeight),
    weightSum: hundredthsText(weightSum),
    weightedSets,
    bestOneRepMax: bestOneRepMax === null ? null : hundredthsText(bestOneRepMax),
  };
}
