import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { personalStudentLinks } from "../../tables/coaching.table.js";
import { shownOr, type LinkedReader } from "./readers.js";

/*
 * What an ACTIVE trainer-student link gives, as SQL to embed in reads: the trainer reads its students' activity, both
 * parties read each other in full, the trainer sees its students' private content. activity-access.ts answers the
 * same rules in TypeScript for ids known in advance.
 */

/** The ids of the students ACTIVE-linked to a trainer, as an SQL subquery. */
export function linkedStudentIds(personalId: Bound<number>): SQL {
  return sql`select ${personalStudentLinks.studentId} from ${personalStudentLinks} where ${personalStudentLinks.personalId} = ${personalId} and ${personalStudentLinks.status} = 'ACTIVE'`;
}

/** The ids of the users ACTIVE-linked to a user on either side (its students and its trainers), as an SQL subquery. */
export function linkPartnerIds(userId: Bound<number>): SQL {
  return sql`${linkedStudentIds(userId)} union all select ${personalStudentLinks.personalId} from ${personalStudentLinks} where ${personalStudentLinks.studentId} = ${userId} and ${personalStudentLinks.status} = 'ACTIVE'`;
}

/**
 * True (as SQL) when the enclosing query's row is an ACTIVE link of the trainer `personalId` (a page of a trainer's
 * links): on such a row the rules that ask whether a reader is ACTIVE-linked to the row's student know it is, without
 * looking at the reader's links (`linkShown` of their reader, LinkedReader).
 */
export function isActiveLinkOf(personalId: Bound<number>): SQL {
  return sql`(${personalStudentLinks.personalId} = ${personalId} and ${personalStudentLinks.status} = 'ACTIVE')`;
}

/**
 * True (as SQL) when `reader` may read the activity (executions, statistics, records) of the user `userId`: the user
 * itself, an administrator, or its ACTIVE-linked trainer (contract §7). ActivityAccess answers the same rule for ids
 * known in advance.
 */
export function activityReadableBy(reader: LinkedReader, userId: AnyColumn | SQL): SQL {
  if (reader.isAdmin) return sql`true`;
  return sql`(${userId} = ${reader.id} or ${shownOr(reader)}${userId} in (${linkedStudentIds(reader.id)}))`;
}
