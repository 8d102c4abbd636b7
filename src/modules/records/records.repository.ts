import { and, asc, count, desc, eq, inArray, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { idArray } from "../../platform/db/id-lists.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import type { UserActor } from "../../platform/auth/actor.js";
import { activityReadableBy } from "../access/links.js";
import type { PageRequest } from "../../platform/paging.js";
import { exercises } from "../../tables/exercise.table.js";
import { changedSince, readSnapshot } from "../events/changed-since.js";
import { exerciseRecords, personalRecordHolders, type RecordKind } from "../../tables/records.table.js";
import { jsonArrayText, jsonInstant, jsonNumber, jsonObjectText, jsonString } from "../../platform/db/json.js";
import { pageOf } from "../../platform/db/pages.js";

export type NewRecordRow = Omit<typeof exerciseRecords.$inferInsert, "id" | "createdAt">;
export type PersonalRecordOffer = typeof personalRecordHolders.$inferInsert;

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

/**
 * A user's legacy personal records of contract §7 on each exercise (or on `exerciseId`'s), by exercise name (as logged)
 * then id, at most `limit` (null: all): one index range of personal_record_holders.
 */
function personalRecordRows(userId: SQL, only: { exerciseId?: SQL; limit: SQL }): SQL {
  return sql`select h.exercise_id, h.exercise_name, h.value, h.executed_at as date, h.one_rep_max
    from ${personalRecordHolders} h
    where h.user_id = ${userId} ${only.exerciseId ? sql`and h.exercise_id = ${only.exerciseId}` : sql``}
    order by h.exercise_name, h.exercise_id limit ${only.limit}`;
}

/**
 * personalRecordRows of one user, on every exercise or on one, at most `limit` (null: all of them), as rows: the
 * records' list and an exercise's progress.
 */
const personalRecordsOf = preparedStatements(
  (oneExercise: boolean) => (oneExercise ? "one" : "all"),
  (db, oneExercise) => {
    const rows = personalRecordRows(sql`${sql.placeholder("userId")}::int`, {
      exerciseId: oneExercise ? sql`${sql.placeholder("exerciseId")}::int` : undefined,
      limit: sql`${sql.placeholder("limit")}::int`,
    });
    return db
      .select({
        exerciseId: sql<number>`p.exercise_id`,
        exerciseName: sql<string>`p.exercise_name`,
        value: sql<string>`p.value`,
        date: sql<Date>`p.date`.mapWith(personalRecordHolders.executedAt),
        oneRepMax: sql<string | null>`p.one_rep_max`,
      })
      .from(sql`(${rows}) p`)
      .orderBy(sql`p.exercise_name, p.exercise_id`)
      .prepare(`personal_records_${oneExercise ? "one" : "all"}`);
  },
);

/**
 * The first `limit` of personalRecordRows as the JSON text of the metrics' `personalRecords` (contract §7), built by
 * PostgreSQL: REST sends it as it is, within the metrics' own text.
 */
const personalRecordsText = preparedStatement((db) => {
  const record = jsonObjectText({
    exerciseName: jsonString(sql`p.exercise_name`),
    value: jsonNumber(sql`p.value`),
    unit: sql`'"kg"'`,
    date: jsonInstant(sql`p.date`),
    estimatedOneRepMax: jsonNumber(sql`p.one_rep_max`),
  });
  const rows = personalRecordRows(sql`${sql.placeholder("userId")}::int`, { limit: sql`${sql.placeholder("limit")}::int` });
  return db
    .select({ text: jsonArrayText(record, sql`from (${rows}) p`, sql`p.exercise_name, p.exercise_id`) })
    .from(sql`(select) one`)
    .prepare("personal_records_text");
});

export const recordsRepository = {
  /** A user's legacy personal records (personalRecordRows) on every exercise or on one, at most `limit`. */
  async personalRecords(db: Db, userId: number, only: { exerciseId?: number; limit?: number }) {
    return personalRecordsOf(db, only.exerciseId !== undefined).execute({ userId, exerciseId: only.exerciseId, limit: only.limit ?? null });
  },

  /** The first `limit` of a user's legacy personal records as the JSON text of an array (personalRecordsText). */
  async personalRecordsText(db: Db, userId: number, limit: number): Promise<string> {
    const [row] = await personalRecordsText(db).execute({ userId, limit });
    return row.text;
  },

  /** Every record event of a user, current and past, in the order they were set (their data export). */
  recordsOfUser(db: Db, userId: number): Promise<RecordRow[]> {
    return selectRecords(db).where(eq(exerciseRecords.userId, userId)).orderBy(asc(exerciseRecords.achievedAt), asc(exerciseRecords.id));
  },

  async deleteRecordsOf(db: Db, userId: number) {
    await db.delete(personalRecordHolders).where(eq(personalRecordHolders.userId, userId));
    await db.delete(exerciseRecords).where(eq(exerciseRecords.userId, userId));
  },

  /**
   * Offers each exercise's heaviest weight and best estimate of a log (at most one offer per exercise) to its personal
   * record: the weight holds it when it is heavier than the weight held, or as heavy and executed earlier (then logged
   * first); the estimate when it is higher.
   */
  async offerPersonalRecords(db: Db, offers: PersonalRecordOffer[]) {
    if (offers.length === 0) return;
    const held = personalRecordHolders;
    const offered = (column: string) => sql.raw(`excluded.${column}`);
    const holds = sql`(${offered("value")} > ${held.value} or (${offered("value")} = ${held.value}
      and (${offered("executed_at")}, ${offered("exercise_execution_id")}) < (${held.executedAt}, ${held.exerciseExecutionId})))`;
    const holding = (column: string, current: AnyColumn) => sql`case when ${holds} then ${offered(column)} else ${current} end`;
    await db
      .insert(held)
      .values(offers)
      .onConflictDoUpdate({
        target: [held.userId, held.exerciseId],
        set: {
          value: holding("value", held.value),
          exerciseExecutionId: holding("exercise_execution_id", held.exerciseExecutionId),
          exerciseName: holding("exercise_name", held.exerciseName),
          executedAt: holding("executed_at", held.executedAt),
          oneRepMax: sql`greatest(${held.oneRepMax}, ${offered("one_rep_max")})`,
        },
      });
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
      pageOf(
        selectRecords(db).where(where).orderBy(desc(exerciseRecords.achievedAt), desc(exerciseRecords.exerciseExecutionId), asc(exerciseRecords.id)).$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(exerciseRecords).where(where),
    ]);
    return { rows, total: total.n };
  },
};
