import type { executionSets } from "./execution.table.js";
import type { ExerciseExecutionRow } from "./execution.repository.js";
import type { SetInput } from "./execution.inputs.js";
import type { NewRecordDto } from "../records/records.dto.js";
import { estimatedOneRepMax } from "../records/records.values.js";

export interface SetDto {
  repetitions: number;
  weight: number | null;
  completed: boolean;
}

export interface TrainingExecutionSummaryDto {
  id: number;
  trainingId: number | null;
  trainingName?: string;
  userId: number;
  startTime: Date;
  endTime: Date;
  duration: number;
  completed: boolean;
  notes: string | null;
  /** The client's id of the log (contract §13.2), null when it gave none. */
  clientId: string | null;
}

export interface TrainingExecutionDto extends TrainingExecutionSummaryDto {
  userName: string;
  exerciseExecutions: { id: number; exerciseId: number | null; exerciseName: string; personalRecord: boolean; sets: SetDto[] }[];
  /** The records the log set: in the logging answer only. */
  newRecords?: NewRecordDto[];
}

export interface ExerciseExecutionDto {
  id: number;
  exerciseId: number | null;
  exerciseName?: string;
  userId: number;
  trainingId: number | null;
  trainingName?: string | null;
  sets: SetDto[];
  notes: string | null;
  executedAt: Date;
  duration: number | null;
  personalRecord: boolean;
  /** The client's id of a log on its own (contract §13.2), null when it gave none (always, inside a training execution). */
  clientId: string | null;
  /** The records the log set: in the logging answer only. */
  newRecords?: NewRecordDto[];
}

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
    const weight = BigInt(Math.round(set.weight * 100));
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
    volume: hundredths(volume),
    maxWeight: maxWeight === null ? null : hundredths(maxWeight),
    weightSum: hundredths(weightSum),
    weightedSets,
    bestOneRepMax: bestOneRepMax === null ? null : hundredths(BigInt(bestOneRepMax)),
  };
}

/** Integer hundredths as exact decimal text: 12345n → "123.45". */
export const hundredths = (value: bigint) => `${value / 100n}.${(value % 100n).toString().padStart(2, "0")}`;

/** Exact decimal text with at most 2 places → integer hundredths: "740.5" → 74050n. */
export function toHundredths(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}
