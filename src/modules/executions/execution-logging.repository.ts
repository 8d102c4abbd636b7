import { and, eq, inArray, sql } from "drizzle-orm";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import { type Db } from "../../platform/db/database.js";
import { executionSets, exerciseExecutions, trainingExecutions } from "../../tables/execution.table.js";
import type { ExerciseExecutionRow, TrainingExecutionRow } from "./execution.repository.js";

export type NewExerciseExecution = typeof exerciseExecutions.$inferInsert;
export type NewSet = Omit<typeof executionSets.$inferInsert, "id" | "exerciseExecutionId" | "userId" | "position">;

/** What logging a session or an exercise writes: the executions and their sets (what is kept of them: execution-projections.repository.ts). */
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
