import { and, asc, eq, isNull, sql } from "drizzle-orm";
import { type Db } from "../../platform/db/database.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { users } from "../../tables/user.table.js";
import { completedTrainingWeeks, executionSets, exerciseExecutions, trainingExecutions, trainingExerciseMonths } from "../../tables/execution.table.js";

export type TrainingExecutionRow = typeof trainingExecutions.$inferSelect;
export type ExerciseExecutionRow = typeof exerciseExecutions.$inferSelect;

export interface Period {
  from?: Date;
  until?: Date;
}

/** Executions by id and by user (one execution, the change feed, a user's export and erasure), and their sets. */
export const executionRepository = {
  async findTrainingExecution(db: Db, id: number) {
    const [row] = await db
      .select({ execution: trainingExecutions, userName: users.name })
      .from(trainingExecutions)
      .innerJoin(users, eq(users.id, trainingExecutions.userId))
      .where(eq(trainingExecutions.id, id));
    return row ?? null;
  },

  /** Those of `ids` that are `userId`'s, with the user's name (the change feed's training executions). */
  async findTrainingExecutionsOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select({ execution: trainingExecutions, userName: users.name })
      .from(trainingExecutions)
      .innerJoin(users, eq(users.id, trainingExecutions.userId))
      .where(and(isAnyOf(trainingExecutions.id, ids), eq(trainingExecutions.userId, userId)));
  },

  /** Every training execution of a user, oldest first, with the user's name (their data export). */
  async trainingExecutionsOfUser(db: Db, userId: number) {
    return db
      .select({ execution: trainingExecutions, userName: users.name })
      .from(trainingExecutions)
      .innerJoin(users, eq(users.id, trainingExecutions.userId))
      .where(eq(trainingExecutions.userId, userId))
      .orderBy(asc(trainingExecutions.startTime), asc(trainingExecutions.id));
  },

  /** Every exercise execution a user logged on its own (outside a training execution), oldest first. */
  async standaloneExerciseExecutionsOfUser(db: Db, userId: number) {
    return db
      .select()
      .from(exerciseExecutions)
      .where(and(eq(exerciseExecutions.userId, userId), isNull(exerciseExecutions.trainingExecutionId)))
      .orderBy(asc(exerciseExecutions.executedAt), asc(exerciseExecutions.id));
  },

  /** Deletes every execution of a user, their sets and the monthly sums and completed weeks kept of them. */
  async deleteExecutionsOf(db: Db, userId: number) {
    // Exercise executions first: those of training executions would go with them anyway, each set with its execution.
    await db.delete(exerciseExecutions).where(eq(exerciseExecutions.userId, userId));
    await db.delete(trainingExecutions).where(eq(trainingExecutions.userId, userId));
    await db.delete(trainingExerciseMonths).where(eq(trainingExerciseMonths.userId, userId));
    await db.delete(completedTrainingWeeks).where(eq(completedTrainingWeeks.userId, userId));
  },

  /** Those of `ids` that are `userId`'s (the change feed's exercise executions). */
  async findExerciseExecutionsOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select()
      .from(exerciseExecutions)
      .where(and(isAnyOf(exerciseExecutions.id, ids), eq(exerciseExecutions.userId, userId)));
  },

  /** Up to `limit` ids above `afterId` of `userId`'s training executions, ascending. */
  trainingExecutionIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, sql`select ${trainingExecutions.id} from ${trainingExecutions} where ${trainingExecutions.userId} = ${userId}`, afterId, limit);
  },

  /** Up to `limit` ids above `afterId` of `userId`'s exercise executions, ascending. */
  exerciseExecutionIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, sql`select ${exerciseExecutions.id} from ${exerciseExecutions} where ${exerciseExecutions.userId} = ${userId}`, afterId, limit);
  },

  async exerciseExecutionsOf(db: Db, trainingExecutionIds: readonly number[]) {
    if (trainingExecutionIds.length === 0) return [];
    return db
      .select()
      .from(exerciseExecutions)
      .where(isAnyOf(exerciseExecutions.trainingExecutionId, trainingExecutionIds))
      .orderBy(asc(exerciseExecutions.id));
  },

  async setsOf(db: Db, exerciseExecutionIds: readonly number[]) {
    if (exerciseExecutionIds.length === 0) return [];
    return db
      .select()
      .from(executionSets)
      .where(isAnyOf(executionSets.exerciseExecutionId, exerciseExecutionIds))
      .orderBy(asc(executionSets.exerciseExecutionId), asc(executionSets.position));
  },
};
