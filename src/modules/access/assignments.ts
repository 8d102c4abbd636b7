import { inArray, sql, type SQL } from "drizzle-orm";
import { oneOf } from "../../platform/db/columns.js";
import type { Bound } from "../../platform/db/prepared.js";
import { trainingExercises } from "../../tables/training.table.js";
import { LIVE_ASSIGNMENT_STATUSES, planAssignments, planTrainings } from "../../tables/training-plan.table.js";
import { exerciseIdsOfTrainings } from "./holdings.js";

/*
 * What a PENDING or ACTIVE plan assignment gives (contract §4, §7, §13.3): its student sees and executes the plan's
 * trainings and their exercises, and both its parties (student and trainer) hear of the plan, those trainings and
 * exercises in the change feed. Audiences are rows (entity id, user id); "of a user" are id subqueries.
 */

/** The parties of an assignment, as a lateral row source `party(user_id)` to cross join with plan_assignments. */
export const assignmentParties = sql`cross join lateral (values (${planAssignments.studentId}), (${planAssignments.personalId})) as party(user_id)`;

/** True (as SQL) when the enclosing query's plan_assignments row is PENDING or ACTIVE. */
export const isLiveAssignment = sql`${planAssignments.status} in (${oneOf(LIVE_ASSIGNMENT_STATUSES)})`;

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

/** The plans of the PENDING or ACTIVE assignments `userId` is a party to, as an id subquery. */
export function livePlanIdsOf(userId: Bound<number>): SQL {
  return sql`select ${planAssignments.planId} from ${planAssignments}
    where (${planAssignments.studentId} = ${userId} or ${planAssignments.personalId} = ${userId}) and ${isLiveAssignment}`;
}

/** The trainings those plans schedule, as an id subquery. */
export function liveTrainingIdsOf(userId: Bound<number>): SQL {
  return sql`select ${planTrainings.trainingId} from ${planTrainings} where ${planTrainings.planId} in (${livePlanIdsOf(userId)})`;
}

/** The exercises of the trainings of `userId`'s live assignments, as an id subquery. */
export function liveExerciseIdsOf(userId: Bound<number>): SQL {
  return exerciseIdsOfTrainings(liveTrainingIdsOf(userId));
}

/** (training id, user id): both parties of every PENDING or ACTIVE assignment whose plan schedules one of `trainingIds`. */
export function livePartiesOfTrainings(trainingIds: SQL): SQL {
  return sql`select ${planTrainings.trainingId}, party.user_id from ${planTrainings}
    join ${planAssignments} on ${planAssignments.planId} = ${planTrainings.planId} ${assignmentParties}
    where ${planTrainings.trainingId} in (${trainingIds}) and ${isLiveAssignment}`;
}

/** (exercise id, user id): the parties of live assignments whose plans schedule a training holding one of `exerciseIds`. */
export function livePartiesOfExercises(exerciseIds: SQL): SQL {
  const holding = sql`select ${trainingExercises.trainingId} from ${trainingExercises} where ${trainingExercises.exerciseId} in (${exerciseIds})`;
  return sql`select ${trainingExercises.exerciseId}, live.user_id from ${trainingExercises}
    join (${livePartiesOfTrainings(holding)}) as live(training_id, user_id) on live.training_id = ${trainingExercises.trainingId}
    where ${trainingExercises.exerciseId} in (${exerciseIds})`;
}
