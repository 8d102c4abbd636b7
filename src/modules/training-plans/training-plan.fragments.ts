import { inArray, sql, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { oneOf } from "../../platform/db/columns.js";
import { DAYS_OF_WEEK, LIVE_ASSIGNMENT_STATUSES, planAssignments, planTrainings } from "./training-plan.table.js";

/*
 * The plan rules other modules' queries embed, as SQL fragments: what a live assignment gives and what a plan
 * schedules stay written here once, and the modules below training plans in the service graph (exercises,
 * trainings) ask them without a service cycle; adherence builds every student's schedule from them in one query.
 */

/**
 * True (as SQL) when a PENDING or ACTIVE assignment of the student includes one of `trainingIds` (a subquery or a
 * column): what lets a student see and execute a plan's trainings and their exercises (contract §4, §7).
 */
export function liveAssignmentIncludes(studentId: Bound<number>, trainingIds: SQL): SQL {
  return sql`exists (
    select 1 from ${planAssignments} join ${planTrainings} on ${planTrainings.planId} = ${planAssignments.planId}
    where ${planAssignments.studentId} = ${studentId} and ${inArray(planAssignments.status, [...LIVE_ASSIGNMENT_STATUSES])}
      and ${planTrainings.trainingId} in (${trainingIds})
  )`;
}

/** The ids of the plans that schedule a training, as an SQL subquery. */
export function planIdsScheduling(trainingId: number): SQL {
  return sql`select ${planTrainings.planId} from ${planTrainings} where ${planTrainings.trainingId} = ${trainingId}`;
}

/** A plan line's day as its ISO weekday number (1 = Monday … 7 = Sunday, as PostgreSQL's `isodow`), as SQL. */
export const planLineIsoWeekday: SQL = sql`array_position(array[${oneOf(DAYS_OF_WEEK)}]::text[], ${planTrainings.dayOfWeek})`;

/**
 * The last day an assignment schedules sessions on, as SQL (contract §12.2): its endDate, for a COMPLETED one the day
 * it was completed, and never after `today` (YYYY-MM-DD). Completing is the last change an assignment row takes (no
 * transition leaves COMPLETED), so a COMPLETED row's updated_at is the moment it was completed. `least` skips nulls.
 */
export function lastScheduledDay(today: string): SQL {
  return sql`least(${today}::date, ${planAssignments.endDate},
    case when ${planAssignments.status} = 'COMPLETED' then (${planAssignments.updatedAt} at time zone 'UTC')::date end)`;
}
