import { and, eq, inArray, sql } from "drizzle-orm";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import { type Db } from "../../platform/db/database.js";
import {
  completedTrainingWeeks,
  executionSets,
  exerciseExecutions,
  isoWeekNumber,
  trainingExecutions,
  trainingExerciseMonths,
  WEEKS_PER_BLOCK,
} from "../../tables/execution.table.js";
import type { ExerciseExecutionRow, TrainingExecutionRow } from "./execution.repository.js";

export type NewExerciseExecution = typeof exerciseExecutions.$inferInsert;
export type NewSet = Omit<typeof executionSets.$inferInsert, "id" | "exerciseExecutionId" | "userId" | "position">;

/** What logging a session or an exercise writes: the executions, their sets, and what is kept of them as they are logged. */
export const executionLoggingRepository = {
  /** Serializes one user's logging, so two concurrent logs never both claim the same record. */
  async lockUser(db: Db, userId: number) {
    await lockForTransaction(db, "executions", userId);
  },

  /** Marks exercise executions just logged as personal records (contract §7): they set the records module's MAX_WEIGHT. */
  async markPersonalRecords(db: Db, exerciseExecutionIds: readonly number[]) {
    if (exerciseExecutionIds.length === 0) return;
    await db
      .update(exerciseExecutions)
      .set({ personalRecord: true })
      .where(inArray(exerciseExecutions.id, [...exerciseExecutionIds]));
  },

  /**
   * Inserts a training execution; with a client id the user already used, nothing (null): the unique index decides,
   * so of two logs sent at once with one client id, one is inserted and the other waits for it and gets null.
   */
  async insertTrainingExecution(db: Db, values: typeof trainingExecutions.$inferInsert): Promise<TrainingExecutionRow | null> {
    const insert = db.insert(trainingExecutions).values(values);
    const [row] = await (
      values.clientId
        ? insert.onConflictDoNothing({
            target: [trainingExecutions.userId, trainingExecutions.clientId],
            where: sql`${trainingExecutions.clientId} is not null`,
          })
        : insert
    ).returning();
    return row ?? null;
  },

  /** The id of the user's training execution logged with this client id, if any. */
  async trainingExecutionIdByClientId(db: Db, userId: number, clientId: string): Promise<number | null> {
    const [row] = await db
      .select({ id: trainingExecutions.id })
      .from(trainingExecutions)
      .where(and(eq(trainingExecutions.userId, userId), eq(trainingExecutions.clientId, clientId)));
    return row?.id ?? null;
  },

  /** The user's exercise execution logged on its own with this client id, if any. */
  async exerciseExecutionByClientId(db: Db, userId: number, clientId: string): Promise<ExerciseExecutionRow | null> {
    const [row] = await db
      .select()
      .from(exerciseExecutions)
      .where(and(eq(exerciseExecutions.userId, userId), eq(exerciseExecutions.clientId, clientId)));
    return row ?? null;
  },

  /** Adds one exercise execution of a training session to its month's statistics. */
  async addToTrainingMonth(db: Db, row: ExerciseExecutionRow, trainingId: number, sessionStart: Date) {
    if (row.exerciseId === null) return;
    const month = `${sessionStart.toISOString().slice(0, 7)}-01`;
    await db
      .insert(trainingExerciseMonths)
      .values({
        userId: row.userId,
        trainingId,
        exerciseId: row.exerciseId,
        month,
        exerciseName: row.exerciseName,
        completedSets: row.completedSets,
        totalReps: row.totalReps,
        volume: row.volume,
        maxWeight: row.maxWeight,
        weightSum: row.weightSum,
        weightedSets: row.weightedSets,
      })
      .onConflictDoUpdate({
        target: [trainingExerciseMonths.userId, trainingExerciseMonths.trainingId, trainingExerciseMonths.exerciseId, trainingExerciseMonths.month],
        set: {
          completedSets: sql`${trainingExerciseMonths.completedSets} + excluded.completed_sets`,
          totalReps: sql`${trainingExerciseMonths.totalReps} + excluded.total_reps`,
          volume: sql`${trainingExerciseMonths.volume} + excluded.volume`,
          maxWeight: sql`greatest(${trainingExerciseMonths.maxWeight}, excluded.max_weight)`,
          weightSum: sql`${trainingExerciseMonths.weightSum} + excluded.weight_sum`,
          weightedSets: sql`${trainingExerciseMonths.weightedSets} + excluded.weighted_sets`,
        },
      });
  },

  /**
   * Sets the bits of a completed training execution's ISO week in its user's and training's completed weeks: at the
   * levels up to the number of completed executions of the training in that week, this one included (the caller
   * holds the user's logging lock, so that number is not moving).
   */
  async markCompletedWeek(db: Db, trainingExecutionId: number) {
    const week = (execution: string) => isoWeekNumber(sql.raw(`${execution}.${trainingExecutions.startTime.name}`));
    const perBlock = sql.raw(String(WEEKS_PER_BLOCK));
    const column = (name: string) => sql.identifier(name);
    const { userId, trainingId, block, weeks, weeksTwice, weeksThrice } = completedTrainingWeeks;
    const atLevel = (level: number) => sql`case when n.executions >= ${sql.raw(String(level))} then bit.week else 0 end`;
    await db.execute(sql`
      insert into ${completedTrainingWeeks} (${column(userId.name)}, ${column(trainingId.name)}, ${column(block.name)}, ${column(weeks.name)},
        ${column(weeksTwice.name)}, ${column(weeksThrice.name)})
      select te.user_id, te.training_id, ${week("te")} / ${perBlock}, bit.week, ${atLevel(2)}, ${atLevel(3)}
      from ${trainingExecutions} te
      cross join lateral (select 1::bigint << (${week("te")} % ${perBlock}) as week) bit
      cross join lateral (
        select count(*) as executions from ${trainingExecutions} same
        where same.user_id = te.user_id and same.completed and same.training_id = te.training_id and ${week("same")} = ${week("te")}
      ) n
      where te.id = ${trainingExecutionId} and te.completed and te.training_id is not null
      on conflict (${column(userId.name)}, ${column(trainingId.name)}, ${column(block.name)}) do update set
        ${column(weeks.name)} = ${completedTrainingWeeks.weeks} | excluded.${column(weeks.name)},
        ${column(weeksTwice.name)} = ${completedTrainingWeeks.weeksTwice} | excluded.${column(weeksTwice.name)},
        ${column(weeksThrice.name)} = ${completedTrainingWeeks.weeksThrice} | excluded.${column(weeksThrice.name)}`);
  },

  async setSessionVolume(db: Db, trainingExecutionId: number, volume: string) {
    await db.update(trainingExecutions).set({ volume }).where(eq(trainingExecutions.id, trainingExecutionId));
  },

  /** Inserts an exercise execution and its sets; with a client id the user already used, nothing (null), as above. */
  async insertExerciseExecution(db: Db, values: NewExerciseExecution, sets: NewSet[]): Promise<ExerciseExecutionRow | null> {
    const insert = db.insert(exerciseExecutions).values(values);
    const [row] = await (
      values.clientId
        ? insert.onConflictDoNothing({
            target: [exerciseExecutions.userId, exerciseExecutions.clientId],
            where: sql`${exerciseExecutions.clientId} is not null`,
          })
        : insert
    ).returning();
    if (!row) return null;
    await db.insert(executionSets).values(sets.map((set, position) => ({ ...set, exerciseExecutionId: row.id, userId: values.userId, position })));
    return row;
  },
};
