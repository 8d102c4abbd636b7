import { sql, type SQL } from "drizzle-orm";
import { invites, personalStudentLinks } from "../../tables/coaching.table.js";

/*
 * Who hears of an invite or link in the change feed (contract §13.3): both parties. As rows (entity id, user id), for
 * the feed's changes written by other modules whose changes show in these DTOs (a name, a picture). What a link gives
 * its parties to read is access's rule (src/modules/access/links.ts).
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
