import { sql, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { oneOf } from "../../platform/db/columns.js";
import { assignmentParties, isLiveAssignment, livePlanIdsOf } from "../access/assignments.js";
import { DAYS_OF_WEEK, planAssignments, planTrainings, trainingPlans } from "../../tables/training-plan.table.js";

/*
 * The plan shapes other modules' queries embed, as SQL fragments: adherence builds every student's schedule from them
 * in one query. What a live assignment gives its parties is access's rule (src/modules/access/assignments.ts).
 */

/** What holds what is access's (its rules walk it); the writers that name an audience by it ask here too. */
export { planIdsScheduling } from "../access/holdings.js";

/** A plan line's day as its ISO weekday number (1 = Monday … 7 = Sunday, as PostgreSQL's `isodow`), as SQL. */
export const planLineIsoWeekday: SQL = sql`array_position(array[${oneOf(DAYS_OF_WEEK)}]::text[], ${planTrainings.dayOfWeek})`;

/**
 * The last day an assignment schedules sessions on, as SQL (contract §12.2): its endDate, for a COMPLETED one the day
 * it was completed, and never after `today` (YYYY-MM-DD). Completing is the last change an assignment row takes (no
 * transition leaves COMPLETED), so a COMPLETED row's updated_at is the moment it was completed. `least` skips nulls.
 */
export function lastScheduledDay(today: Bound<string>): SQL {
  return sql`least(${today}::date, ${planAssignments.endDate},
    case when ${planAssignments.status} = 'COMPLETED' then (${planAssignments.updatedAt} at time zone 'UTC')::date end)`;
}

/*
 * Who hears of plans, their trainings and exercises, and assignments in the change feed (contract §13.3). A plan, and
 * every training it schedules with their exercises, is in the feed of its creator and of both parties (student and
 * trainer) of its PENDING or ACTIVE assignments; an assignment in the feed of both its parties, whatever its status.
 * Audiences are rows (entity id, user id); "in the feed of" are id subqueries.
 */

/** (plan id, user id): both parties of every PENDING or ACTIVE assignment of the plans in `planIds` (a subquery). */
export function livePartiesOfPlans(planIds: SQL): SQL {
  return sql`select ${planAssignments.planId}, party.user_id from ${planAssignments} ${assignmentParties} where ${planAssignments.planId} in (${planIds}) and ${isLiveAssignment}`;
}

/** The trainings `planIds` (a subquery) schedule, as an id subquery. */
export function trainingIdsOfPlans(planIds: SQL): SQL {
  return sql`select ${planTrainings.trainingId} from ${planTrainings} where ${planTrainings.planId} in (${planIds})`;
}

/** (assignment id, user id): both parties of every assignment `userId` is a party to (their DTOs show its name). */
export function assignmentPartiesWith(userId: number): SQL {
  return sql`select ${planAssignments.id}, party.user_id from ${planAssignments} ${assignmentParties}
    where ${planAssignments.studentId} = ${userId} or ${planAssignments.personalId} = ${userId}`;
}

/** The plans in `userId`'s feed, as an id subquery. */
export function plansInFeedOf(userId: Bound<number>): SQL {
  return sql`select ${trainingPlans.id} from ${trainingPlans} where ${trainingPlans.createdBy} = ${userId} union ${livePlanIdsOf(userId)}`;
}

/** (plan id, user id): who hears of the plans of `planIds` (a subquery). */
export function planFeedAudience(planIds: SQL): SQL {
  return sql`select ${trainingPlans.id}, ${trainingPlans.createdBy} from ${trainingPlans} where ${trainingPlans.id} in (${planIds})
    union all ${livePartiesOfPlans(planIds)}`;
}

/** (training id, user id): each training the plan of each (plan id, user id) row of `pairs` schedules, for that user. */
export function planTrainingsFor(pairs: SQL): SQL {
  return sql`select ${planTrainings.trainingId}, pair.user_id from (${pairs}) as pair(plan_id, user_id)
    join ${planTrainings} on ${planTrainings.planId} = pair.plan_id`;
}

/** (assignment id, user id): both parties of every assignment of the plans in `planIds` (their DTOs show the plan's name). */
export function assignmentPartiesOfPlans(planIds: SQL): SQL {
  return sql`select ${planAssignments.id}, party.user_id from ${planAssignments} ${assignmentParties} where ${planAssignments.planId} in (${planIds})`;
}

/** The assignments `userId` is a party to, as an id subquery. */
export function assignmentsInFeedOf(userId: number): SQL {
  return sql`select ${planAssignments.id} from ${planAssignments} where ${planAssignments.studentId} = ${userId} or ${planAssignments.personalId} = ${userId}`;
}
