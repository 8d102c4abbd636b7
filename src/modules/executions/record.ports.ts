import type { Db } from "../../platform/db/database.js";
import type { NewRecordDto, PersonalRecordDto } from "./execution.dto.js";

/*
 * What executions need of the records module, which sits above them (contract §12): declared here, implemented by
 * RecordService and wired by the composition root (src/services.ts), so that executions never import records.
 */

/** A set as logged: weight in kg. */
export interface LoggedSet {
  repetitions: number;
  weight?: number | null;
  completed: boolean;
}

/** An exercise execution just logged, with its sets as sent. */
export interface LoggedExercise {
  execution: {
    id: number;
    userId: number;
    exerciseId: number | null;
    exerciseName: string;
    trainingExecutionId: number | null;
    executedAt: Date;
    createdAt: Date;
  };
  sets: readonly LoggedSet[];
}

/** The record kinds a log sets (contract §12.1), as its answer lists them. */
export interface RecordClaims {
  /**
   * Claims the records the executions of one log set, inside its transaction `tx`, which holds the user's executions
   * lock: for each execution in the order given, the records it set.
   */
  claim(tx: Db, logged: readonly LoggedExercise[]): Promise<NewRecordDto[][]>;
  /** The records these exercise executions set when they were logged, as their logging answer listed them. */
  setByExecutions(exerciseExecutionIds: readonly number[]): Promise<NewRecordDto[]>;
}

/** The legacy personal record of contract §7, which the progress and metrics answers carry. */
export interface PersonalRecordsReader {
  /** A user's personal record on each exercise (or on one), by exercise name then id, at most `limit` (no access check). */
  personalRecordsOf(userId: number, only?: { exerciseId?: number; limit?: number }): Promise<PersonalRecordDto[]>;
  /** The first `limit` of them, without their exercise ids, as the JSON text of an array (the metrics' text). */
  personalRecordsText(userId: number, limit: number): Promise<string>;
}
