import { and, count, eq, gte, lt, sql, type AnyColumn, type Placeholder, type SQL } from "drizzle-orm";
import { type Db } from "../../platform/db/database.js";
import { isFirstPage, ordering, pageClause, pageOf } from "../../platform/db/pages.js";
import { preparedStatements, type Bound } from "../../platform/db/prepared.js";
import { activityReadableBy } from "../access/links.js";
import { fromJson, jsonRows, rowFromJson } from "../../platform/db/json.js";
import type { PageRequest } from "../../platform/paging.js";
import { users } from "../../tables/user.table.js";
import { exerciseExecutions, trainingExecutions } from "../../tables/execution.table.js";
import type { Period, TrainingExecutionRow } from "./execution.repository.js";

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
 * built by PostgreSQL, `{readable, total, rows}`: whether the caller may read the user's activity (access's rule),
 * how many executions the filter keeps (null when the shape is not `counted`), and the page's rows (summary columns, in the page's order, size and offset,
 * along the user's index); nothing is counted or listed when the caller may not read them. Its values are bound to the
 * placeholders `value` names (trainingExecutionPageValues); `linkShown`, what the enclosing row shows of the caller's
 * link to the user (access's LinkedReader).
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

const trainingExecutionPage = preparedStatements(trainingExecutionPageKey, (db, shape) => {
  const askedId = sql<number>`asked.id`;
  return db
    .select({ found: sql<boolean>`${users.id} is not null`, page: trainingExecutionPageJson(shape, askedId, sql.placeholder) })
    .from(sql`(select ${sql.placeholder("userId")}::int as id) asked`)
    .leftJoin(users, eq(users.id, askedId))
    .prepare("training_execution_page");
});

/**
 * The listings of executions: one user's pages of training and exercise executions (a page of training executions is
 * also read inside the statements that read users, as trainingExecutionPageJson).
 */
export const executionListingRepository = {
  async listTrainingExecutions(db: Db, filter: { userId: number } & TrainingExecutionFilter, request: PageRequest) {
    const where = and(eq(trainingExecutions.userId, filter.userId), ...trainingExecutionConditions(filter));
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select()
          .from(trainingExecutions)
          .where(where)
          .orderBy(...ordering(TRAINING_EXECUTION_SORTS, request, trainingExecutions.id))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(trainingExecutions).where(where),
    ]);
    return { rows, total: total.n };
  },

  /**
   * A user's page of training executions in one prepared statement: whether the user exists, and its page
   * (trainingExecutionPageJson: whether the caller may read it, its total and rows).
   */
  async trainingExecutionPageOf(
    db: Db,
    caller: { id: number; isAdmin: boolean },
    userId: number,
    filter: TrainingExecutionFilter,
    request: PageRequest,
  ): Promise<TrainingExecutionPageOf> {
    const [row] = await trainingExecutionPage(db, trainingExecutionPageShape(caller, filter, request)).execute({
      ...trainingExecutionPageValues(caller, filter, request),
      userId,
    });
    return { userId, found: row.found, ...trainingExecutionPageFromJson(row.page) };
  },

  async listExerciseExecutions(db: Db, filter: { userId: number; exerciseId?: number } & Period, request: PageRequest) {
    const conditions: SQL[] = [eq(exerciseExecutions.userId, filter.userId), ...period(exerciseExecutions.executedAt, filter)];
    if (filter.exerciseId !== undefined) conditions.push(eq(exerciseExecutions.exerciseId, filter.exerciseId));
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select()
          .from(exerciseExecutions)
          .where(where)
          .orderBy(...ordering(EXERCISE_EXECUTION_SORTS, request, exerciseExecutions.id))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(exerciseExecutions).where(where),
    ]);
    return { rows, total: total.n };
  },
};
