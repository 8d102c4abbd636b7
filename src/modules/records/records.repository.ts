import { and, asc, count, desc, eq, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { idArray } from "../../platform/db/id-lists.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import type { UserActor } from "../../platform/auth/actor.js";
import { activityReadableBy } from "../access/links.js";
import type { PageRequest } from "../../platform/paging.js";
import { exercises } from "../../tables/exercise.table.js";
import { changedSince, readSnapshot } from "../events/changed-since.js";
import { exerciseRecords, type RecordKind } from "../../tables/records.table.js";
import { exerciseExecutions } from "../../tables/execution.table.js";
import { alias } from "drizzle-orm/pg-core";

export type NewRecordRow = Omit<typeof exerciseRecords.$inferInsert, "id" | "createdAt">;

/** A record event with its exercise's name, as every read answers it. */
const recordColumns = {
  exerciseId: exerciseRecords.exerciseId,
  exerciseName: exercises.name,
  kind: exerciseRecords.kind,
  value: exerciseRecords.value,
  reps: exerciseRecords.reps,
  weight: exerciseRecords.weight,
  achievedAt: exerciseRecords.achievedAt,
  exerciseExecutionId: exerciseRecords.exerciseExecutionId,
  trainingExecutionId: exerciseRecords.trainingExecutionId,
  setIndex: exerciseRecords.setIndex,
  previousValue: exerciseRecords.previousValue,
  userId: exerciseRecords.userId,
};
const selectRecords = (db: Db) => db.select(recordColumns).from(exerciseRecords).innerJoin(exercises, eq(exercises.id, exerciseRecords.exerciseId));
export type RecordRow = Awaited<ReturnType<typeof selectRecords>>[number];

/**
 * The newest `limit` record events of some users in [from, until) (a trainer's dashboard): at most `limit` of each
 * user from its index range, then the newest of those, with the snapshot they were read under. Given the ids a
 * reading kept and its snapshot, it reads only those rows again while no change was recorded for the users since
 * (events/changed-since.ts; logging, which sets records, and erasure, which deletes them, record a change of their
 * user): the search over every user's index range, the costly part, runs only after a change. Built once and bound at
 * each call.
 */
const recentOfUsers = preparedStatement((db) => {
  const [from, until, limit] = [sql`${sql.placeholder("from")}::timestamptz`, sql`${sql.placeholder("until")}::timestamptz`, sql.placeholder("limit")];
  const userIds = idArray(sql.placeholder("userIds"));
  const keptSnapshot = sql`${sql.placeholder("keptSnapshot")}::text`;
  const newest = sql`select c.id from unnest(${userIds}) as u(id)
    cross join lateral (
      select r.id, r.achieved_at, r.exercise_execution_id from ${exerciseRecords} r
      where r.user_id = u.id and r.achieved_at >= ${from} and r.achieved_at < ${until}
      order by r.achieved_at desc, r.exercise_execution_id desc, r.id asc
      limit ${limit}
    ) c
    order by c.achieved_at desc, c.exercise_execution_id desc, c.id asc
    limit ${limit}`;
  const ids = sql`case when ${keptSnapshot} is not null and not ${changedSince(userIds, keptSnapshot)}
    then ${idArray(sql.placeholder("keptIds"))} else array(${newest}) end`;
  return (
    db
      // The ids found are those of the rows: `read.ids` is named once, so PostgreSQL evaluates its CASE (and the search)
      // once when it folds the subquery into the statement.
      .select({ snapshot: sql<string>`read.snapshot`, id: exerciseRecords.id, ...recordColumns })
      .from(sql`(select ${ids} as ids, ${readSnapshot} as snapshot) read`)
      .leftJoin(exerciseRecords, sql`${exerciseRecords.id} = any(read.ids)`)
      .leftJoin(exercises, eq(exercises.id, exerciseRecords.exerciseId))
      .orderBy(desc(exerciseRecords.achievedAt), desc(exerciseRecords.exerciseExecutionId), asc(exerciseRecords.id))
      .prepare("recent_records_of_users")
  );
});

/** The record events a reading of `recentOfUsers` found, by id, and the snapshot they were found under. */
export interface RecentRecordIds {
  ids: number[];
  snapshot: string;
}

/** Whether the exercise exists and the reader may read the user's activity, with the records when both hold. */
export interface CurrentRecordsRead {
  exerciseExists: boolean;
  readable: boolean;
  rows: RecordRow[];
}

/**
 * One user's current records on one exercise (REST GET /exercises/{id}/records) in one statement, with the answers of
 * the checks before them: whether the exercise exists, and whether the reader may read the user's activity (the
 * access rule, `activityReadableBy`); the records are read only when both hold. Built once per kind of reader.
 */
const currentOnExerciseReadBy = preparedStatements(
  (admin: boolean) => (admin ? "admin" : "user"),
  (db, admin) => {
    const [userId, exerciseId] = [sql`${sql.placeholder("userId")}::int`, sql`${sql.placeholder("exerciseId")}::int`];
    const readable = activityReadableBy({ id: sql.placeholder("readerId"), isAdmin: admin }, userId);
    const checks = sql`(select exists (select from ${exercises} where ${exercises.id} = ${exerciseId}) as exercise_exists, ${readable} as readable) checks`;
    return db
      .select({ exerciseExists: sql<boolean>`checks.exercise_exists`, readable: sql<boolean>`checks.readable`, ...recordColumns })
      .from(checks)
      .leftJoin(
        exerciseRecords,
        sql`checks.exercise_exists and checks.readable and ${exerciseRecords.userId} = ${userId} and ${exerciseRecords.exerciseId} = ${exerciseId} and ${exerciseRecords.current}`,
      )
      .leftJoin(exercises, eq(exercises.id, exerciseRecords.exerciseId))
      .prepare("current_records_read_by");
  },
);

const estimates = alias(exerciseRecords, "estimate");

export const recordsRepository = {
  /**
   * A user's legacy personal record of contract §7 on each exercise (or one), by exercise name then id, at most
   * `limit`: the current MAX_WEIGHT, the current ESTIMATED_1RM as its estimate, and the date and the name (as logged)
   * of the execution holding it, which §7 takes as the earliest executed, then the first logged, of those that lifted
   * that weight. MAX_WEIGHT itself keeps the first *logged* to reach it (a tie sets no record), and an execution logged
   * after the fact may reach the same weight earlier: the holder is looked up among the user's executions of the
   * exercise that lifted that weight, one entry of exercise_executions_user_exercise_weight_idx each.
   */
  async personalRecords(db: Db, userId: number, only: { exerciseId?: number; limit?: number }) {
    const holder = db
      .select({ exerciseName: exerciseExecutions.exerciseName, executedAt: exerciseExecutions.executedAt })
      .from(exerciseExecutions)
      .where(
        and(
          eq(exerciseExecutions.userId, exerciseRecords.userId),
          eq(exerciseExecutions.exerciseId, exerciseRecords.exerciseId),
          eq(exerciseExecutions.maxWeight, exerciseRecords.value),
        ),
      )
      .orderBy(asc(exerciseExecutions.executedAt), asc(exerciseExecutions.id))
      .limit(1)
      .as("holder");
    const conditions: SQL[] = [eq(exerciseRecords.userId, userId), eq(exerciseRecords.kind, "MAX_WEIGHT"), eq(exerciseRecords.current, true)];
    if (only.exerciseId !== undefined) conditions.push(eq(exerciseRecords.exerciseId, only.exerciseId));
    const query = db
      .select({
        exerciseId: exerciseRecords.exerciseId,
        exerciseName: holder.exerciseName,
        value: exerciseRecords.value,
        date: holder.executedAt,
        oneRepMax: estimates.value,
      })
      .from(exerciseRecords)
      .innerJoinLateral(holder, sql`true`)
      .leftJoin(
        estimates,
        and(
          eq(estimates.userId, exerciseRecords.userId),
          eq(estimates.exerciseId, exerciseRecords.exerciseId),
          eq(estimates.kind, "ESTIMATED_1RM"),
          eq(estimates.current, true),
        ),
      )
      .where(and(...conditions))
      .orderBy(asc(holder.exerciseName), asc(exerciseRecords.exerciseId));
    return only.limit === undefined ? query : query.limit(only.limit);
  },

  /** Every record event of a user, current and past, in the order they were set (their data export). */
  recordsOfUser(db: Db, userId: number): Promise<RecordRow[]> {
    return selectRecords(db).where(eq(exerciseRecords.userId, userId)).orderBy(asc(exerciseRecords.achievedAt), asc(exerciseRecords.id));
  },

  async deleteRecordsOf(db: Db, userId: number) {
    await db.delete(exerciseRecords).where(eq(exerciseRecords.userId, userId));
  },

  /** The current value of every kind a user holds on these exercises. */
  async currentValues(db: Db, userId: number, exerciseIds: readonly number[]) {
    if (exerciseIds.length === 0) return [];
    return db
      .select({ exerciseId: exerciseRecords.exerciseId, kind: exerciseRecords.kind, value: exerciseRecords.value })
      .from(exerciseRecords)
      .where(and(eq(exerciseRecords.userId, userId), inArray(exerciseRecords.exerciseId, [...exerciseIds]), eq(exerciseRecords.current, true)));
  },

  /** Writes new record events; the (exercise, kind) pairs they beat stop being current first. */
  async insert(db: Db, userId: number, rows: NewRecordRow[]) {
    if (rows.length === 0) return;
    const beaten = rows.map((row) => sql`(${row.exerciseId}::int, ${row.kind}::varchar)`);
    await db
      .update(exerciseRecords)
      .set({ current: false })
      .where(
        and(
          eq(exerciseRecords.userId, userId),
          eq(exerciseRecords.current, true),
          sql`(${exerciseRecords.exerciseId}, ${exerciseRecords.kind}) in (${sql.join(beaten, sql`, `)})`,
        ),
      );
    await db.insert(exerciseRecords).values(rows);
  },

  /** The record events these exercise executions set, in the order they were written (as the logging answer listed them). */
  async setByExecutions(db: Db, exerciseExecutionIds: readonly number[]) {
    if (exerciseExecutionIds.length === 0) return [];
    return db
      .select({
        exerciseId: exerciseRecords.exerciseId,
        kind: exerciseRecords.kind,
        value: exerciseRecords.value,
        previousValue: exerciseRecords.previousValue,
      })
      .from(exerciseRecords)
      .where(inArray(exerciseRecords.exerciseExecutionId, [...exerciseExecutionIds]))
      .orderBy(asc(exerciseRecords.id));
  },

  /** A user's current record of each kind it holds on an exercise. */
  async currentOnExerciseReadBy(db: Db, reader: UserActor, userId: number, exerciseId: number): Promise<CurrentRecordsRead> {
    const read = await currentOnExerciseReadBy(db, reader.isAdmin).execute({ readerId: reader.id, userId, exerciseId });
    const [{ exerciseExists, readable }] = read;
    return { exerciseExists, readable, rows: read.filter((row) => row.kind !== null) as RecordRow[] };
  },

  /** The current records of these users, on the given exercises and of the given kinds (all when not given). */
  async listCurrent(db: Db, userIds: readonly number[], exerciseIds?: readonly number[], kinds?: readonly RecordKind[]) {
    if (userIds.length === 0) return [];
    const conditions: SQL[] = [inArray(exerciseRecords.userId, [...userIds]), eq(exerciseRecords.current, true)];
    if (exerciseIds) conditions.push(inArray(exerciseRecords.exerciseId, [...exerciseIds]));
    if (kinds) conditions.push(inArray(exerciseRecords.kind, [...kinds]));
    return selectRecords(db).where(and(...conditions));
  },

  /**
   * The record events of these users achieved in [from, until), newest first (one execution's in kind order), at most
   * `limit`: each user's first `limit` read from the index in that order (a LATERAL scan per user, stopped at the
   * limit, however long its history), the first `limit` of those, then only their rows; with what was found (ids and
   * snapshot). Given what an earlier reading of the same users, range and limit found, only those rows are read again
   * while nothing of the users changed since.
   */
  async listRecent(
    db: Db,
    userIds: readonly number[],
    from: Date,
    until: Date,
    limit: number,
    kept?: RecentRecordIds,
  ): Promise<{ rows: RecordRow[]; found: RecentRecordIds }> {
    const [read, ...more] = await recentOfUsers(db).execute({
      userIds: [...new Set(userIds)],
      from: from.toISOString(),
      until: until.toISOString(),
      limit,
      keptIds: kept?.ids ?? null,
      keptSnapshot: kept?.snapshot ?? null,
    });
    // One row with no record in it when none was found (the reading's own columns come from the left side).
    const rows = (read.id === null ? more : [read, ...more]) as (RecordRow & { id: number })[];
    return { rows, found: { ids: rows.map((row) => row.id), snapshot: read.snapshot } };
  },

  /** A page of one user's record events on an exercise, of one kind or all: newest execution first, each one's in kind order. */
  async listHistory(db: Db, filter: { userId: number; exerciseId: number; kind?: RecordKind }, request: PageRequest) {
    const conditions: SQL[] = [eq(exerciseRecords.userId, filter.userId), eq(exerciseRecords.exerciseId, filter.exerciseId)];
    if (filter.kind) conditions.push(eq(exerciseRecords.kind, filter.kind));
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      selectRecords(db)
        .where(where)
        .orderBy(desc(exerciseRecords.achievedAt), desc(exerciseRecords.exerciseExecutionId), asc(exerciseRecords.id))
        .limit(request.size)
        .offset(request.page * request.size),
      db.select({ n: count() }).from(exerciseRecords).where(where),
    ]);
    return { rows, total: total.n };
  },
};
