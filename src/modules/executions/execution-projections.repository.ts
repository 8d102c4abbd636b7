import { sql } from "drizzle-orm";
import { type Db } from "../../platform/db/database.js";
import { completedTrainingWeeks, isoWeekNumber, trainingExecutions, trainingExerciseMonths, WEEKS_PER_BLOCK } from "../../tables/execution.table.js";
import type { ExerciseExecutionRow } from "./execution.repository.js";

/**
 * What is kept of training sessions as they are logged, so that reads need not go over every execution: each training's
 * monthly sums per exercise (the statistics) and the weeks it was completed in (adherence); written by
 * execution-projections.subscriber.ts.
 */
export const executionProjectionsRepository = {
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
   * levels up to the number of completed executions of the training in that week, this one included (the log's
   * transaction holds the user's logging lock, so that number is not moving).
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
};
