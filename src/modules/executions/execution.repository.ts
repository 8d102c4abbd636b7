import { and, asc, count, eq, gte, isNull, lt, sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import { type Db, rowsOf } from "../../platform/db/database.js";
import { isFirstPage, ordering, pageClause } from "../../platform/db/pages.js";
import { idArray, idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import { preparedStatement, preparedStatements, type Bound } from "../../platform/db/prepared.js";
import { activityReadableBy } from "../coaching/coaching.fragments.js";
import { fromJson, jsonArrayText, jsonInstant, jsonNumber, jsonObjectText, jsonRows, jsonString, rowFromJson } from "../../platform/db/json.js";
import type { PageRequest } from "../../platform/paging.js";
import { weightHistoryText } from "../users/user.fragments.js";
import { users } from "../users/user.table.js";
import {
  completedTrainingWeeks,
  executionSets,
  exerciseExecutions,
  isoWeekNumber,
  personalRecords,
  trainingExecutions,
  trainingExerciseMonths,
  WEEKS_PER_BLOCK,
} from "./execution.table.js";
import type { TrainingStatisticsFigures } from "./execution.dto.js";

export type TrainingExecutionRow = typeof trainingExecutions.$inferSelect;
export type ExerciseExecutionRow = typeof exerciseExecutions.$inferSelect;
export type NewExerciseExecution = typeof exerciseExecutions.$inferInsert;
export type NewSet = Omit<typeof executionSets.$inferInsert, "id" | "exerciseExecutionId" | "userId" | "position">;

export interface Period {
  from?: Date;
  until?: Date;
}

export const TRAINING_EXECUTION_SORTS: Record<string, AnyColumn> = {
  id: trainingExecutions.id,
  startTime: trainingExecutions.startTime,
  endTime: trainingExecutions.endTime,
  duration: trainingExecutions.durationSeconds,
  completed: trainingExecutions.completed,
  createdAt: trainingExecutions.createdAt,
};

export const EXERCISE_EXECUTION_SORTS: Record<string, AnyColumn> = {
  id: exerciseExecutions.id,
  executedAt: exerciseExecutions.executedAt,
  duration: exerciseExecutions.durationSeconds,
  createdAt: exerciseExecutions.createdAt,
};

const num = (value: unknown): number | null => (value === null || value === undefined ? null : Number(value));
const iso = (date: Date) => date.toISOString();
const isoDay = (date: Date) => iso(date).slice(0, 10);

/** A training's statistics for one user, in the contract's shape less the training's own id and name. */
/**
 * The whole UTC months inside a range [from, until): from the first month starting at or after `from` to the
 * last one ending at or before `until` (open ends stay open). `empty` when no whole month fits.
 */
export function wholeMonths(range: Period): { from: string | null; until: string | null; empty: boolean } {
  const monthStart = (date: Date) => Date.UTC(date.getUTCFullYear(), date.getUTCMonth(), 1);
  const day = (ms: number) => new Date(ms).toISOString().slice(0, 10);
  let from: number | null = null;
  if (range.from) {
    const start = monthStart(range.from);
    from = start === range.from.getTime() ? start : Date.UTC(range.from.getUTCFullYear(), range.from.getUTCMonth() + 1, 1);
  }
  const until = range.until ? monthStart(range.until) : null;
  return { from: from === null ? null : day(from), until: until === null ? null : day(until), empty: from !== null && until !== null && from >= until };
}

function period(column: AnyColumn, range: Bounds<Period>): SQL[] {
  const conditions: SQL[] = [];
  if (range.from) conditions.push(gte(column, range.from));
  if (range.until) conditions.push(lt(column, range.until));
  return conditions;
}

/** Each value given, or the placeholder a prepared statement binds it to. */
type Bounds<T> = { [K in keyof T]?: Bound<NonNullable<T[K]>> };

/** What a listing of one user's training executions may narrow to, besides the user. */
export type TrainingExecutionFilter = { trainingId?: number; completed?: boolean } & Period;

function trainingExecutionConditions(filter: Bounds<TrainingExecutionFilter>): SQL[] {
  const conditions: SQL[] = period(trainingExecutions.startTime, filter);
  if (filter.trainingId !== undefined) conditions.push(eq(trainingExecutions.trainingId, filter.trainingId));
  if (filter.completed !== undefined) conditions.push(eq(trainingExecutions.completed, filter.completed));
  return conditions;
}

/** The columns of a training execution its listings show. */
const summaryColumns = {
  id: trainingExecutions.id,
  trainingId: trainingExecutions.trainingId,
  trainingName: trainingExecutions.trainingName,
  userId: trainingExecutions.userId,
  startTime: trainingExecutions.startTime,
  endTime: trainingExecutions.endTime,
  durationSeconds: trainingExecutions.durationSeconds,
  completed: trainingExecutions.completed,
  notes: trainingExecutions.notes,
  clientId: trainingExecutions.clientId,
};
export type TrainingExecutionSummaryRow = Pick<TrainingExecutionRow, keyof typeof summaryColumns>;
/** The keys of a page's rows trainingExecutionPageJson can write. */
export const TRAINING_EXECUTION_SUMMARY_KEYS = Object.keys(summaryColumns);

/** One user's page of training executions as read for several users at once: whether it may be read, its page and total. */
export interface TrainingExecutionPageOf {
  userId: number;
  /** False when no user has the id. */
  found: boolean;
  /** False when the caller may not read the user's activity (its page is then empty). */
  readable: boolean;
  rows: TrainingExecutionSummaryRow[];
  /** Null when its shape counts nothing. */
  total: number | null;
}

/**
 * What shapes the SQL of a page of a user's training executions: who reads, the filters present, the order, whether
 * it is the first page (no OFFSET), whether its total is counted and which keys of its rows are read; the values are
 * bound.
 */
export interface TrainingExecutionPageShape {
  admin: boolean;
  filters: (keyof TrainingExecutionFilter)[];
  sort: PageRequest["sort"];
  firstPage: boolean;
  /** False when whoever reads the page shows no total (a GraphQL selection without one): nothing is counted then. */
  counted: boolean;
  /** The keys of its rows read (a GraphQL selection's), all when undefined. */
  keys?: string[];
}

const PAGE_FILTERS: (keyof TrainingExecutionFilter)[] = ["trainingId", "completed", "from", "until"];

/** The shape of the page `filter` and `request` ask `caller` for. */
export function trainingExecutionPageShape(
  caller: { isAdmin: boolean },
  filter: TrainingExecutionFilter,
  request: PageRequest,
  counted = true,
  keys?: string[],
): TrainingExecutionPageShape {
  return {
    admin: caller.isAdmin,
    filters: PAGE_FILTERS.filter((key) => filter[key] !== undefined),
    sort: request.sort,
    firstPage: isFirstPage(request),
    counted,
    keys,
  };
}

/** A key naming a page's shape (its statement's text depends on nothing else). */
export const trainingExecutionPageKey = (shape: TrainingExecutionPageShape) =>
  `${shape.admin} ${shape.filters.join(",")} ${shape.sort.map((s) => `${s.field}:${s.direction}`).join(",")} ${shape.firstPage} ${shape.counted} ${shape.keys?.join(",") ?? "*"}`;

/** The values trainingExecutionPageJson's placeholders bind, by name. */
export function trainingExecutionPageValues(caller: { id: number }, filter: TrainingExecutionFilter, request: PageRequest): Record<string, unknown> {
  return {
    ...filter,
    // A placeholder carries no column encoder, and postgres.js as Drizzle sets it up sends a Date as is: ISO text.
    from: filter.from?.toISOString(),
    until: filter.until?.toISOString(),
    callerId: caller.id,
    limit: request.size,
    offset: request.page * request.size,
  };
}

/**
 * The page of training executions of the user `userId` (an expression of the enclosing query) as one JSON object
 * built by PostgreSQL, `{readable, total, rows}`: whether the caller may read the user's activity (coaching's rule),
 * how many executions the filter keeps (null when the shape is not `counted`), and the page's rows (summary columns, in the page's order, size and offset,
 * along the user's index); nothing is counted or listed when the caller may not read them. Its values are bound to the
 * placeholders `value` names (trainingExecutionPageValues); `linkShown`, what the enclosing row shows of the caller's
 * link to the user (coaching's LinkedReader).
 */
export function trainingExecutionPageJson(
  shape: TrainingExecutionPageShape,
  userId: AnyColumn | SQL,
  value: (name: string) => Placeholder,
  linkShown?: SQL,
): SQL {
  const readable = activityReadableBy({ id: value("callerId"), isAdmin: shape.admin, linkShown }, userId);
  const bound: Bounds<TrainingExecutionFilter> = Object.fromEntries(shape.filters.map((key) => [key, value(key)]));
  const order = ordering(TRAINING_EXECUTION_SORTS, { sort: shape.sort }, trainingExecutions.id);
  const ofUser = and(eq(trainingExecutions.userId, userId), readable, ...trainingExecutionConditions(bound));
  const onPage = (column: AnyColumn) => sql`page.${sql.identifier(column.name)}`;
  const onPageSorts = Object.fromEntries(Object.entries(TRAINING_EXECUTION_SORTS).map(([field, column]) => [field, onPage(column)]));
  // The page's rows are listed in the page's own order (its keys end with the id: no ties), which the page subquery
  // already hands them in, rather than by a row_number() beside them: a window between the LIMIT and the sort keeps
  // the sort from stopping at the page's rows (it read 33 executions per student for 5).
  const rows = jsonRows(
    Object.fromEntries(Object.entries(summaryColumns).map(([name, column]) => [name, onPage(column)])),
    sql`from (
      select ${trainingExecutions}.* from ${trainingExecutions} where ${ofUser}
      order by ${sql.join(order, sql`, `)} ${pageClause(shape.firstPage, value)}
    ) page`,
    sql.join(ordering(onPageSorts, { sort: shape.sort }, onPage(trainingExecutions.id)), sql`, `),
    shape.keys,
  );
  const total = shape.counted ? sql`(select count(*) from ${trainingExecutions} where ${ofUser})` : sql`null`;
  return sql`json_build_object('readable', ${readable}, 'total', ${total}, 'rows', ${rows})`;
}

/** A page as trainingExecutionPageJson wrote it: its rows as Drizzle maps them (instants back to Dates). */
export function trainingExecutionPageFromJson(json: unknown): Omit<TrainingExecutionPageOf, "userId" | "found"> {
  const page = fromJson(json) as { readable: boolean; total: number | null; rows: Record<string, unknown>[] };
  return {
    readable: page.readable,
    total: page.total === null ? null : Number(page.total),
    rows: page.rows.map((row) => rowFromJson(trainingExecutions, row)),
  };
}

const trainingExecutionPages = preparedStatements(trainingExecutionPageKey, (db, shape) => {
  const askedId = sql<number>`asked.id`;
  return db
    .select({ userId: askedId, found: sql<boolean>`${users.id} is not null`, page: trainingExecutionPageJson(shape, askedId, sql.placeholder) })
    .from(sql`unnest(${idArray(sql.placeholder("userIds"))}) with ordinality as asked(id, position)`)
    .leftJoin(users, eq(users.id, askedId))
    .orderBy(sql`asked.position`)
    .prepare("training_execution_pages");
});

/** The ISO weeks of the metrics' weeklyProgress (contract §7). */
export const WEEKS_IN_METRICS = 8;
/** The personal records the metrics list: the first by exercise name, as many as a page holds at most. */
export const RECORDS_IN_METRICS = 100;

/**
 * A user's metrics (contract §7) as the JSON text of the answer, built whole by PostgreSQL in one statement, prepared
 * once (its text is long to build) and bound to `userId` and the first week's Monday (`firstMonday`, an instant, and
 * `firstMondayDay`, its date): the totals (one index-only pass over each table, and the few standalone exercise logs),
 * trainings and time for each week, the weight history (the users module's fragment) and the user's personal_records
 * (one row per exercise, kept at logging time; the first RECORDS_IN_METRICS by name). The answer holds a record for
 * each exercise the user lifted (up to a hundred): carried as one text, it is not decoded into objects, walked for
 * dates and encoded again, which was most of the request's CPU; and that text is concatenated (`jsonObjectText`:
 * compact, as every other answer is written), where json_build_object and json_agg would space it and look up every
 * value's type and output function again for each record. Sums of seconds leave as float8: exact for any integer a
 * history can reach (below 2^53), where an int would overflow past 2^31 (68 years of logged time).
 */
const userMetrics = preparedStatement((db) => {
  const userId = sql.placeholder("userId");
  const firstMonday = sql`${sql.placeholder("firstMonday")}::timestamptz`;
  const record = jsonObjectText({
    exerciseName: jsonString(sql`exercise_name`),
    value: jsonNumber(sql`value`),
    unit: sql`'"kg"'`,
    date: jsonInstant(sql`date`),
    estimatedOneRepMax: jsonNumber(sql`one_rep_max`),
  });
  const answer = jsonObjectText({
    userId: sql`${userId}::int::text`,
    totalTrainings: sql`t.trainings::text`,
    completedTrainings: sql`t.completed::text`,
    totalExercises: sql`e.exercises::text`,
    totalTime: jsonNumber(sql`t.training_time + s.exercise_time`),
    weeklyProgress: jsonArrayText(
      jsonObjectText({
        date: jsonString(sql`to_char(d.week, 'YYYY-MM-DD')`),
        trainingsCount: sql`coalesce(weekly.trainings, 0)::text`,
        totalTime: jsonNumber(sql`coalesce(weekly.time, 0)`),
      }),
      sql`from (select ${sql.placeholder("firstMondayDay")}::date + 7 * i as week from generate_series(0, ${sql.raw(String(WEEKS_IN_METRICS - 1))}) i) d
        left join weekly on weekly.week = d.week`,
      sql`d.week`,
    ),
    weightHistory: weightHistoryText(sql`${userId}::int`),
    personalRecords: jsonArrayText(record, sql`from records`, sql`exercise_name, exercise_id`),
  });
  return db
    .select({ answer: sql<string>`metrics.answer` })
    .from(
      sql`(
        with records as (
          select exercise_id, exercise_name, max_weight as value, executed_at as date, best_one_rep_max as one_rep_max
          from personal_records where user_id = ${userId}
          order by exercise_name, exercise_id limit ${sql.raw(String(RECORDS_IN_METRICS))}
        ),
        weekly as (
          select date_trunc('week', w.at at time zone 'UTC')::date as week, sum(w.trainings)::int as trainings, sum(w.time)::float8 as time from (
            select start_time as at, 1 as trainings, duration_seconds as time
            from training_executions where user_id = ${userId} and start_time >= ${firstMonday}
            union all
            select executed_at, 0, coalesce(duration_seconds, 0)
            from exercise_executions where user_id = ${userId} and training_execution_id is null and executed_at >= ${firstMonday}
          ) w group by 1
        )
        select ${answer} as answer
        from (
          select count(*)::int as trainings, (count(*) filter (where completed))::int as completed, coalesce(sum(duration_seconds), 0)::float8 as training_time
          from training_executions where user_id = ${userId}
        ) t,
        (select count(*)::int as exercises from exercise_executions where user_id = ${userId}) e,
        (
          select coalesce(sum(duration_seconds), 0)::float8 as exercise_time
          from exercise_executions where user_id = ${userId} and training_execution_id is null
        ) s
      ) metrics`,
    )
    .prepare("user_metrics");
});

export const executionRepository = {
  /** Serializes one user's logging, so two concurrent logs never both claim the same personal record. */
  async lockUser(db: Db, userId: number) {
    await lockForTransaction(db, "executions", userId);
  },

  /** The heaviest completed set the user logged of the exercise so far (their personal record), null before any. */
  async bestWeight(db: Db, userId: number, exerciseId: number): Promise<number | null> {
    const [row] = await db
      .select({ best: personalRecords.maxWeight })
      .from(personalRecords)
      .where(and(eq(personalRecords.userId, userId), eq(personalRecords.exerciseId, exerciseId)));
    return num(row?.best);
  },

  /**
   * Raises the user's personal record on the execution's exercise with an execution just logged (under the user's
   * logging lock): its weight becomes the record when heavier, or as heavy and executed earlier (an execution logged
   * after the fact), or as heavy at the same instant and logged first; its estimate when better.
   */
  async raisePersonalRecord(db: Db, row: ExerciseExecutionRow) {
    if (row.exerciseId === null || row.maxWeight === null) return;
    const held = personalRecords;
    const beaten = sql`(excluded.max_weight, ${held.executedAt}, ${held.exerciseExecutionId}) > (${held.maxWeight}, excluded.executed_at, excluded.exercise_execution_id)`;
    const newerIfBeaten = (column: AnyColumn) => sql`case when ${beaten} then excluded.${sql.identifier(column.name)} else ${column} end`;
    await db
      .insert(personalRecords)
      .values({
        userId: row.userId,
        exerciseId: row.exerciseId,
        exerciseExecutionId: row.id,
        exerciseName: row.exerciseName,
        maxWeight: row.maxWeight,
        executedAt: row.executedAt,
        bestOneRepMax: row.bestOneRepMax,
      })
      .onConflictDoUpdate({
        target: [held.userId, held.exerciseId],
        set: {
          exerciseExecutionId: newerIfBeaten(held.exerciseExecutionId),
          exerciseName: newerIfBeaten(held.exerciseName),
          maxWeight: newerIfBeaten(held.maxWeight),
          executedAt: newerIfBeaten(held.executedAt),
          bestOneRepMax: sql`greatest(${held.bestOneRepMax}, excluded.best_one_rep_max)`,
        },
      });
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

  /** Deletes every execution of a user, their sets and the monthly sums, personal records and completed weeks kept of them. */
  async deleteExecutionsOf(db: Db, userId: number) {
    await db.delete(personalRecords).where(eq(personalRecords.userId, userId));
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

  async findExerciseExecution(db: Db, id: number) {
    const [row] = await db.select().from(exerciseExecutions).where(eq(exerciseExecutions.id, id));
    return row ?? null;
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

  async listTrainingExecutions(db: Db, filter: { userId: number } & TrainingExecutionFilter, request: PageRequest) {
    const where = and(eq(trainingExecutions.userId, filter.userId), ...trainingExecutionConditions(filter));
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(trainingExecutions)
        .where(where)
        .orderBy(...ordering(TRAINING_EXECUTION_SORTS, request, trainingExecutions.id))
        .limit(request.size)
        .offset(request.page * request.size),
      db.select({ n: count() }).from(trainingExecutions).where(where),
    ]);
    return { rows, total: total.n };
  },

  /**
   * The same page of training executions for each of several users, in one prepared statement whatever their number:
   * over the ids asked (in that order), whether each user exists, and its page (trainingExecutionPageJson: whether the
   * caller may read it, its total and rows).
   */
  async trainingExecutionPagesOf(
    db: Db,
    caller: { id: number; isAdmin: boolean },
    userIds: readonly number[],
    filter: TrainingExecutionFilter,
    request: PageRequest,
  ): Promise<TrainingExecutionPageOf[]> {
    if (userIds.length === 0) return [];
    const rows = await trainingExecutionPages(db, trainingExecutionPageShape(caller, filter, request)).execute({
      ...trainingExecutionPageValues(caller, filter, request),
      userIds,
    });
    const pages = new Map(rows.map(({ userId, found, page }) => [userId, { userId, found, ...trainingExecutionPageFromJson(page) }]));
    return userIds.map((id) => pages.get(id)!);
  },

  async listExerciseExecutions(db: Db, filter: { userId: number; exerciseId?: number } & Period, request: PageRequest) {
    const conditions: SQL[] = [eq(exerciseExecutions.userId, filter.userId), ...period(exerciseExecutions.executedAt, filter)];
    if (filter.exerciseId !== undefined) conditions.push(eq(exerciseExecutions.exerciseId, filter.exerciseId));
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      db
        .select()
        .from(exerciseExecutions)
        .where(where)
        .orderBy(...ordering(EXERCISE_EXECUTION_SORTS, request, exerciseExecutions.id))
        .limit(request.size)
        .offset(request.page * request.size),
      db.select({ n: count() }).from(exerciseExecutions).where(where),
    ]);
    return { rows, total: total.n };
  },

  /**
   * Totals, per-exercise figures and the daily series of one user's executions of one training, in one statement
   * answering one row. The two lists come back as JSON built by PostgreSQL: a long history has a thousand days, and
   * one JSON value is far cheaper to carry and decode than a thousand rows of columns (the days as [date, volume,
   * duration] triples, which PostgreSQL builds and Node decodes faster than objects).
   * Per-exercise figures read whole months from the monthly sums and only the range's partial edge months from the
   * executions; daily figures read one covering-index entry per session.
   */
  async trainingStatistics(db: Db, userId: number, trainingId: number, range: Period): Promise<TrainingStatisticsFigures> {
    const inRange = sql`te.user_id = ${userId} and te.training_id = ${trainingId}
      ${range.from ? sql`and te.start_time >= ${iso(range.from)}::timestamptz` : sql``}
      ${range.until ? sql`and te.start_time < ${iso(range.until)}::timestamptz` : sql``}`;
    const months = wholeMonths(range);
    const inWholeMonths = sql`${months.from ? sql`m.month >= ${months.from}::date` : sql`true`} and ${months.until ? sql`m.month < ${months.until}::date` : sql`true`}`;
    const outsideWholeMonths = months.empty
      ? sql`true`
      : sql`not (${months.from ? sql`te.start_time >= ${`${months.from}T00:00:00Z`}::timestamptz` : sql`true`} and ${months.until ? sql`te.start_time < ${`${months.until}T00:00:00Z`}::timestamptz` : sql`true`})`;
    const result = await db.execute(sql`
      with per_exercise as (
        select x.exercise_id, min(x.exercise_name) as exercise_name, sum(x.sets) as sets, sum(x.reps) as reps,
          max(x.max_weight) as max_weight, sum(x.weight_sum) as weight_sum, sum(x.weighted_sets) as weighted_sets, sum(x.volume) as volume
        from (
          select m.exercise_id, m.exercise_name, m.completed_sets as sets, m.total_reps as reps, m.max_weight, m.weight_sum, m.weighted_sets, m.volume
          from training_exercise_months m
          where m.user_id = ${userId} and m.training_id = ${trainingId} and ${months.empty ? sql`false` : inWholeMonths}
          union all
          select ee.exercise_id, ee.exercise_name, ee.completed_sets, ee.total_reps, ee.max_weight, ee.weight_sum, ee.weighted_sets, ee.volume
          from training_executions te join exercise_executions ee on ee.training_execution_id = te.id
          where ${inRange} and ${outsideWholeMonths}
        ) x
        group by x.exercise_id
      ),
      per_day as (
        select (te.start_time at time zone 'UTC')::date as day, count(*) as total, count(*) filter (where te.completed) as completed,
          sum(te.duration_seconds) as duration, sum(te.volume) as volume
        from training_executions te
        where ${inRange}
        group by 1
      )
      select
        coalesce(sum(d.total), 0)::int as total_executions,
        coalesce(sum(d.completed), 0)::int as completed_executions,
        coalesce(round(sum(d.duration) / nullif(sum(d.total), 0), 2), 0)::text as average_duration,
        coalesce(sum(d.volume), 0)::text as total_volume,
        coalesce(json_agg(json_build_array(d.day, d.volume, d.duration) order by d.day), '[]') as progress_data,
        (
          select coalesce(json_agg(json_build_object(
            'exerciseId', e.exercise_id, 'exerciseName', e.exercise_name, 'totalSets', e.sets, 'totalReps', e.reps, 'maxWeight', e.max_weight,
            'averageWeight', case when e.weighted_sets > 0 then round(e.weight_sum / e.weighted_sets, 2) end, 'totalVolume', e.volume
          ) order by e.exercise_name, e.exercise_id), '[]')
          from per_exercise e
        ) as exercise_statistics
      from per_day d`);
    const [row] = rowsOf<{
      total_executions: number;
      completed_executions: number;
      average_duration: string;
      total_volume: string;
      progress_data: unknown;
      exercise_statistics: unknown;
    }>(result);
    return {
      totalExecutions: row.total_executions,
      completedExecutions: row.completed_executions,
      averageDuration: Number(row.average_duration),
      totalVolume: Number(row.total_volume),
      exerciseStatistics: fromJson(row.exercise_statistics) as TrainingStatisticsFigures["exerciseStatistics"],
      progressData: (fromJson(row.progress_data) as [string, number, number][]).map(([date, totalVolume, duration]) => ({ date, totalVolume, duration })),
    };
  },

  /** One user's progress on one exercise, bucketed by UTC day, ISO week (Monday) or month (first day). */
  async exerciseProgress(db: Db, userId: number, exerciseId: number, interval: "DAY" | "WEEK" | "MONTH", range: Period) {
    const bucket =
      interval === "DAY"
        ? sql`(ee.executed_at at time zone 'UTC')::date`
        : interval === "WEEK"
          ? sql`date_trunc('week', ee.executed_at at time zone 'UTC')::date`
          : sql`date_trunc('month', ee.executed_at at time zone 'UTC')::date`;
    return rowsOf<{ day: string; max_weight: string | null; volume: string; sets: number; reps: number; one_rep_max: string | null }>(
      await db.execute(sql`
        select to_char(${bucket}, 'YYYY-MM-DD') as day, max(ee.max_weight)::text as max_weight, sum(ee.volume)::text as volume,
          sum(ee.completed_sets)::float8 as sets, sum(ee.total_reps)::float8 as reps, max(ee.best_one_rep_max)::text as one_rep_max
        from exercise_executions ee
        where ee.user_id = ${userId} and ee.exercise_id = ${exerciseId}
          ${range.from ? sql`and ee.executed_at >= ${iso(range.from)}::timestamptz` : sql``}
          ${range.until ? sql`and ee.executed_at < ${iso(range.until)}::timestamptz` : sql``}
        group by 1 order by 1`),
    );
  },

  /** The user's personal records (of one exercise, or all), by exercise name. */
  async personalRecords(db: Db, userId: number, exerciseId?: number) {
    return db
      .select({
        exerciseId: personalRecords.exerciseId,
        exerciseName: personalRecords.exerciseName,
        value: personalRecords.maxWeight,
        date: personalRecords.executedAt,
        oneRepMax: personalRecords.bestOneRepMax,
      })
      .from(personalRecords)
      .where(and(eq(personalRecords.userId, userId), exerciseId === undefined ? undefined : eq(personalRecords.exerciseId, exerciseId)))
      .orderBy(asc(personalRecords.exerciseName), asc(personalRecords.exerciseId));
  },

  /**
   * A user's metrics (contract §7) as the JSON text of the answer, built whole by PostgreSQL in one statement
   * (`userMetrics`): the 8 ISO weeks of `weeklyProgress` start on `firstMonday`.
   */
  async metricsJson(db: Db, userId: number, firstMonday: Date): Promise<string> {
    const [row] = await userMetrics(db).execute({ userId, firstMonday: iso(firstMonday), firstMondayDay: isoDay(firstMonday) });
    return row.answer;
  },
};
