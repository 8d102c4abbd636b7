import { sql, type AnyColumn, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { invites, personalStudentLinks } from "../../tables/coaching.table.js";

/*
 * The link rules other modules' queries embed, as SQL fragments: what "ACTIVE-linked" means stays written here once,
 * and modules the coaching service itself depends on (users, content visibility) ask it without a service cycle.
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
 * looking at the reader's links (`linkShown` of their reader, below and in userReadableBy).
 */
export function isActiveLinkOf(personalId: Bound<number>): SQL {
  return sql`(${personalStudentLinks.personalId} = ${personalId} and ${personalStudentLinks.status} = 'ACTIVE')`;
}

/**
 * A reader, as the rules embedded in a statement see it: `linkShown`, when given, a condition of the enclosing query's
 * row that shows the reader to be an ACTIVE-linked trainer of the user asked about (isActiveLinkOf, where that user is
 * the row's student); where it is false, the rule looks at the reader's links as ever.
 */
export interface LinkedReader {
  id: Bound<number>;
  isAdmin: boolean;
  linkShown?: SQL;
}

/** `linkShown or ` ahead of a look at the reader's links, when the row may show the link. */
export const shownOr = (reader: Pick<LinkedReader, "linkShown">): SQL => (reader.linkShown ? sql`${reader.linkShown} or ` : sql``);

/**
 * True (as SQL) when `reader` may read the activity (executions, statistics, records) of the user `userId`: the user
 * itself, an administrator, or its ACTIVE-linked trainer (contract §7). LinkService.mayReadActivities answers
 * the same rule for ids known in advance.
 */
export function activityReadableBy(reader: LinkedReader, userId: AnyColumn | SQL): SQL {
  if (reader.isAdmin) return sql`true`;
  return sql`(${userId} = ${reader.id} or ${shownOr(reader)}${userId} in (${linkedStudentIds(reader.id)}))`;
}

/*
 * Who hears of an invite or link in the change feed (contract §13.3): both parties. As rows (entity id, user id), for
 * the feed's records written by other modules whose changes show in these DTOs (a name, a picture).
 */

/** Both parties of each ACTIVE link `userId` is a party to (their link DTOs show its name and picture). */
export function activeLinkPartiesWith(userId: number): SQL {
  const l = personalStudentLinks;
  return sql`select ${l.id}, party.user_id from ${l} cross join lateral (values (${l.personalId}), (${l.studentId})) as party(user_id)
    where (${l.personalId} = ${userId} or ${l.studentId} = ${userId}) and ${l.status} = 'ACTIVE'`;
}

/** Both parties of each invite `trainerId` sent (their DTOs show the trainer's name, e-mail and picture). */
export function invitePartiesOfTrainer(trainerId: number): SQL {
  return sql`select ${invites.id}, party.user_id from ${invites} cross join lateral (values (${invites.personalId}), (${invites.studentId})) as party(user_id)
    where ${invites.personalId} = ${trainerId}`;
}
