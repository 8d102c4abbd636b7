import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, primaryKey, serial, uniqueIndex, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf } from "../platform/db/columns.js";
import { exerciseExecutions } from "./execution.table.js";
import { exercises } from "./exercise.table.js";
import { users } from "./user.table.js";

/** The record kinds of contract §12.1, in the order a user's records of an exercise are listed. */
export const RECORD_KINDS = [
  "MAX_WEIGHT",
  "ESTIMATED_1RM",
  "BEST_SET_VOLUME",
  "BEST_SESSION_VOLUME",
  "MAX_REPS",
  "REP_MAX_3",
  "REP_MAX_5",
  "REP_MAX_10",
] as const;
export type RecordKind = (typeof RECORD_KINDS)[number];

/**
 * Every record a user set on an exercise, one row per event: the set (or, for a session's volume, the exercise
 * execution) that strictly beat the previous best of its kind. `current` marks the latest event of each kind, the
 * user's record now; earlier events are its history.
 */
export const exerciseRecords = pgTable(
  "exercise_records",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    exerciseId: integer("exercise_id")
      .notNull()
      .references(() => exercises.id, { onDelete: "cascade" }),
    kind: varchar("kind", { length: 24 }).$type<RecordKind>().notNull(),
    /** kg, or repetitions for MAX_REPS. */
    value: numeric("value", { precision: 14, scale: 2 }).notNull(),
    /** The set's repetitions and weight; null for BEST_SESSION_VOLUME (no single set), weight null for a bodyweight set. */
    reps: integer("reps"),
    weight: numeric("weight", { precision: 6, scale: 2 }),
    /** The exercise execution's date. */
    achievedAt: instant("achieved_at").notNull(),
    exerciseExecutionId: integer("exercise_execution_id")
      .notNull()
      .references(() => exerciseExecutions.id, { onDelete: "cascade" }),
    /** The exercise execution's training execution (deleted with it, through the exercise execution). */
    trainingExecutionId: integer("training_execution_id"),
    /** 0-based position of the set in the exercise execution; null for BEST_SESSION_VOLUME. */
    setIndex: integer("set_index"),
    previousValue: numeric("previous_value", { precision: 14, scale: 2 }),
    current: boolean("current").notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    // One current record per kind, read by key (a user's exercise, or every exercise of a list of users).
    uniqueIndex("exercise_records_current_idx")
      .on(t.userId, t.exerciseId, t.kind)
      .where(sql`${t.current}`),
    // History pages in their order (newest execution first, one execution's records in the order written), of every
    // kind and of one kind, read backwards: (achieved_at, exercise_execution_id) descending, id ascending.
    index("exercise_records_history_idx").on(t.userId, t.exerciseId, t.achievedAt, t.exerciseExecutionId, t.id.desc().nullsFirst()),
    index("exercise_records_kind_history_idx").on(t.userId, t.exerciseId, t.kind, t.achievedAt, t.exerciseExecutionId, t.id.desc().nullsFirst()),
    // A trainer's dashboard reads the records its students set in the last days, newest first (one execution's in the
    // order written): each student's newest, read backwards in that order from the index alone, up to the number shown.
    index("exercise_records_user_recent_idx").on(t.userId, t.achievedAt, t.exerciseExecutionId, t.id.desc().nullsFirst()),
    // Deleting exercise executions (with their user) finds their records without a scan.
    index("exercise_records_execution_idx").on(t.exerciseExecutionId),
    check("exercise_records_kind_check", sql`${t.kind} in (${oneOf(RECORD_KINDS)})`),
  ],
);

/**
 * The legacy personal records of contract §7 as their lists answer them, one per exercise a user lifted: the current
 * MAX_WEIGHT, held by the earliest executed, then the first logged, of the executions that lifted that weight (with its
 * name as logged and its date; an execution logged after the fact may lift the same weight earlier, which sets no
 * record, ties do not, but holds it), and the current ESTIMATED_1RM. The records module keeps it as it claims records,
 * in the same transaction, from the same candidates: a read model of its records, never a second claim. A user's
 * personal records are then one index range, where deriving them took two probes per exercise (issue 32's metrics).
 */
export const personalRecordHolders = pgTable(
  "personal_record_holders",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    exerciseId: integer("exercise_id")
      .notNull()
      .references(() => exercises.id, { onDelete: "cascade" }),
    /** The weight held, kg: the current MAX_WEIGHT's value. */
    value: numeric("value", { precision: 14, scale: 2 }).notNull(),
    exerciseExecutionId: integer("exercise_execution_id")
      .notNull()
      .references(() => exerciseExecutions.id, { onDelete: "cascade" }),
    exerciseName: varchar("exercise_name", { length: 120 }).notNull(),
    executedAt: instant("executed_at").notNull(),
    /** The current ESTIMATED_1RM's value, kg (none without a set of 1 to 12 repetitions). */
    oneRepMax: numeric("one_rep_max", { precision: 14, scale: 2 }),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.exerciseId] }),
    // The lists read them by exercise name (as logged), then id.
    index("personal_record_holders_by_name_idx").on(t.userId, t.exerciseName, t.exerciseId),
  ],
);
