import { and, eq, sql } from "drizzle-orm";
import type { UserActor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { forbidden } from "../../platform/errors.js";
import { personalStudentLinks } from "../../tables/coaching.table.js";
import { isOwnerOrAdmin } from "./ownership.js";

/** A reader, and the users whose activity it would read (an event's subjects). */
export interface ActivityQuestion {
  reader: Pick<UserActor, "id" | "isAdmin">;
  userIds: readonly number[];
}

/**
 * Who may read a user's logged activity — executions, statistics, progress, records (contract §7): the user,
 * administrators and the user's ACTIVE-linked trainer; anyone else 403 `Acesso negado`. These are the checks for ids
 * known in advance; reads that filter rows embed the same rule as SQL (links.ts, activityReadableBy).
 */
export class ActivityAccess {
  constructor(private readonly deps: { db: Db }) {}

  /** True when `personalId` is the ACTIVE-linked trainer of `studentId`. `db`: a transaction to read the link in. */
  async isTrainerOf(personalId: number, studentId: number, db: Db = this.deps.db): Promise<boolean> {
    const [row] = await activeLink(db).execute({ personalId, studentId });
    return Boolean(row);
  }

  /** 403 unless the caller may read the activity of `userId`. */
  async ensureMayReadActivity(caller: UserActor, userId: number): Promise<void> {
    if (isOwnerOrAdmin(caller, userId)) return;
    if (!(await this.isTrainerOf(caller.id, userId))) throw forbidden();
  }

  /** Those of `userIds` whose activity the caller may read, in one query. */
  async activityReadableAmong(caller: Pick<UserActor, "id" | "isAdmin">, userIds: readonly number[]): Promise<Set<number>> {
    const answers = await this.mayReadActivities(userIds.map((id) => ({ reader: caller, userIds: [id] })));
    return new Set(userIds.filter((_, index) => answers[index]));
  }

  /**
   * For each question, whether its reader may read the activity of all its users, for all of them in at most one
   * query: an event's receivers are checked together, never one statement each (live updates, webhook dispatch).
   * `db`: a transaction to read the links in (the webhook dispatcher's).
   */
  async mayReadActivities(questions: readonly ActivityQuestion[], db: Db = this.deps.db): Promise<boolean[]> {
    const asked = questions.flatMap(({ reader, userIds }) =>
      userIds.filter((id) => !isOwnerOrAdmin(reader, id)).map((studentId) => ({ personalId: reader.id, studentId })),
    );
    const linked = await activeLinksAmong(db, asked);
    return questions.map(({ reader, userIds }) => userIds.every((id) => isOwnerOrAdmin(reader, id) || linked.has(linkKey(reader.id, id))));
  }
}

/** A (trainer, student) pair as activeLinksAmong answers it. */
const linkKey = (personalId: number, studentId: number) => `${personalId}:${studentId}`;

/** Which of the (trainer, student) `pairs` are ACTIVE links, as linkKey strings: one statement whatever their number. */
async function activeLinksAmong(db: Db, pairs: readonly { personalId: number; studentId: number }[]): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const l = personalStudentLinks;
  const asked = sql`select * from unnest(${sql.param(pairs.map((pair) => pair.personalId))}::int[], ${sql.param(pairs.map((pair) => pair.studentId))}::int[])`;
  const rows = await db
    .select({ personalId: l.personalId, studentId: l.studentId })
    .from(l)
    .where(and(eq(l.status, "ACTIVE"), sql`(${l.personalId}, ${l.studentId}) in (${asked})`));
  return new Set(rows.map((row) => linkKey(row.personalId, row.studentId)));
}

/** Asked on every read of a student's history by a trainer: a prepared statement. */
const activeLink = preparedStatement((db) =>
  db
    .select({ id: personalStudentLinks.id })
    .from(personalStudentLinks)
    .where(
      and(
        eq(personalStudentLinks.personalId, sql.placeholder("personalId")),
        eq(personalStudentLinks.studentId, sql.placeholder("studentId")),
        eq(personalStudentLinks.status, "ACTIVE"),
      ),
    )
    .prepare("active_link"),
);
