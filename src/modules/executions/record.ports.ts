import type { Db } from "../../platform/db/database.js";
import type { NewRecordDto, PersonalRecordDto } from "./execution.dto.js";

/*
 * What executions need of the records module, which sits above them (contract §12): declared here, implemented by
 * the records module and wired by the composition root (src/services.ts), so that executions never import records.
 */

/**
 * The record kinds a log set (contract §12.1), as its answer lists them. The records module claims them as it hears
 * of the log (`exercise_executions.logged`, emitted in the log's transaction).
 */
export interface RecordClaims {
  /**
   * What the log's emit claimed in the transaction `tx`, for each of its exercise executions in the order given: the
   * records it set (read in memory: the claims were made in this transaction, moments before).
   */
  claimedIn(tx: Db, exerciseExecutionIds: readonly number[]): NewRecordDto[][];
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
