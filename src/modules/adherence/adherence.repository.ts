import { inArray, sql, type Placeholder, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { idArray, isAnyOf } from "../../platform/db/id-lists.js";
import { fromJson } from "../../platform/db/json.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import type { PageRequest, SortOrder } from "../../platform/paging.js";
import type { AdherenceDto } from "./adherence.dto.js";
import { linkedStudentIds } from "../access/links.js";
import { changedSince, readSnapshot } from "../events/changed-since.js";
import { completedWeekBlocks, completedWeeksIn } from "../executions/execution.fragments.js";
import { COMPLETED_WEEK_LEVELS, completedTrainingWeeks, dayNumber, isoWeekNumber, trainingExecutions } from "../../tables/execution.table.js";
import { lastScheduledDay, planLineIsoWeekday } from "../training-plans/training-plan.fragments.js";
import { planAssignments, planTrainings, SCHEDULING_ASSIGNMENT_STATUSES, trainingPlans } from "../../tables/training-plan.table.js";
import { users } from "../../tables/user.table.js";

/** The days a reading of adherence covers: YYYY-MM-DD, UTC, each range inclusive. */
export interface AdherenceDays {
  today: string;
  /** The window's first day; it ends today. */
  from: string;
  /** The window of the same length before it. */
  previousFrom: string;
  previousTo: string;
  /** Monday of today's ISO week. */
  weekStart: string;
}

/**
 * The statements are prepared once per shape (their text is long: building it was the larger part of a request's
 * CPU in the service), with these placeholders for the days and the students.
 */
const DAYS = {
  today: sql.placeholder("today"),
  from: sql.placeholder("from"),
  previousFrom: sql.placeholder("previousFrom"),
  previousTo: sql.placeholder("previousTo"),
  weekStart: sql.placeholder("weekStart"),
} satisfies Record<keyof AdherenceDays, Placeholder>;
/** Whose adherence is read: some users (the placeholder `ids`), or a trainer's ACTIVE students (`trainerId`). */
type StudentsKind = "ids" | "trainer";

/** One student's figures: the window, the window before, and today's ISO week so far. */
export interface AdherenceSummaryRow {
  student_id: number;
  student_name: string;
  scheduled: number;
  completed: number;
  adherence: number | null;
  previous_adherence: number | null;
  week_scheduled: number;
  week_completed: number;
  last_training_at: Date | string | null;
  has_active_assignment: boolean;
}

export interface AdherenceDetailRow extends AdherenceSummaryRow {
  weeks: AdherenceDto["weeks"];
  assignments: AdherenceDto["assignments"];
}

export const STUDENT_ADHERENCE_SORTS: Record<string, SQL> = {
  adherence: sql`adherence`,
  studentName: sql`student_name`,
  lastTrainingAt: sql`last_training_at`,
};

function studentCondition(students: StudentsKind): SQL {
  return students === "ids" ? isAnyOf(users.id, sql.placeholder("ids")) : sql`${users.id} in (${linkedStudentIds(sql.placeholder("trainerId"))})`;
}

/** completed / scheduled rounded to 3 decimals, null when nothing is scheduled (contract §12.2). */
const ratio = (completed: SQL, scheduled: SQL) => sql`case when ${scheduled} > 0 then round(${completed}::numeric / ${scheduled}, 3)::float8 end`;

/** A day (YYYY-MM-DD) as its day number (SQL): days from Monday 0001-01-01, so that its ISO week is the number over 7. */
const day = (isoDay: Placeholder) => dayNumber(sql`${isoDay}::date`);
/** A day's ISO week, numbered as the executions' index numbers them (SQL). */
const weekOf = (isoDay: Placeholder) => sql`(${day(isoDay)} / 7)`;

/**
 * The sessions a pair's lines hold in week `week` within a range (SQL): those whose first week of the range is at most
 * `week`, less those whose last week is before it. `froms` and `tos` are sorted arrays of the lines' first and last
 * weeks (lines with sessions in the range only), so `width_bucket` counts them by binary search; a range without
 * lines is null.
 */
const sessionsInWeek = (week: SQL, froms: SQL, tos: SQL) => sql`coalesce(width_bucket(${week}, ${froms}), 0) - coalesce(width_bucket(${week} - 1, ${tos}), 0)`;

/**
 * The schedule and what was done of it, set-based over every student at once (contract §12.2), as CTEs. Days and ISO
 * weeks are numbers (`dayNumber`: day 7w is the Monday of week w), and no day or week is expanded:
 * - spans: each ACTIVE or COMPLETED assignment's days from the previous window's start to its last scheduled day;
 * - lines: each plan line of a span, with the weeks whose session (its weekday, day 7w + weekday) falls in each range
 *   (the window, the previous window, today's week so far): a range [lo, hi] of days holds the weeks
 *   (lo − weekday + 6) / 7 … (hi − weekday) / 7, so a line's sessions in it are counted in closed form;
 * - pairs: per student and training, its lines' first and last weeks in the window and in the previous one, as sorted
 *   arrays, and its sessions in today's week;
 * - completed: per pair, the completed executions of that training by the student per ISO week, read from the
 *   executions' index in week order (an index range per pair, a few dozen entries), each week's done sessions the
 *   lesser of its executions and the pair's sessions that week, counted for each range on its own; a pair whose lines
 *   share a week counts them from its completed weeks (`completedTrainingWeeks`) instead.
 */
function scheduleOf(students: StudentsKind, days: typeof DAYS): SQL {
  /** A week's done sessions of a pair in a range: its executions, at most the pair's sessions that week. */
  const done = (range: "window" | "previous") =>
    sql`least(d.executions, ${sessionsInWeek(sql`d.week`, sql.raw(`p.${range}_froms`), sql.raw(`p.${range}_tos`))})`;
  const executedWeeks = isoWeekNumber(trainingExecutions.startTime);
  /** A pair's completed executions in the ranges read, an index range in week order (FROM and WHERE). */
  const executionsOfPair = sql`from ${trainingExecutions}
    where ${trainingExecutions.userId} = p.student_id and ${trainingExecutions.completed} and ${trainingExecutions.trainingId} = p.training_id
      and ${executedWeeks} between ${weekOf(days.previousFrom)} and ${weekOf(days.today)}`;
  /**
   * Nearly every pair's lines in a range share a week (one assignment: the training on one to three weekdays), and
   * then the weeks with at least j sessions are one stretch, from the j-th earliest first week to the j-th latest last
   * week. A week's done sessions, the lesser of its executions and its sessions, is the number of levels j reached by
   * both; so a range's done sessions are, for each level j, the weeks of that stretch in which the student completed
   * the training at least j times: bit counts of the completed weeks kept at logging time (`completedTrainingWeeks`,
   * COMPLETED_WEEK_LEVELS levels), without reading the executions. Other pairs count per week from the executions.
   */
  const shareAWeek = (range: "window" | "previous") => {
    const [froms, tos] = [sql.raw(`p.${range}_froms`), sql.raw(`p.${range}_tos`)];
    return sql`(${froms} is null or (cardinality(${froms}) <= ${sql.raw(String(COMPLETED_WEEK_LEVELS))} and ${froms}[cardinality(${froms})] <= ${tos}[1]))`;
  };
  const countedByLevels = sql`${shareAWeek("window")} and ${shareAWeek("previous")} and p.week_sessions <= ${sql.raw(String(COMPLETED_WEEK_LEVELS))}`;
  const levels = Array.from({ length: COMPLETED_WEEK_LEVELS }, (_, i) => i + 1);
  /** A range's done sessions of the pair in one row of its completed weeks (null for none). */
  const doneByLevels = (range: "window" | "previous") => {
    const [froms, tos] = [sql.raw(`p.${range}_froms`), sql.raw(`p.${range}_tos`)];
    const level = (j: number) =>
      sql`coalesce(${completedWeeksIn("w", sql`${froms}[${sql.raw(String(j))}]`, sql`${tos}[cardinality(${tos}) - ${sql.raw(String(j - 1))}]`, j)}, 0)`;
    return sql.join(levels.map(level), sql` + `);
  };
  const today = weekOf(days.today);
  const doneToday = sql.join(
    levels.map((j) => sql`case when p.week_sessions >= ${sql.raw(String(j))} then ${completedWeeksIn("w", today, today, j)} else 0 end`),
    sql` + `,
  );
  return sql`
    students as (
      select ${users.id} as student_id, ${users.name} as student_name from ${users} where ${studentCondition(students)}
    ),
    spans as (
      select ${planAssignments.id} as assignment_id, ${planAssignments.studentId} as student_id, ${planAssignments.planId} as plan_id,
        ${planAssignments.status} as status, ${planAssignments.startDate} as start_date, ${dayNumber(planAssignments.startDate)} as start_day,
        ${dayNumber(sql`greatest(${planAssignments.startDate}, ${days.previousFrom}::date)`)} as first_day,
        ${dayNumber(lastScheduledDay(days.today))} as last_day
      from ${planAssignments}
      where ${planAssignments.studentId} in (select student_id from students)
        and ${inArray(planAssignments.status, [...SCHEDULING_ASSIGNMENT_STATUSES])}
    ),
    lines as (
      select sp.assignment_id, sp.student_id, sp.start_date, ${planTrainings.trainingId} as training_id,
        (greatest(sp.first_day, ${day(days.from)}) - d.weekday + 6) / 7 as window_from,
        (sp.last_day - d.weekday) / 7 as window_to,
        (sp.first_day - d.weekday + 6) / 7 as previous_from,
        (least(sp.last_day, ${day(days.previousTo)}) - d.weekday) / 7 as previous_to,
        (greatest(sp.first_day, ${day(days.weekStart)}) - d.weekday + 6) / 7 as week_from
      from spans sp
      join ${planTrainings} on ${planTrainings.planId} = sp.plan_id
      cross join lateral (select ${planLineIsoWeekday} - 1 as weekday) d
      where sp.first_day <= sp.last_day
    ),
    scheduled as (
      select student_id,
        sum(greatest(0, window_to - window_from + 1))::int as scheduled,
        sum(greatest(0, previous_to - previous_from + 1))::int as previous_scheduled,
        sum(greatest(0, window_to - week_from + 1))::int as week_scheduled
      from lines
      group by student_id
    ),
    pairs as (
      select student_id, training_id,
        array_agg(window_from order by window_from) filter (where window_from <= window_to) as window_froms,
        array_agg(window_to order by window_to) filter (where window_from <= window_to) as window_tos,
        array_agg(previous_from order by previous_from) filter (where previous_from <= previous_to) as previous_froms,
        array_agg(previous_to order by previous_to) filter (where previous_from <= previous_to) as previous_tos,
        count(*) filter (where week_from <= window_to) as week_sessions
      from lines
      group by student_id, training_id
    ),
    completed as (
      select student_id, sum(completed)::int as completed, sum(previous_completed)::int as previous_completed, sum(week_completed)::int as week_completed
      from (
        select p.student_id, f.*
        from pairs p
        cross join lateral (
          select coalesce(sum(${doneByLevels("window")}), 0) as completed, coalesce(sum(${doneByLevels("previous")}), 0) as previous_completed,
            coalesce(sum(${doneToday}), 0) as week_completed
          from ${completedTrainingWeeks} w
          where ${completedWeekBlocks("w", sql`p.student_id`, sql`p.training_id`, weekOf(days.previousFrom), weekOf(days.today))}
        ) f
        where ${countedByLevels}
        union all
        select p.student_id, f.*
        from pairs p
        cross join lateral (
          select sum(${done("window")}) as completed, sum(${done("previous")}) as previous_completed,
            sum(least(d.executions, p.week_sessions)) filter (where d.week = ${weekOf(days.today)}) as week_completed
          from (select ${executedWeeks} as week, count(*) as executions ${executionsOfPair} group by 1) d
        ) f
        where not (${countedByLevels})
      ) by_pair
      group by student_id
    ),
    assigned as (
      select student_id, bool_or(status = 'ACTIVE') as has_active_assignment from spans group by student_id
    ),
    summaries as (
      select s.student_id, s.student_name,
        coalesce(f.scheduled, 0) as scheduled, coalesce(c.completed, 0) as completed,
        ${ratio(sql`coalesce(c.completed, 0)`, sql`f.scheduled`)} as adherence,
        ${ratio(sql`coalesce(c.previous_completed, 0)`, sql`f.previous_scheduled`)} as previous_adherence,
        coalesce(f.week_scheduled, 0) as week_scheduled, coalesce(c.week_completed, 0) as week_completed,
        (
          select max(e.start_time) from ${trainingExecutions} e
          where e.user_id = s.student_id and e.completed and e.start_time < (${days.today}::date + 1)::timestamp at time zone 'UTC'
        ) as last_training_at,
        coalesce(a.has_active_assignment, false) as has_active_assignment
      from students s
      left join scheduled f on f.student_id = s.student_id
      left join completed c on c.student_id = s.student_id
      left join assigned a on a.student_id = s.student_id
    )`;
}

/**
 * The window's ISO weeks per student, and each assignment's share: a week's done sessions of a training go to the
 * assignments scheduling it, the earliest started first, so the assignments add up to the student's figures. Only
 * the window's weeks (at most 14) are expanded, one row per line and week.
 */
function breakdownOf(days: typeof DAYS): SQL {
  return sql`
    window_weeks as (
      select week from generate_series(${weekOf(days.from)}, ${weekOf(days.today)}) week
    ),
    sessions as (
      select l.assignment_id, l.student_id, l.start_date, l.training_id, ww.week
      from lines l join window_weeks ww on ww.week between l.window_from and l.window_to
    ),
    done as (
      select ${trainingExecutions.userId} as student_id, ${trainingExecutions.trainingId} as training_id,
        ${isoWeekNumber(trainingExecutions.startTime)} as week, count(*) as executions
      from ${trainingExecutions}
      where ${trainingExecutions.userId} = any(array(select student_id from students)) and ${trainingExecutions.completed}
        and ${isoWeekNumber(trainingExecutions.startTime)} between ${weekOf(days.from)} and ${weekOf(days.today)}
      group by 1, 2, 3
    ),
    weekly as (
      select s.student_id, s.training_id, s.week, count(*) as scheduled, coalesce(min(d.executions), 0) as executions
      from sessions s left join done d on d.student_id = s.student_id and d.training_id = s.training_id and d.week = s.week
      group by s.student_id, s.training_id, s.week
    ),
    student_weeks as (
      select s.student_id, ww.week, coalesce(sum(w.scheduled), 0)::int as scheduled, coalesce(sum(least(w.scheduled, w.executions)), 0)::int as completed
      from students s cross join window_weeks ww left join weekly w on w.student_id = s.student_id and w.week = ww.week
      group by s.student_id, ww.week
    ),
    weeks_of as (
      select student_id,
        json_agg(json_build_object('weekStart', to_char('0001-01-01'::date + 7 * week, 'YYYY-MM-DD'), 'scheduled', scheduled, 'completed', completed) order by week) as weeks
      from student_weeks
      group by student_id
    ),
    assignment_weekly as (
      select assignment_id, student_id, start_date, training_id, week, count(*) as scheduled
      from sessions
      group by 1, 2, 3, 4, 5
    ),
    assignment_done as (
      select a.assignment_id, a.scheduled,
        greatest(0, least(a.scheduled, least(w.scheduled, w.executions)
          - (sum(a.scheduled) over (partition by a.student_id, a.training_id, a.week order by a.start_date, a.assignment_id) - a.scheduled))) as completed
      from assignment_weekly a join weekly w on w.student_id = a.student_id and w.training_id = a.training_id and w.week = a.week
    ),
    assignment_figures as (
      select sp.assignment_id, sp.student_id, sp.plan_id, sp.start_date,
        coalesce(sum(ad.scheduled), 0)::int as scheduled, coalesce(sum(ad.completed), 0)::int as completed
      from spans sp left join assignment_done ad on ad.assignment_id = sp.assignment_id
      where sp.last_day >= ${day(days.from)} and sp.start_day <= sp.last_day
      group by sp.assignment_id, sp.student_id, sp.plan_id, sp.start_date
    ),
    assignments_of as (
      select af.student_id, json_agg(json_build_object(
        'assignmentId', af.assignment_id, 'planId', af.plan_id, 'planName', p.name, 'scheduled', af.scheduled, 'completed', af.completed,
        'adherence', ${ratio(sql`af.completed`, sql`af.scheduled`)}
      ) order by af.start_date, af.assignment_id) as assignments
      from assignment_figures af join ${trainingPlans} p on p.id = af.plan_id
      group by af.student_id
    )`;
}

/**
 * The rows of the subquery `sm`, in `order`, as one JSON array (one row, one field): a hundred students' rows are one
 * value to decode, not a hundred rows for the driver and drizzle to map field by field.
 */
const rowsJson = (order: SQL) => ({ rows: sql<unknown>`coalesce(json_agg(sm order by ${order}), '[]')` });

const detailStatement = preparedStatement((db) =>
  db
    .select(rowsJson(sql`sm.student_id`))
    .from(
      sql`(
        with ${scheduleOf("ids", DAYS)}, ${breakdownOf(DAYS)}
        select sm.*, w.weeks, coalesce(a.assignments, '[]') as assignments
        from summaries sm join weeks_of w on w.student_id = sm.student_id left join assignments_of a on a.student_id = sm.student_id
      ) sm`,
    )
    .prepare("adherence_details"),
);

interface SummaryShape {
  sort: SortOrder[];
  paged: boolean;
}

/**
 * The students' figures as `summaries` reads them, with what tells whether they still hold: the trainer's ACTIVE
 * students they cover (ascending) and the snapshot they were read under (events/changed-since.ts).
 */
export interface TrainerSummaries {
  rows: AdherenceSummaryRow[];
  studentIds: number[];
  snapshot: string;
}

const summaryStatements = preparedStatements(
  (shape: SummaryShape) => `${shape.sort.map((s) => `${s.field} ${s.direction}`).join(",")} ${shape.paged ? "paged" : "all"}`,
  (db, shape) => {
    const order = [
      ...shape.sort.map((s) => sql`${STUDENT_ADHERENCE_SORTS[s.field]} ${sql.raw(s.direction)} nulls last`),
      sql`student_name asc`,
      sql`student_id asc`,
    ];
    const page = shape.paged ? sql`limit ${sql.placeholder("size")} offset ${sql.placeholder("offset")}` : sql``;
    const orderBy = sql.join(order, sql`, `);
    return db
      .select({ rows: sql<unknown>`read.rows`, studentIds: sql<unknown>`read.student_ids`, snapshot: sql<string>`read.snapshot` })
      .from(
        sql`(
          with ${scheduleOf("trainer", DAYS)}
          select (select ${rowsJson(orderBy).rows} from (select * from summaries order by ${orderBy} ${page}) sm) as rows,
            (select coalesce(json_agg(student_id order by student_id), '[]') from students) as student_ids,
            ${readSnapshot} as snapshot
        ) read`,
      )
      .prepare("adherence_summaries");
  },
);

/** Whether a trainer's summaries read under a snapshot still hold: its ACTIVE students now, and any change to them or it since. */
const sinceStatement = preparedStatement((db) =>
  db
    .select({
      studentIds: sql<unknown>`(select coalesce(json_agg(l.id order by l.id), '[]') from (${linkedStudentIds(sql.placeholder("trainerId"))}) l(id))`,
      changed: changedSince(idArray(sql.placeholder("userIds")), sql`${sql.placeholder("snapshot")}`),
    })
    .from(sql`(select) as one`)
    .prepare("adherence_summaries_since"),
);

export const adherenceRepository = {
  /** Each student's figures with its weeks and assignments (in the `weeks` and `assignments` JSON columns), in one query. */
  async details(db: Db, ids: readonly number[], days: AdherenceDays): Promise<AdherenceDetailRow[]> {
    if (ids.length === 0) return [];
    const [{ rows }] = await detailStatement(db).execute({ ids: [...new Set(ids)], ...days });
    return fromJson(rows) as AdherenceDetailRow[];
  },

  /**
   * The students' figures in the order asked (nulls last, then by name), a page of them or all of them, with the
   * students they cover and the snapshot they were read under.
   */
  async summaries(db: Db, trainerId: number, days: AdherenceDays, request: Pick<PageRequest, "sort"> & Partial<PageRequest>): Promise<TrainerSummaries> {
    const { size } = request;
    const statement = summaryStatements(db, { sort: request.sort, paged: size !== undefined });
    const [read] = await statement.execute({ trainerId, ...days, ...(size === undefined ? {} : { size, offset: (request.page ?? 0) * size }) });
    return { rows: fromJson(read.rows) as AdherenceSummaryRow[], studentIds: fromJson(read.studentIds) as number[], snapshot: read.snapshot };
  },

  /**
   * Whether summaries of the trainer read under `snapshot` for `studentIds` still hold: the same ACTIVE students now,
   * and nothing of theirs or the trainer's changed since.
   */
  async stillHold(db: Db, trainerId: number, { studentIds, snapshot }: Omit<TrainerSummaries, "rows">): Promise<boolean> {
    const [now] = await sinceStatement(db).execute({ trainerId, userIds: [trainerId, ...studentIds], snapshot });
    const current = fromJson(now.studentIds) as number[];
    return !now.changed && current.length === studentIds.length && current.every((id, i) => id === studentIds[i]);
  },
};
