import type { RecordRow } from "./records.repository.js";
import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { RECORD_KINDS } from "../../tables/records.table.js";
import { unitOf } from "./records.values.js";
import { recordKind, recordUnit } from "../executions/execution.dto.js";

/** A record of contract §12.1: what was set, by which execution and set, and the best it beat. */
export const recordSchema = z
  .object({
    exerciseId: int().describe("The exercise's id"),
    exerciseName: z.string().describe("The exercise's name"),
    kind: recordKind.schema.describe("What the record measures"),
    value: z.number().describe("The best it set, in its unit (2 decimals)"),
    unit: recordUnit.schema.describe("What value counts: reps for MAX_REPS, kg otherwise"),
    reps: int().nullable().describe("The repetitions of the set that made it; null for BEST_SESSION_VOLUME, which no single set makes"),
    weight: z.number().nullable().describe("The weight of that set, in kg; null for BEST_SESSION_VOLUME and for a set without weight"),
    achievedAt: instant.describe("When the exercise execution that made it was done (its executedAt)"),
    exerciseExecutionId: int().describe("The id of the exercise execution that made it"),
    trainingExecutionId: int().nullable().describe("The id of the training execution that exercise execution is part of; null for one logged on its own"),
    setIndex: int().nullable().describe("The set's position in the exercise execution, from 0; null for BEST_SESSION_VOLUME"),
    previousValue: z.number().nullable().describe("The best it beat, in the same unit; null for the user's first record of this kind on the exercise"),
  })
  .meta({
    id: "Record",
    description: "A record a user set on an exercise: the set (or session) that made it, and the best it beat",
    examples: [
      {
        exerciseId: 12,
        exerciseName: "Supino reto",
        kind: "ESTIMATED_1RM",
        value: 79.17,
        unit: "kg",
        reps: 8,
        weight: 62.5,
        achievedAt: "2025-03-07T22:05:00.000Z",
        exerciseExecutionId: 345,
        trainingExecutionId: 120,
        setIndex: 1,
        previousValue: 77.33,
      },
    ],
  });
export type RecordDto = z.output<typeof recordSchema>;

const decimal = (text: string | null) => (text === null ? null : Number(text));

export function toRecordDto(row: RecordRow): RecordDto {
  return {
    exerciseId: row.exerciseId,
    exerciseName: row.exerciseName,
    kind: row.kind,
    value: Number(row.value),
    unit: unitOf(row.kind),
    reps: row.reps,
    weight: decimal(row.weight),
    achievedAt: row.achievedAt,
    exerciseExecutionId: row.exerciseExecutionId,
    trainingExecutionId: row.trainingExecutionId,
    setIndex: row.setIndex,
    previousValue: decimal(row.previousValue),
  };
}

/** Current records listed by exercise name (then id), each exercise's kinds in the order of RECORD_KINDS. */
export function byExerciseAndKind(a: RecordDto, b: RecordDto): number {
  return a.exerciseName.localeCompare(b.exerciseName) || a.exerciseId - b.exerciseId || RECORD_KINDS.indexOf(a.kind) - RECORD_KINDS.indexOf(b.kind);
}
