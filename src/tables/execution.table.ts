import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import { bigint, boolean, check, date, index, integer, numeric, pgTable, primaryKey, serial, uniqueIndex, uuid, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant } from "../platform/db/columns.js";
import { exercises } from "./exercise.table.js";
import { trainings } from "./training.table.js";
import { users } from "./user.table.js";

/**
 * A date's number of days from Monday 0001-01-01, as SQL: day 7w is the Monday of week w, so a date's ISO week
 * (Monday to Sunday) is its day number over 7, and a weekday d (0 = Monday) of week w is day 7w + d.
 */
export const dayNumber = (date: SQL | AnyColumn): SQL => sql`(${date} - '0001-01-01'::date)`;

/**
 * The ISO week (Monday to Sunday, UTC) an instant falls in, numbered as `dayNumber` numbers them, as SQL. Completed
 * training executions are indexed by it, per user and training: written exactly like this, a query's expression is
 * the indexed one.
 */
export const isoWeekNumber = (instant: SQL | AnyColumn): SQL => sql`(${dayNumber(sql`(${instant} at time zone 'UTC')::date`)} / 7)`;

/**
 * A logged training session. The training's name is kept with it, so history survives the training's deletion.
 * Every row is keyed by user: statistics only ever read one user's history.
 */
export const trainingExecutions = pgTable(
  "training_executions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "set null" }),
    trainingName: varchar("training_name", { length: 120 }).notNull(),
    startTime: instant("start_time").notNull(),
    endTime: instant("end_time").notNull(),
    durationSeconds: integer("duration_seconds").notNull(),
    completed: boolean("completed").notNull(),
    notes: varchar("notes", { length: 2000 }),
    /** Σ volume of its exercises' completed sets, so daily figures read one row per session. */
    volume: numeric("volume", { precision: 14, scale: 2 }).notNull().default("0"),
    /** The id the client gave the log (contract §13.2): one execution per user and client id, however often it is sent. */
    clientId: uuid("client_id"),
    createdAt: createdAt(),
  },
  // The trailing columns make the statistics and metrics reads index-only (no visit to scattered heap pages).
  (t) => [
    // A log sent again with its client id finds the first one here; two sent at once cannot both be inserted.
    uniqueIndex("training_executions_user_client_id_idx")
      .on(t.userId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    // A user's executions newest first, ties by id (every page of them, a page per student on a trainer's dashboard),
    // come in order from the index: no sort per user.
    index("training_executions_user_start_cover_idx").on(t.userId, t.startTime, t.id, t.completed, t.durationSeconds),
    index("training_executions_training_stats_idx").on(t.trainingId, t.userId, t.startTime, t.durationSeconds, t.completed, t.volume),
    // Adherence counts a student's completed sessions of a training per ISO week from the index alone, in week order.
    // Not partial: the planner reads the statistics of an indexed expression only from a non-partial index.
    index("training_executions_user_training_week_idx").on(t.userId, t.completed, t.trainingId, isoWeekNumber(t.startTime), t.startTime),
    check("training_executions_duration_check", sql`${t.durationSeconds} >= 0`),
  ],
);

/**
 * One exercise done: on its own, or inside a training execution. Set figures are kept as aggregates of the
 * completed sets (computed once at logging time), so statistics read one row per exercise, not per set.
 */
export const exerciseExecutions = pgTable(
  "exercise_executions",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    exerciseId: integer("exercise_id").references(() => exercises.id, { onDelete: "set null" }),
    exerciseName: varchar("exercise_name", { length: 120 }).notNull(),
    trainingId: integer("training_id").references(() => trainings.id, { onDelete: "set null" }),
    trainingName: varchar("training_name", { length: 120 }),
    trainingExecutionId: integer("training_execution_id").references(() => trainingExecutions.id, { onDelete: "cascade" }),
    executedAt: instant("executed_at").notNull(),
    durationSeconds: integer("duration_seconds"),
    notes: varchar("notes", { length: 2000 }),
    personalRecord: boolean("personal_record").notNull().default(false),
    completedSets: integer("completed_sets").notNull(),
    totalReps: integer("total_reps").notNull(),
    /** Σ repetitions × weight of the completed sets (no weight counts 0). */
    volume: numeric("volume", { precision: 14, scale: 2 }).notNull(),
    /** Highest weight of a completed set; null when no completed set had a weight. */
    maxWeight: numeric("max_weight", { precision: 6, scale: 2 }),
    /** Σ weight and count of the completed sets that have a weight (for exact averages over many executions). */
    weightSum: numeric("weight_sum", { precision: 14, scale: 2 }).notNull(),
    weightedSets: integer("weighted_sets").notNull(),
    /** Highest Epley estimate over the completed weighted sets of 1 to 12 repetitions (estimatedOneRepMax, execution.dto.ts). */
    bestOneRepMax: numeric("best_one_rep_max", { precision: 10, scale: 2 }),
    /** The client's id of an exercise logged on its own (contract §13.2); the exercises of a training execution have none. */
    clientId: uuid("client_id"),
    createdAt: createdAt(),
  },
  // Trailing columns make progress and training statistics index-only scans.
  (t) => [
    uniqueIndex("exercise_executions_user_client_id_idx")
      .on(t.userId, t.clientId)
      .where(sql`${t.clientId} is not null`),
    index("exercise_executions_user_exercise_progress_idx").on(
      t.userId,
      t.exerciseId,
      t.executedAt,
      t.maxWeight,
      t.bestOneRepMax,
      t.volume,
      t.completedSets,
      t.totalReps,
    ),
    index("exercise_executions_user_time_idx").on(t.userId, t.executedAt),
    index("exercise_executions_training_execution_cover_idx").on(
      t.trainingExecutionId,
      t.exerciseId,
      t.volume,
      t.completedSets,
      t.totalReps,
      t.maxWeight,
      t.weightSum,
      t.weightedSets,
      t.exerciseName,
    ),
    // Exercise executions logged on their own (metrics' time), without reading the far more numerous ones of trainings.
    index("exercise_executions_user_standalone_idx")
      .on(t.userId, t.executedAt, t.durationSeconds)
      .where(sql`${t.trainingExecutionId} is null`),
  ],
);

export const executionSets = pgTable(
  "execution_sets",
  {
    id: serial("id").primaryKey(),
    exerciseExecutionId: integer("exercise_execution_id")
      .notNull()
      .references(() => exerciseExecutions.id, { onDelete: "cascade" }),
    userId: integer("user_id").notNull(),
    position: integer("position").notNull(),
    repetitions: integer("repetitions").notNull(),
    weight: numeric("weight", { precision: 6, scale: 2 }),
    completed: boolean("completed").notNull(),
  },
  (t) => [
    index("execution_sets_execution_idx").on(t.exerciseExecutionId, t.position),
    check("execution_sets_repetitions_check", sql`${t.repetitions} between 0 and 10000`),
    check("execution_sets_weight_check", sql`${t.weight} between 0 and 2000`),
  ],
);

/**
 * Per user, training, exercise and UTC month (of the training execution's start): the sums of
 * exercise_executions inside training executions, kept at logging time. Training statistics read whole months
 * here and only the partial months at a range's edges from the executions themselves.
 */
export const trainingExerciseMonths = pgTable(
  "training_exercise_months",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").notNull(),
    exerciseId: integer("exercise_id").notNull(),
    month: date("month", { mode: "string" }).notNull(),
    exerciseName: varchar("exercise_name", { length: 120 }).notNull(),
    completedSets: integer("completed_sets").notNull(),
    totalReps: integer("total_reps").notNull(),
    volume: numeric("volume", { precision: 16, scale: 2 }).notNull(),
    maxWeight: numeric("max_weight", { precision: 6, scale: 2 }),
    weightSum: numeric("weight_sum", { precision: 16, scale: 2 }).notNull(),
    weightedSets: integer("weighted_sets").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.trainingId, t.exerciseId, t.month] }),
    // Statistics read a user's months of a training with every figure from the index alone: a user's rows are
    // written month after month, scattered among everybody else's in the heap.
    index("training_exercise_months_statistics_cover_idx").on(
      t.userId,
      t.trainingId,
      t.month,
      t.exerciseId,
      t.exerciseName,
      t.completedSets,
      t.totalReps,
      t.volume,
      t.maxWeight,
      t.weightSum,
      t.weightedSets,
    ),
  ],
);

/** ISO weeks per row of `completedTrainingWeeks`: the bits of a bigint. */
export const WEEKS_PER_BLOCK = 64;

/** How many completed executions of a training in one week `completedTrainingWeeks` tells apart (1, 2, 3 or more). */
export const COMPLETED_WEEK_LEVELS = 3;

/**
 * Which ISO weeks (numbered as `isoWeekNumber` numbers them) a user completed a training in, and how often, kept at
 * logging time: a row per user, training and block of 64 weeks; bit w of `weeks` is set when at least one completed
 * execution of the training started in week 64·block + w, of `weeksTwice` at least two, of `weeksThrice` at least
 * three. Adherence reads a student's done sessions of a training in a range as bit counts over one or two rows,
 * instead of every execution of it. Executions are never changed once logged, only erased with their user, so a log
 * only sets bits. No foreign key to the training: ids are never reused, and a deleted training is in no plan any
 * more, so its rows are never read again.
 */
export const completedTrainingWeeks = pgTable(
  "completed_training_weeks",
  {
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    trainingId: integer("training_id").notNull(),
    block: integer("block").notNull(),
    weeks: bigint("weeks", { mode: "bigint" }).notNull(),
    weeksTwice: bigint("weeks_twice", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
    weeksThrice: bigint("weeks_thrice", { mode: "bigint" })
      .notNull()
      .default(sql`0`),
  },
  (t) => [primaryKey({ columns: [t.userId, t.trainingId, t.block] })],
);
