import type { executionSets } from "../../tables/execution.table.js";
import type { ExerciseExecutionRow } from "./execution.repository.js";
import type { SetInput } from "./execution.inputs.js";
import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { enumeration } from "../../platform/enumeration.js";
import { hundredthsText, toHundredths } from "../../platform/hundredths.js";
import { RECORD_KINDS } from "../../tables/records.table.js";

/** The record kinds of contract §12.1: per user and exercise, over completed sets. */
export const recordKind = enumeration(RECORD_KINDS, {
  name: "RecordKind",
  description:
    "What a record measures (contract §12.1): per user and exercise, over completed sets only; a record is set only by strictly beating the previous best of its kind (a tie sets none)",
  meanings: {
    MAX_WEIGHT: "The heaviest weight of one set, in kg (the personal record)",
    ESTIMATED_1RM: "The highest Epley one-rep-max estimate w × (1 + r/30) of one weighted set of 1 to 12 repetitions, in kg",
    BEST_SET_VOLUME: "The most weight × repetitions in one set, in kg",
    BEST_SESSION_VOLUME: "The most weight × repetitions summed over the sets of one exercise execution, in kg",
    MAX_REPS: "The most repetitions in one set, weighted or not (bodyweight work counts), in reps",
    REP_MAX_3: "The heaviest weight lifted for at least 3 repetitions in one set, in kg",
    REP_MAX_5: "The heaviest weight lifted for at least 5 repetitions in one set, in kg",
    REP_MAX_10: "The heaviest weight lifted for at least 10 repetitions in one set, in kg",
  },
});

/** What a record's value counts (contract §12.1): kg, or repetitions for MAX_REPS. */
export const recordUnit = enumeration(["kg", "reps"], {
  name: "RecordUnit",
  description: "What a record's value counts: reps for MAX_REPS, kg for every other kind",
  meanings: { kg: "Kilograms (for a volume, kilograms × repetitions)", reps: "Repetitions" },
});

/** A record a logging call just set (contract §12.1), as its answer lists it. */
export const newRecordSchema = z
  .object({
    exerciseId: int().describe("The exercise's id"),
    kind: recordKind.schema.describe("What the record measures"),
    value: z.number().describe("The new best, in its unit"),
    unit: recordUnit.schema.describe("What value counts: reps for MAX_REPS, kg otherwise"),
    previousValue: z.number().nullable().describe("The best it beat, in the same unit; null for the user's first record of this kind on the exercise"),
  })
  .meta({ id: "NewRecord", description: "A record a logged execution just set" });
export type NewRecordDto = z.output<typeof newRecordSchema>;

export const setSchema = z
  .object({
    repetitions: int().describe("Repetitions done"),
    weight: z.number().nullable().describe("The weight lifted, in kg; null for a set without weight (bodyweight)"),
    completed: z.boolean().describe("Whether the set was completed: only completed sets count in statistics, progress and records"),
  })
  .meta({ id: "ExecutionSet", description: "A set as it was logged" });
export type SetDto = z.output<typeof setSchema>;

const newRecords = z
  .array(newRecordSchema)
  .optional()
  .describe("The records the log set: given with the answer of the call that logged it (and its webhook event), left out elsewhere");

/** A training execution in listings. */
export const trainingExecutionSummarySchema = z
  .object({
    id: int().describe("The training execution's id"),
    trainingId: int().nullable().describe("The training's id; null once the training is deleted"),
    trainingName: z.string().optional().describe("The training's name as logged; left out of the listing of one training's executions"),
    userId: int().describe("The id of the user who did it"),
    startTime: instant.describe("When the session started: the instant that dates it"),
    endTime: instant.describe("When it ended: its exercise executions are dated at this instant"),
    duration: int().describe("endTime − startTime, in seconds"),
    completed: z.boolean().describe("Whether the user finished the session, as logged"),
    notes: z.string().nullable().describe("The user's notes on the session; null when none"),
    clientId: z.string().nullable().describe("The UUID the client gave the log (contract §13.2), in lower case; null when it gave none"),
  })
  .meta({ id: "TrainingExecutionSummary", description: "A logged session of a training, as listings show it: without its exercises and sets" });
export type TrainingExecutionSummaryDto = z.output<typeof trainingExecutionSummarySchema>;

/** An exercise of a training execution, with its sets. */
export const trainingExerciseExecutionSchema = z
  .object({
    id: int().describe("Its exercise execution's id"),
    exerciseId: int().nullable().describe("The exercise's id; null once the exercise is deleted"),
    exerciseName: z.string().describe("The exercise's name as logged"),
    personalRecord: z.boolean().describe("Whether it set a personal record: a completed set heavier than any earlier one of the user on this exercise"),
    sets: z.array(setSchema).describe("Its sets, in the order logged"),
  })
  .describe("An exercise done in a training execution (each is also an exercise execution, dated at the session's endTime)");

/** A training execution with its exercises and sets (GET /trainings/executions/{id}, the logging answer). */
export const trainingExecutionSchema = trainingExecutionSummarySchema
  .extend({
    userName: z.string().describe("The user's name"),
    exerciseExecutions: z.array(trainingExerciseExecutionSchema).describe("The exercises done, in the order logged"),
    newRecords,
  })
  .meta({
    id: "TrainingExecution",
    description: "A logged session of a training, with its exercises and their sets",
    examples: [
      {
        id: 120,
        trainingId: 7,
        trainingName: "Treino A: peito e tríceps",
        userId: 42,
        startTime: "2025-03-07T21:00:00.000Z",
        endTime: "2025-03-07T22:05:00.000Z",
        duration: 3900,
        completed: true,
        notes: "Última série pesada",
        clientId: "3f6c2a1e-8b7d-4c9a-9e21-5d0b7a4c1f88",
        userName: "Ana Souza",
        exerciseExecutions: [
          {
            id: 345,
            exerciseId: 12,
            exerciseName: "Supino reto",
            personalRecord: true,
            sets: [
              { repetitions: 10, weight: 60, completed: true },
              { repetitions: 8, weight: 62.5, completed: true },
            ],
          },
        ],
        newRecords: [
          { exerciseId: 12, kind: "MAX_WEIGHT", value: 62.5, unit: "kg", previousValue: 60 },
          { exerciseId: 12, kind: "ESTIMATED_1RM", value: 80, unit: "kg", previousValue: 77.33 },
        ],
      },
    ],
  });
export type TrainingExecutionDto = z.output<typeof trainingExecutionSchema>;

/** An exercise execution; exerciseName and trainingName in the listings by user. */
export const exerciseExecutionSchema = z
  .object({
    id: int().describe("The exercise execution's id"),
    exerciseId: int().nullable().describe("The exercise's id; null once the exercise is deleted"),
    exerciseName: z.string().optional().describe("The exercise's name as logged; left out of the listing by exercise and of the logging answer"),
    userId: int().describe("The id of the user who did it"),
    trainingId: int().nullable().describe("The id of the training it was done in; null once that training is deleted"),
    trainingName: z.string().nullable().optional().describe("That training's name as logged; left out of the listing by exercise and of the logging answer"),
    sets: z.array(setSchema).describe("Its sets, in the order logged"),
    notes: z.string().nullable().describe("The user's notes; null when none"),
    executedAt: instant.describe("When it was done, which dates it: the time it was logged on its own, or its training execution's endTime"),
    duration: int().nullable().describe("How long it took, in seconds, as logged on its own; null when not given (always, in a training execution)"),
    personalRecord: z.boolean().describe("Whether it set a personal record: a completed set heavier than any earlier one of the user on this exercise"),
    clientId: z
      .string()
      .nullable()
      .describe("The UUID the client gave a log on its own (contract §13.2), in lower case; null when it gave none (always, in a training execution)"),
    newRecords,
  })
  .meta({ id: "ExerciseExecution", description: "An exercise done by a user: logged on its own, or as part of a training execution" });
export type ExerciseExecutionDto = z.output<typeof exerciseExecutionSchema>;

const personalRecordFields = {
  value: z.number().describe("The heaviest weight of a completed set, in kg"),
  unit: z.literal("kg").describe("Always kg"),
  date: instant.describe("When the execution that first lifted that weight was done"),
  estimatedOneRepMax: z
    .number()
    .nullable()
    .describe("The highest Epley estimate w × (1 + r/30) of a completed weighted set of 1 to 12 repetitions, in kg; null when no set qualifies"),
};

/** The heaviest completed set of an exercise, without naming the exercise (a progress's). */
export const recordValueSchema = z.object(personalRecordFields).describe("A user's personal record on an exercise: the heaviest weight of a completed set");

/** The legacy personal record of an exercise: its heaviest completed set. */
export const personalRecordSchema = z
  .object({ exerciseId: int().describe("The exercise's id"), exerciseName: z.string().describe("The exercise's name"), ...personalRecordFields })
  .meta({ id: "PersonalRecord", description: "A user's personal record on an exercise: the heaviest weight of a completed set (the MAX_WEIGHT record)" });
export type PersonalRecordDto = z.output<typeof personalRecordSchema>;

/** One exercise's figures in a training's statistics. */
export const exerciseStatisticsSchema = z
  .object({
    exerciseId: int().nullable().describe("The exercise's id; null once the exercise is deleted"),
    exerciseName: z.string().describe("The exercise's name as logged"),
    totalSets: int().describe("Completed sets"),
    totalReps: int().describe("Repetitions of the completed sets"),
    maxWeight: z.number().nullable().describe("The heaviest weight of a completed set, in kg; null when none had a weight"),
    averageWeight: z.number().nullable().describe("The mean weight of the completed sets that have one, in kg (2 decimals); null when none has"),
    totalVolume: z.number().describe("Σ repetitions × weight of the completed sets, in kg (a set without weight counts 0)"),
  })
  .describe("One exercise's figures over the training's executions (completed sets only)");

/** A day of a training's statistics. */
export const trainingProgressPointSchema = z
  .object({
    date: day.describe("The UTC day (YYYY-MM-DD)"),
    totalVolume: z.number().describe("The volume of the day's executions (Σ repetitions × weight of their completed sets), in kg"),
    duration: z.number().describe("The day's execution durations summed, in seconds"),
  })
  .describe("A UTC day with executions of the training, and their sums");

/** GET /trainings/{id}/statistics. */
export const trainingStatisticsSchema = z
  .object({
    trainingId: int().describe("The training's id"),
    trainingName: z.string().describe("The training's name"),
    totalExecutions: int().describe("The user's executions of the training in the range"),
    completedExecutions: int().describe("Of them, those marked completed"),
    averageDuration: z.number().describe("Their mean duration, in seconds (2 decimals); 0 when there are none"),
    totalVolume: z.number().describe("Σ repetitions × weight of their completed sets, in kg (a set without weight counts 0)"),
    exerciseStatistics: z.array(exerciseStatisticsSchema).describe("The figures of each exercise done, by exercise name"),
    progressData: z.array(trainingProgressPointSchema).describe("One point per UTC day with executions, oldest first"),
  })
  .meta({
    id: "TrainingStatistics",
    description: "Figures of one user's executions of a training, dated by their startTime, over the range asked (all of them by default)",
  });
export type TrainingStatisticsDto = z.output<typeof trainingStatisticsSchema>;
export type TrainingStatisticsFigures = Omit<TrainingStatisticsDto, "trainingId" | "trainingName">;

/** A point of an exercise's progress. */
export const exerciseProgressPointSchema = z
  .object({
    date: day.describe("The first day of the point's interval (UTC): the day, the ISO week's Monday, or the month's first day"),
    maxWeight: z.number().nullable().describe("The heaviest weight of a completed set, in kg; null when none had a weight"),
    totalVolume: z.number().describe("Σ repetitions × weight of the completed sets, in kg"),
    totalSets: int().describe("Completed sets"),
    totalReps: int().describe("Repetitions of the completed sets"),
    estimatedOneRepMax: z
      .number()
      .nullable()
      .describe("The highest Epley estimate w × (1 + r/30) of a completed weighted set of 1 to 12 repetitions, in kg; null when none qualifies"),
  })
  .describe("An interval (day, week or month) with executions of the exercise, and their figures");

/** GET /exercises/{id}/progress. */
export const exerciseProgressSchema = z
  .object({
    exerciseId: int().describe("The exercise's id"),
    exerciseName: z.string().describe("The exercise's name"),
    progressData: z.array(exerciseProgressPointSchema).describe("One point per interval with executions in the range, oldest first"),
    personalRecord: recordValueSchema
      .nullable()
      .describe("The user's personal record on the exercise, whatever the range; null when no completed set had a weight"),
  })
  .meta({
    id: "ExerciseProgress",
    description: "One user's progress on an exercise: its executions (dated by executedAt) grouped by day, week or month, and the personal record",
  });
export type ExerciseProgressDto = z.output<typeof exerciseProgressSchema>;

/** A week of a user's metrics. */
export const weeklyProgressSchema = z
  .object({
    date: day.describe("The Monday of the ISO week (YYYY-MM-DD)"),
    trainingsCount: int().describe("Training executions started that week"),
    totalTime: z.number().describe("Seconds: the durations of that week's training executions and of the exercises logged on their own"),
  })
  .describe("An ISO week (Monday to Sunday, UTC) of a user's training");

/** A weight of a user's metrics. */
export const weightEntrySchema = z
  .object({
    date: instant.describe("When it was recorded"),
    value: z.number().describe("The user's body weight, in kg"),
  })
  .describe("A body weight the user recorded in their profile");

/** GET /users/metrics. */
export const userMetricsSchema = z
  .object({
    userId: int().describe("The user's id"),
    totalTrainings: int().describe("Training executions logged"),
    completedTrainings: int().describe("Of them, those marked completed"),
    totalExercises: int().describe("Exercise executions: those logged on their own and those of training executions"),
    totalTime: z.number().describe("Seconds of training: the durations of the training executions and of the exercises logged on their own"),
    weeklyProgress: z.array(weeklyProgressSchema).describe("The last 8 ISO weeks, the current one included, oldest first"),
    weightHistory: z.array(weightEntrySchema).describe("The newest 100 body weights the user recorded, oldest first"),
    personalRecords: z
      .array(z.object({ exerciseName: personalRecordSchema.shape.exerciseName, ...personalRecordFields }).describe("A personal record, naming its exercise"))
      .describe("The user's personal records, one per exercise: the first 100 by exercise name"),
  })
  .meta({ id: "UserMetrics", description: "A user's training figures over all of their history" });
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
