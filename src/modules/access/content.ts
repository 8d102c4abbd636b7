import { eq, or, sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Bound } from "../../platform/db/prepared.js";
import { exercises } from "../../tables/exercise.table.js";
import { trainings } from "../../tables/training.table.js";
import { planAssignments, trainingPlans } from "../../tables/training-plan.table.js";
import { liveAssignmentIncludes } from "./assignments.js";
import { trainingIdsHoldingExercise } from "./holdings.js";
import { linkedStudentIds } from "./links.js";
import type { ContentReader } from "./readers.js";

/*
 * Who may see exercises, trainings and plans, as SQL conditions on their tables (undefined: everything is visible).
 * Links and assignments are part of the rule, so the whole condition stays inside one query, which a check per row
 * could not.
 */

/**
 * Who may see a private exercise or training (contract §4), as one SQL condition: its creator, the trainer
 * ACTIVE-linked to its student creator, and students whose PENDING or ACTIVE plan assignment uses it.
 * `trainingIdsHolding` finds the trainings that hold the item (for an exercise: through its training lines; for a
 * training: itself). Public items and administrators are the caller's business.
 */
function privateContentVisibleTo(caller: { id: Bound<number> }, createdBy: AnyColumn, trainingIdsHolding: SQL): SQL {
  return sql`(
    ${createdBy} = ${caller.id}
    or ${createdBy} in (${linkedStudentIds(caller.id)})
    or ${liveAssignmentIncludes(caller.id, trainingIdsHolding)}
  )`;
}

/**
 * What a content row's own columns decide of its visibility rule, before any lookup: public content, and private
 * content for its creator and administrators (the rest of the rule, links and assignments, is the SQL condition's).
 */
export function contentVisibleAtOnce(caller: Pick<UserActor, "id" | "isAdmin"> | null, row: { isPublic: boolean; createdBy: number | null }): boolean {
  return row.isPublic || (caller !== null && (caller.isAdmin || caller.id === row.createdBy));
}

/** The visibility rule of an exercise, as a SQL condition (undefined: everything is visible). */
export function exerciseVisibleTo(caller: ContentReader): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(exercises.isPublic, true);
  return or(eq(exercises.isPublic, true), privateContentVisibleTo(caller, exercises.createdBy, trainingIdsHoldingExercise(exercises.id)));
}

/** The visibility rule of a training, as a SQL condition (undefined: everything). */
export function trainingVisibleTo(caller: ContentReader): SQL | undefined {
  if (caller?.isAdmin) return undefined;
  if (!caller) return eq(trainings.isPublic, true);
  return or(eq(trainings.isPublic, true), privateContentVisibleTo(caller, trainings.createdBy, sql`${trainings.id}`));
}

/**
 * Who may execute a training (contract §7), as a SQL condition on it: its creator, or a student whose PENDING or
 * ACTIVE assignment has it. Being allowed to see a training is not enough.
 */
export function trainingExecutableBy(userId: Bound<number>): SQL | undefined {
  return or(eq(trainings.createdBy, userId), liveAssignmentIncludes(userId, sql`${trainings.id}`));
}

/** Public plans for every signed-in user; private ones for their creator, administrators and assignees (contract §5). */
export function planVisibleTo(caller: { id: Bound<number>; isAdmin: boolean }): SQL | undefined {
  if (caller.isAdmin) return undefined;
  return or(
    eq(trainingPlans.isPublic, true),
    eq(trainingPlans.createdBy, caller.id),
    sql`exists (select 1 from ${planAssignments} where ${planAssignments.planId} = ${trainingPlans.id} and ${planAssignments.studentId} = ${caller.id})`,
  );
}
