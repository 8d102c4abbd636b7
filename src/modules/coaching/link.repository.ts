import { and, asc, count, eq, ilike, ne, or, sql, type SQL } from "drizzle-orm";
import { alias, type PgSelect } from "drizzle-orm/pg-core";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import type { Db } from "../../platform/db/database.js";
import { isFirstPage, pageWithTotal, totalBeforePaging, ordering } from "../../platform/db/pages.js";
import { pickKeys } from "../../platform/db/json.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import { containsPattern } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { userTreeJson, userTreeKey, userTreeValues, type UserInclude } from "../users/user.tree.js";
import type { UserActor } from "../../platform/auth/actor.js";
import { isActiveLinkOf } from "../access/links.js";
import { users } from "../../tables/user.table.js";
import { invites, personalStudentLinks, type LinkStatus } from "../../tables/coaching.table.js";

const trainer = alias(users, "trainer");
const student = alias(users, "student");

/** A link's columns of the trainer's row, and of the student's: a page that reads none of one leaves its join out. */
const trainerColumns = { personalName: trainer.name, personalEmail: trainer.email, personalProfilePicture: trainer.profilePicture };
const studentColumns = { studentName: student.name, studentEmail: student.email, studentProfilePicture: student.profilePicture };

const linkColumns = {
  id: personalStudentLinks.id,
  personalId: personalStudentLinks.personalId,
  ...trainerColumns,
  studentId: personalStudentLinks.studentId,
  ...studentColumns,
  status: personalStudentLinks.status,
  createdAt: personalStudentLinks.createdAt,
  updatedAt: personalStudentLinks.updatedAt,
};

/** The keys of a link a page can read (LinkInclude.keys). */
export const LINK_KEYS = Object.keys(linkColumns);

export type LinkRecord = Awaited<ReturnType<typeof linkRepository.findLink>> & object;

export const LINK_SORTS = {
  id: personalStudentLinks.id,
  createdAt: personalStudentLinks.createdAt,
  updatedAt: personalStudentLinks.updatedAt,
  status: personalStudentLinks.status,
  personalName: trainer.name,
  studentName: student.name,
} as const;

/** What a page of links keeps: one party's links, of one status, the other party's name containing `name`. */
export interface LinkFilter {
  personalId?: number;
  studentId?: number;
  status: LinkStatus;
  name?: string;
}

/**
 * What a read of links reads along with each link: its parties as a GraphQL selection reads them (user trees: null
 * where the reader may not read the user), and of the link itself only the `keys` named (LINK_KEYS), all when undefined.
 */
export interface LinkInclude {
  keys?: string[];
  student?: UserInclude;
  personal?: UserInclude;
}

/** A read of links, and who reads their parties. */
interface LinkTreesShape {
  include: LinkInclude;
  reader: UserActor;
}

/**
 * What shapes a page of links' statement: the filters present, the order, whether it is the first page (no OFFSET),
 * what it includes (with the keys read); the values are bound.
 */
interface LinkPageShape extends LinkTreesShape {
  filters: (keyof LinkFilter)[];
  sort: PageRequest["sort"];
  firstPage: boolean;
}

const LINK_FILTERS: (keyof LinkFilter)[] = ["personalId", "studentId", "status", "name"];

function includeKey({ include: { keys, student, personal }, reader }: LinkTreesShape) {
  const party = (name: string, tree?: UserInclude) => (tree ? ` ${name}(${userTreeKey(tree, reader)})` : "");
  return `${keys?.join(",") ?? "*"}${party("student", student)}${party("personal", personal)}`;
}

/**
 * The parties of the enclosing query's link as user trees, those `include` names. A link of the reader that is ACTIVE
 * shows the reader to be the student's trainer: the rules skip their look at the reader's links there (three
 * subqueries per statement, some 7% of the PostgreSQL CPU of the trainer's dashboard).
 */
function partiesJson({ include, reader }: LinkTreesShape): Record<string, SQL> {
  const linkShown = isActiveLinkOf(sql.placeholder("student_callerId"));
  return {
    ...(include.student && { student: userTreeJson(include.student, reader, "student_", student, linkShown) }),
    ...(include.personal && { personal: userTreeJson(include.personal, reader, "personal_", trainer) }),
  };
}

/** The values partiesJson's placeholders bind. */
function partiesValues({ include, reader }: LinkTreesShape): Record<string, unknown> {
  return {
    ...(include.student && userTreeValues(include.student, reader, "student_")),
    ...(include.personal && userTreeValues(include.personal, reader, "personal_")),
  };
}

const linkPage = preparedStatements(
  (shape: LinkPageShape) =>
    `${shape.filters.join(",")} ${shape.sort.map((s) => `${s.field}:${s.direction}`).join(",")} ${shape.firstPage} ${includeKey(shape)}`,
  (db, shape) => {
    const value = (name: string) => sql.placeholder(name);
    const conditions: Record<keyof LinkFilter, SQL> = {
      personalId: eq(personalStudentLinks.personalId, value("personalId")),
      studentId: eq(personalStudentLinks.studentId, value("studentId")),
      status: eq(personalStudentLinks.status, value("status")),
      // The name searched is the other party's: a trainer looks for students, a student for trainers.
      name: ilike(shape.filters.includes("personalId") ? student.name : trainer.name, value("name")),
    };
    const where = and(...shape.filters.map((key) => conditions[key]));
    const columns = pickKeys(linkColumns, shape.include.keys);
    // What the statement reads of the users: the columns selected, and the names it sorts by.
    const read = [...Object.keys(columns), ...shape.sort.map((s) => s.field)];
    const searched = shape.filters.includes("name") ? (shape.filters.includes("personalId") ? "student" : "trainer") : undefined;
    // Every link has both users (foreign keys, not null, cascading): leaving out a join no column, order or filter
    // reads changes no row, and spares one index lookup per link.
    const withTrainer = searched === "trainer" || Boolean(shape.include.personal) || read.some((key) => key in trainerColumns);
    const withStudent = searched === "student" || Boolean(shape.include.student) || read.some((key) => key in studentColumns);
    const joined = <Query extends PgSelect>(query: Query) => {
      const withTrainerJoined = withTrainer ? query.innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId)) : query;
      return withStudent ? withTrainerJoined.innerJoin(student, eq(student.id, personalStudentLinks.studentId)) : withTrainerJoined;
    };
    const page = joined(
      db
        .select({ ...columns, total: totalBeforePaging(), ...partiesJson(shape) })
        .from(personalStudentLinks)
        .$dynamic(),
    )
      .where(where)
      .orderBy(...ordering(LINK_SORTS, shape, personalStudentLinks.id))
      .limit(value("limit"));
    return {
      // The first page without OFFSET (pages.ts, isFirstPage): its statement keeps one generic plan.
      rows: (shape.firstPage ? page : page.offset(value("offset"))).prepare("link_page"),
      total: joined(db.select({ n: count() }).from(personalStudentLinks).$dynamic())
        .where(where)
        .prepare("link_count"),
    };
  },
);

/** Trainer-student links, and the seats they take: every SQL statement of them. */
export const linkRepository = {
  /** Those of `ids` that are ACTIVE and `userId` is a party to (the change feed's links). */
  async findActiveLinksOf(db: Db, userId: number, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return db
      .select(linkColumns)
      .from(personalStudentLinks)
      .innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId))
      .innerJoin(student, eq(student.id, personalStudentLinks.studentId))
      .where(
        and(
          isAnyOf(personalStudentLinks.id, ids),
          eq(personalStudentLinks.status, "ACTIVE"),
          or(eq(personalStudentLinks.personalId, userId), eq(personalStudentLinks.studentId, userId)),
        ),
      );
  },

  /** Up to `limit` ids above `afterId` of the ACTIVE links `userId` is a party to, ascending. */
  activeLinkIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    const l = personalStudentLinks;
    return idsAbove(
      db,
      sql`select ${l.id} from ${l} where (${l.personalId} = ${userId} or ${l.studentId} = ${userId}) and ${l.status} = 'ACTIVE'`,
      afterId,
      limit,
    );
  },

  /** Every link `userId` is a party to, whatever its status, oldest first (their data export). */
  async linksOfUser(db: Db, userId: number) {
    return db
      .select(linkColumns)
      .from(personalStudentLinks)
      .innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId))
      .innerJoin(student, eq(student.id, personalStudentLinks.studentId))
      .where(or(eq(personalStudentLinks.personalId, userId), eq(personalStudentLinks.studentId, userId)))
      .orderBy(asc(personalStudentLinks.id));
  },

  /** ACTIVE → INACTIVE for every link `userId` is a party to; returns those it changed. */
  async deactivateLinksOf(db: Db, userId: number, now: Date) {
    return db
      .update(personalStudentLinks)
      .set({ status: "INACTIVE", updatedAt: now })
      .where(and(or(eq(personalStudentLinks.personalId, userId), eq(personalStudentLinks.studentId, userId)), eq(personalStudentLinks.status, "ACTIVE")))
      .returning({ id: personalStudentLinks.id, personalId: personalStudentLinks.personalId, studentId: personalStudentLinks.studentId });
  },

  /** A trainer's ACTIVE links, leaving out the one with `exceptStudentId` (whose accept would not add a student). */
  async countActiveStudents(db: Db, personalId: number, exceptStudentId?: number) {
    const conditions = [eq(personalStudentLinks.personalId, personalId), eq(personalStudentLinks.status, "ACTIVE")];
    if (exceptStudentId !== undefined) conditions.push(ne(personalStudentLinks.studentId, exceptStudentId));
    const [links] = await db
      .select({ n: count() })
      .from(personalStudentLinks)
      .where(and(...conditions));
    return links.n;
  },

  /** A trainer's ACTIVE links and live PENDING invites, in one statement. */
  async countSeatsTaken(db: Db, personalId: number, now: Date): Promise<{ active: number; pendingInvites: number }> {
    const [row] = await seatsTaken(db).execute({ personalId, now: now.toISOString() });
    return row;
  },

  /** ACTIVE links plus live PENDING invites: what counts against a trainer's student limit. */
  async countStudentSlotsUsed(db: Db, personalId: number, now: Date) {
    const { active, pendingInvites } = await linkRepository.countSeatsTaken(db, personalId, now);
    return active + pendingInvites;
  },

  async findLink(db: Db, id: number) {
    const [row] = await db
      .select(linkColumns)
      .from(personalStudentLinks)
      .innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId))
      .innerJoin(student, eq(student.id, personalStudentLinks.studentId))
      .where(eq(personalStudentLinks.id, id));
    return row ?? null;
  },

  /** Creates the pair's link ACTIVE, or re-activates the existing one (same id). */
  async activateLink(db: Db, personalId: number, studentId: number, now: Date) {
    const [row] = await db
      .insert(personalStudentLinks)
      .values({ personalId, studentId, status: "ACTIVE", createdAt: now, updatedAt: now })
      .onConflictDoUpdate({ target: [personalStudentLinks.personalId, personalStudentLinks.studentId], set: { status: "ACTIVE", updatedAt: now } })
      .returning({ id: personalStudentLinks.id });
    return row.id;
  },

  /** ACTIVE → INACTIVE; false when the link was no longer ACTIVE (a concurrent removal got there first). */
  async deactivateLink(db: Db, id: number, now: Date) {
    const rows = await db
      .update(personalStudentLinks)
      .set({ status: "INACTIVE", updatedAt: now })
      .where(and(eq(personalStudentLinks.id, id), eq(personalStudentLinks.status, "ACTIVE")))
      .returning({ id: personalStudentLinks.id });
    return rows.length > 0;
  },

  /** A page of links and their total, each link with what `include` names (its parties' JSON objects, read back by the caller). */
  async listLinks(db: Db, filter: LinkFilter, request: PageRequest, reader: UserActor, include: LinkInclude = {}) {
    const shape: LinkPageShape = {
      filters: LINK_FILTERS.filter((key) => (key === "name" ? Boolean(filter.name) : filter[key] !== undefined)),
      sort: request.sort,
      firstPage: isFirstPage(request),
      include,
      reader,
    };
    const statements = linkPage(db, shape);
    const values = { ...filter, name: filter.name && containsPattern(filter.name), limit: request.size, offset: request.page * request.size };
    const rows: (LinkRecord & LinkParties & { total: number })[] = await statements.rows.execute({ ...values, ...partiesValues(shape) });
    return pageWithTotal(rows, request, async () => (await statements.total.execute(values))[0].n);
  },

  /** ACTIVE links of several users at once (GraphQL User.students / User.personals), each with what `include` names. */
  async activeLinksOf(db: Db, side: "personal" | "student", userIds: readonly number[], reader: UserActor, include: LinkInclude) {
    if (userIds.length === 0) return [];
    const shape = { include, reader };
    const rows: (LinkRecord & LinkParties)[] = await activeLinks(db, { ...shape, side }).execute({ userIds, ...partiesValues(shape) });
    return rows;
  },

  /** The link, with what `include` names (an accepted invite's link, read back after its commit). */
  async findLinkTree(db: Db, id: number, reader: UserActor, include: LinkInclude) {
    const shape = { include, reader };
    const [row]: (LinkRecord & LinkParties)[] = await linkTree(db, shape).execute({ id, ...partiesValues(shape) });
    return row ?? null;
  },
};

/** What partiesJson read of a link's parties: their JSON objects, those its include named. */
export interface LinkParties {
  student?: unknown;
  personal?: unknown;
}

/**
 * Links with the trees their include names (the links of users, one link read back), each with its parties' ids: the
 * links of several users are told apart by them.
 */
const linkTreesFrom = (db: Db, shape: LinkTreesShape) =>
  db
    .select({ ...pickKeys(linkColumns, shape.include.keys && [...shape.include.keys, "personalId", "studentId"]), ...partiesJson(shape) })
    .from(personalStudentLinks)
    .innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId))
    .innerJoin(student, eq(student.id, personalStudentLinks.studentId));

const activeLinks = preparedStatements(
  (shape: LinkTreesShape & { side: "personal" | "student" }) => `${shape.side} ${includeKey(shape)}`,
  (db, shape) => {
    const column = shape.side === "personal" ? personalStudentLinks.personalId : personalStudentLinks.studentId;
    return linkTreesFrom(db, shape)
      .where(and(isAnyOf(column, sql.placeholder("userIds")), eq(personalStudentLinks.status, "ACTIVE")))
      .orderBy(asc(personalStudentLinks.id))
      .prepare("active_links");
  },
);

const linkTree = preparedStatements(
  (shape: LinkTreesShape) => includeKey(shape),
  (db, shape) =>
    linkTreesFrom(db, shape)
      .where(eq(personalStudentLinks.id, sql.placeholder("id")))
      .prepare("link_tree"),
);

/** A trainer's ACTIVE links, with its live PENDING invites counted beside them (an uncorrelated subquery). */
const seatsTaken = preparedStatement((db) =>
  db
    .select({
      active: count(),
      pendingInvites: sql<number>`(
        select count(*) from ${invites}
        where ${invites.personalId} = ${sql.placeholder("personalId")} and ${invites.status} = 'PENDING'
          and ${invites.expiresAt} > ${sql.placeholder("now")}::timestamptz
      )`.mapWith(Number),
    })
    .from(personalStudentLinks)
    .where(and(eq(personalStudentLinks.personalId, sql.placeholder("personalId")), eq(personalStudentLinks.status, "ACTIVE")))
    .prepare("seats_taken"),
);
