import type { RecordRow } from "./records.repository.js";
import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { RECORD_KINDS } from "../../tables/records.table.js";
import { unitOf } from "./records.values.js";
import { recordUnit } from "../executions/execution.dto.js";

/** A record of contract §12.1: what was set, by which execution and set, and the best it beat. */
export const recordSchema = z
  .object({
    exerciseId: int(),
    exerciseName: z.string(),
    kind: z.enum(RECORD_KINDS),
    value: z.number(),
    unit: recordUnit,
    reps: int().nullable(),
    weight: z.number().nullable(),
    achievedAt: instant,
    exerciseExecutionId: int(),
    trainingExecutionId: int().nullable(),
    setIndex: int().nullable(),
    previousValue: z.number().nullable(),
  })
  .meta({ id: "Record" });
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
