import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { personalStudentLinks } from "../../tables/coaching.table.js";

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
 * True (as SQL) when `reader` may read the activity (executions, statistics, records) of the user `userId`: the user
 * itself, an administrator, or its ACTIVE-linked trainer (contract §7). ActivityAccess answers the same rule for ids
 * known in advance.
 */
export function activityReadableBy(reader: { id: Bound<number>; isAdmin: boolean }, userId: AnyColumn | SQL): SQL {
  if (reader.isAdmin) return sql`true`;
  return sql`(${userId} = ${reader.id} or ${userId} in (${linkedStudentIds(reader.id)}))`;
}
