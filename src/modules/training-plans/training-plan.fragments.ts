import { inArray, sql, type SQL } from "drizzle-orm";
import { LIVE_ASSIGNMENT_STATUSES, planAssignments, planTrainings } from "./training-plan.table.js";

/*
 * The plan rules other modules' queries embed, as SQL fragments: what a live assignment gives and what a plan
 * schedules stay written here once, and the modules below training plans in the service graph (exercises,
 * trainings) ask them without a service cycle.
 */

/**
 * True (as SQL) when a PENDING or ACTIVE assignment of the student includes one of `trainingIds` (a subquery or a
 * column): what lets a student see and execute a plan's trainings and their exercises (contract §4, §7).
 */
export function liveAssignmentIncludes(studentId: number, trainingIds: SQL): SQL {
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
