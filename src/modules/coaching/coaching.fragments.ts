import { sql, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { personalStudentLinks } from "./coaching.table.js";

/*
 * The link rules other modules' queries embed, as SQL fragments: what "ACTIVE-linked" means stays written here once,
 * and modules the coaching service itself depends on (users, content visibility) ask it without a service cycle.
 */

/** The ids of the students ACTIVE-linked to a trainer, as an SQL subquery. */
export function linkedStudentIds(personalId: Bound<number>): SQL {
  return sql`select ${personalStudentLinks.studentId} from ${personalStudentLinks} where ${personalStudentLinks.personalId} = ${personalId} and ${personalStudentLinks.status} = 'ACTIVE'`;
}

/** The ids of the users ACTIVE-linked to a user on either side (its students and its trainers), as an SQL subquery. */
export function linkPartnerIds(userId: number): SQL {
  return sql`${linkedStudentIds(userId)} union all select ${personalStudentLinks.personalId} from ${personalStudentLinks} where ${personalStudentLinks.studentId} = ${userId} and ${personalStudentLinks.status} = 'ACTIVE'`;
}
