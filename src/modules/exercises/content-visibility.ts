import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { linkedStudentIds } from "../coaching/coaching.fragments.js";
import { liveAssignmentIncludes } from "../training-plans/training-plan.fragments.js";

/**
 * Who may see a private exercise or training (contract §4), as one SQL condition: its creator, the trainer
 * ACTIVE-linked to its student creator, and students whose PENDING or ACTIVE plan assignment uses it.
 * `trainingIdsHolding` finds the trainings that hold the item (for an exercise: through its training lines; for a
 * training: itself). Public items and administrators are the caller's business. Links and assignments come as SQL
 * fragments from their own modules (coaching.fragments, training-plan.fragments): each of those rules lives in one
 * place and the whole condition stays inside one query, which a service call per row could not.
 */
export function privateContentVisibleTo(caller: { id: Bound<number> }, createdBy: AnyColumn, trainingIdsHolding: SQL): SQL {
  return sql`(
    ${createdBy} = ${caller.id}
    or ${createdBy} in (${linkedStudentIds(caller.id)})
    or ${liveAssignmentIncludes(caller.id, trainingIdsHolding)}
  )`;
}

/** Who reads content: a user (its id, bound or a prepared statement's placeholder) or nobody signed in (null). */
export type ContentReader = { id: Bound<number>; isAdmin: boolean } | null;

/** What shapes a statement's visibility condition: the reader's id is bound, its kind is in the text. */
export type ReaderKind = "anonymous" | "user" | "admin";

export const readerKind = (caller: { isAdmin: boolean } | null): ReaderKind => (!caller ? "anonymous" : caller.isAdmin ? "admin" : "user");

/** The reader of a prepared statement of that kind, its id bound to the placeholder `callerId`. */
export const preparedReader = (kind: ReaderKind): ContentReader =>
  kind === "anonymous" ? null : { id: sql.placeholder("callerId"), isAdmin: kind === "admin" };
