import { count, inArray, sql, type SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import type { PageRequest } from "../../platform/paging.js";
import { linkedStudentIds } from "../coaching/coaching.fragments.js";
import { trainingExecutions } from "../executions/execution.table.js";
import { lastScheduledDay, planLineIsoWeekday } from "../training-plans/training-plan.fragments.js";
import { planAssignments, planTrainings, SCHEDULING_ASSIGNMENT_STATUSES, trainingPlans } from "../training-plans/training-plan.table.js";
import { users } from "../users/user.table.js";

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

/** Whose adherence is read: some users, or a trainer's ACTIVE students. */
export type AdherenceStudents = { ids: readonly number[] } | { trainerId: number };

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
  weeks: unknown;
  assignments: unknown;
}

export const STUDENT_ADHERENCE_SORTS: Record<string, SQL> = {
  adherence: sql`adherence`,
  studentName: sql`student_name`,
  lastTrainingAt: sql`last_training_at`,
};

const rowsOf = <T>(result: unknown): T[] => (Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []));

function studentCondition(students: AdherenceStudents): SQL {
  return "ids" in students ? inArray(users.id, [...students.ids]) : sql`${users.id} in (${linkedStudentIds(students.trainerId)})`;
}

/** completed / scheduled rounded to 3 decimals, null when nothing is scheduled (contract §12.2). */
const ratio = (completed: SQL, scheduled: SQL) => sql`case when ${scheduled} > 0 then round(${completed}::numeric / ${scheduled}, 3)::float8 end`;

/**
 * The schedule and what was done of it, set-based over every student at once (contract §12.2), as CTEs:
 * - spans: each ACTIVE or COMPLETED assignment's days from the previous window's start to its last scheduled day;
 * - sessions: one row per plan line and date of its weekday in a span (its first such date, then every 7 days);
 * - matched: per student, ISO week and training, the sessions in the window, in the previous window and in today's
 *   week, beside the completed executions of that training the student started in that week (UTC).
 * A week's done sessions of a training are the lesser of the two, counted for each range on its own.
 */
function scheduleOf(students: AdherenceStudents, days: AdherenceDays): SQL {
  return sql`
    students as (
      select ${users.id} as student_id, ${users.name} as student_name from ${users} where ${studentCondition(students)}
    ),
    spans as (
      select ${planAssignments.id} as assignment_id, ${planAssignments.studentId} as student_id, ${planAssignments.planId} as plan_id,
        ${planAssignments.status} as status, ${planAssignments.startDate} as start_date,
        greatest(${planAssignments.startDate}, ${days.previousFrom}::date) as first_day,
        ${lastScheduledDay(days.today)} as last_day
      from ${planAssignments}
      where ${planAssignments.studentId} in (select student_id from students)
        and ${inArray(planAssignments.status, [...SCHEDULING_ASSIGNMENT_STATUSES])}
    ),
    sessions as (
      select sp.assignment_id, sp.student_id, sp.start_date, ${planTrainings.trainingId} as training_id, first_session.day + 7 * k as day
      from spans sp
      join ${planTrainings} on ${planTrainings.planId} = sp.plan_id
      cross join lateral (select sp.first_day + (${planLineIsoWeekday} - extract(isodow from sp.first_day)::int + 7) % 7 as day) first_session
      cross join lateral generate_series(0, (sp.last_day - first_session.day) / 7) k
      where first_session.day <= sp.last_day
    ),
    weekly as (
      select student_id, training_id, date_trunc('week', day::timestamp)::date as week,
        count(*) filter (where day >= ${days.from}::date) as scheduled,
        count(*) filter (where day <= ${days.previousTo}::date) as previous_scheduled,
        count(*) filter (where day >= ${days.weekStart}::date) as week_scheduled
      from sessions
      group by 1, 2, 3
    ),
    done as (
      select e.user_id as student_id, e.training_id, date_trunc('week', e.start_time at time zone 'UTC')::date as week, count(*) as executions
      from ${trainingExecutions} e
      where e.user_id in (select student_id from students) and e.completed
        and e.start_time >= date_trunc('week', ${days.previousFrom}::timestamp) at time zone 'UTC'
        and e.start_time < (${days.weekStart}::date + 7)::timestamp at time zone 'UTC'
      group by 1, 2, 3
    ),
    matched as (
      select w.*, coalesce(d.executions, 0) as executions
      from weekly w left join done d on d.student_id = w.student_id and d.training_id = w.training_id and d.week = w.week
    ),
    figures as (
      select student_id,
        sum(scheduled)::int as scheduled, sum(least(scheduled, executions))::int as completed,
        sum(previous_scheduled)::int as previous_scheduled, sum(least(previous_scheduled, executions))::int as previous_completed,
        sum(week_scheduled)::int as week_scheduled, sum(least(week_scheduled, executions))::int as week_completed
      from matched
      group by student_id
    ),
    assigned as (
      select student_id, bool_or(status = 'ACTIVE') as has_active_assignment from spans group by student_id
    ),
    summaries as (
      select s.student_id, s.student_name,
        coalesce(f.scheduled, 0) as scheduled, coalesce(f.completed, 0) as completed,
        ${ratio(sql`f.completed`, sql`f.scheduled`)} as adherence,
        ${ratio(sql`f.previous_completed`, sql`f.previous_scheduled`)} as previous_adherence,
        coalesce(f.week_scheduled, 0) as week_scheduled, coalesce(f.week_completed, 0) as week_completed,
        (
          select max(e.start_time) from ${trainingExecutions} e
          where e.user_id = s.student_id and e.completed and e.start_time < (${days.today}::date + 1)::timestamp at time zone 'UTC'
        ) as last_training_at,
        coalesce(a.has_active_assignment, false) as has_active_assignment
      from students s left join figures f on f.student_id = s.student_id left join assigned a on a.student_id = s.student_id
    )`;
}

/**
 * The window's ISO weeks per student, and each assignment's share: a week's done sessions of a training go to the
 * assignments scheduling it, the earliest started first, so the assignments add up to the student's figures.
 */
function breakdownOf(days: AdherenceDays): SQL {
  return sql`
    window_weeks as (
      select w::date as week from generate_series(date_trunc('week', ${days.from}::timestamp), ${days.today}::timestamp, interval '1 week') w
    ),
    student_weeks as (
      select s.student_id, ww.week, coalesce(sum(m.scheduled), 0)::int as scheduled, coalesce(sum(least(m.scheduled, m.executions)), 0)::int as completed
      from students s cross join window_weeks ww left join matched m on m.student_id = s.student_id and m.week = ww.week
      group by s.student_id, ww.week
    ),
    weeks_of as (
      select student_id,
        json_agg(json_build_object('weekStart', to_char(week, 'YYYY-MM-DD'), 'scheduled', scheduled, 'completed', completed) order by week) as weeks
      from student_weeks
      group by student_id
    ),
    assignment_weekly as (
      select assignment_id, student_id, start_date, training_id, date_trunc('week', day::timestamp)::date as week, count(*) as scheduled
      from sessions
      where day >= ${days.from}::date
      group by 1, 2, 3, 4, 5
    ),
    assignment_done as (
      select a.assignment_id, a.scheduled,
        greatest(0, least(a.scheduled, least(m.scheduled, m.executions)
          - (sum(a.scheduled) over (partition by a.student_id, a.training_id, a.week order by a.start_date, a.assignment_id) - a.scheduled))) as completed
      from assignment_weekly a join matched m on m.student_id = a.student_id and m.training_id = a.training_id and m.week = a.week
    ),
    assignment_figures as (
      select sp.assignment_id, sp.student_id, sp.plan_id, sp.start_date,
        coalesce(sum(ad.scheduled), 0)::int as scheduled, coalesce(sum(ad.completed), 0)::int as completed
      from spans sp left join assignment_done ad on ad.assignment_id = sp.assignment_id
      where sp.last_day >= ${days.from}::date and sp.start_date <= sp.last_day
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

export const adherenceRepository = {
  /** Each student's figures with its weeks and assignments (in the `weeks` and `assignments` JSON columns), in one query. */
  async details(db: Db, ids: readonly number[], days: AdherenceDays): Promise<AdherenceDetailRow[]> {
    if (ids.length === 0) return [];
    return rowsOf<AdherenceDetailRow>(
      await db.execute(sql`
        with ${scheduleOf({ ids }, days)}, ${breakdownOf(days)}
        select sm.*, w.weeks, coalesce(a.assignments, '[]') as assignments
        from summaries sm join weeks_of w on w.student_id = sm.student_id left join assignments_of a on a.student_id = sm.student_id`),
    );
  },

  /** The students' figures in the order asked (nulls last, then by name), a page of them or all of them. */
  async summaries(
    db: Db,
    students: AdherenceStudents,
    days: AdherenceDays,
    request: Pick<PageRequest, "sort"> & Partial<PageRequest>,
  ): Promise<AdherenceSummaryRow[]> {
    const order = [
      ...request.sort.map((s) => sql`${STUDENT_ADHERENCE_SORTS[s.field]} ${sql.raw(s.direction)} nulls last`),
      sql`student_name asc`,
      sql`student_id asc`,
    ];
    const page = request.size === undefined ? sql`` : sql`limit ${request.size} offset ${(request.page ?? 0) * request.size}`;
    return rowsOf<AdherenceSummaryRow>(
      await db.execute(sql`
        with ${scheduleOf(students, days)}
        select * from summaries order by ${sql.join(order, sql`, `)} ${page}`),
    );
  },

  async countStudents(db: Db, students: AdherenceStudents): Promise<number> {
    const [row] = await db.select({ n: count() }).from(users).where(studentCondition(students));
    return row.n;
  },
};
