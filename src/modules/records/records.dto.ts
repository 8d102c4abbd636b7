import type { RecordRow } from "./records.repository.js";
import { RECORD_KINDS, type RecordKind } from "./records.table.js";
import { unitOf } from "./records.values.js";

/** A record of contract §12.1: what was set, by which execution and set, and the best it beat. */
export interface RecordDto {
  exerciseId: number;
  exerciseName: string;
  kind: RecordKind;
  value: number;
  unit: "kg" | "reps";
  reps: number | null;
  weight: number | null;
  achievedAt: Date;
  exerciseExecutionId: number;
  trainingExecutionId: number | null;
  setIndex: number | null;
  previousValue: number | null;
}

/** A record a logging call just set, as its answer lists it. */
export interface NewRecordDto {
  exerciseId: number;
  kind: RecordKind;
  value: number;
  unit: "kg" | "reps";
  previousValue: number | null;
}

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
