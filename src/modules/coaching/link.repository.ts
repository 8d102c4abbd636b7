import { and, asc, count, eq, ilike, inArray, ne, or, sql, type SQL } from "drizzle-orm";
import { alias, type PgSelect } from "drizzle-orm/pg-core";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import type { Db } from "../../platform/db/database.js";
import { isFirstPage, pageWithTotal, totalBeforePaging, ordering } from "../../platform/db/pages.js";
import { embeddedPlaceholder, embeddedValues, type EmbeddedRead } from "../../platform/db/embedded-read.js";
import { pickKeys } from "../../platform/db/json.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import { containsPattern } from "../../platform/db/text-search.js";
import type { PageRequest } from "../../platform/paging.js";
import { userJson } from "../users/user.fragments.js";
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

interface LinkFilter {
  personalId?: number;
  studentId?: number;
  status: LinkStatus;
  name?: string;
}

/**
 * What a page of links reads along with each link: its student (userJson: null when the reader may not read it), and
 * with the student the reads other modules embed, each under its name (the student's executions).
 */
export interface LinkInclude {
  /** `keys`: the only keys of the student's JSON object read (besides the embedded reads), all when undefined. */
  student?: { reader: UserActor; embedded: Record<string, EmbeddedRead<unknown>>; keys?: string[] };
  /** The only keys of each link read (LINK_KEYS; a GraphQL selection's), all when undefined. */
  keys?: string[];
}

/**
 * What shapes a page of links' statement: the filters present, the order, whether it is the first page (no OFFSET),
 * what it includes (with the keys read); the values are bound.
 */
interface LinkPageShape {
  filters: (keyof LinkFilter)[];
  sort: PageRequest["sort"];
  firstPage: boolean;
  include: LinkInclude;
}

const LINK_FILTERS: (keyof LinkFilter)[] = ["personalId", "studentId", "status", "name"];

/** The placeholders of the read embedded under `name` are named `<name>_…`, apart from the statement's own. */
const embeddedPrefix = (name: string) => `${name}_`;

function includeKey({ student, keys }: LinkInclude) {
  const links = keys?.join(",") ?? "*";
  if (!student) return links;
  const embedded = Object.entries(student.embedded).map(([name, read]) => `${name}(${read.key})`);
  return `${links} student(${student.reader.isAdmin} ${embedded.join(" ")} ${student.keys?.join(",") ?? "*"})`;
}

/**
 * The student of the enclosing query's link as userJson, the reads `embedded` names inside it. A link of the reader
 * that is ACTIVE shows the reader to be the student's trainer: the rules skip their look at the reader's links there
 * (three subqueries per statement, some 7% of the PostgreSQL CPU of the trainer's dashboard).
 */
function studentJson({ reader, embedded, keys }: NonNullable<LinkInclude["student"]>) {
  const linkShown = isActiveLinkOf(sql.placeholder("callerId"));
  const bound = { id: sql.placeholder("callerId"), userType: sql.placeholder("callerType"), isAdmin: reader.isAdmin, linkShown };
  const reads = Object.entries(embedded).map(([name, read]) => [name, read.sql(student.id, embeddedPlaceholder(embeddedPrefix(name)), linkShown)]);
  return userJson(bound, student, Object.fromEntries(reads), keys);
}

const linkPage = preparedStatements(
  (shape: LinkPageShape) =>
    `${shape.filters.join(",")} ${shape.sort.map((s) => `${s.field}:${s.direction}`).join(",")} ${shape.firstPage} ${includeKey(shape.include)}`,
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
    const withTrainer = searched === "trainer" || read.some((key) => key in trainerColumns);
    const withStudent = searched === "student" || Boolean(shape.include.student) || read.some((key) => key in studentColumns);
    const joined = <Query extends PgSelect>(query: Query) => {
      const withTrainerJoined = withTrainer ? query.innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId)) : query;
      return withStudent ? withTrainerJoined.innerJoin(student, eq(student.id, personalStudentLinks.studentId)) : withTrainerJoined;
    };
    const page = joined(
      db
        .select({ ...columns, total: totalBeforePaging(), ...(shape.include.student ? { student: studentJson(shape.include.student) } : {}) })
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

  /** A page of links and their total, each link with what `include` names (`student`: its JSON object, read back by the caller). */
  async listLinks(db: Db, filter: LinkFilter, request: PageRequest, include: LinkInclude = {}) {
    const shape: LinkPageShape = {
      filters: LINK_FILTERS.filter((key) => (key === "name" ? Boolean(filter.name) : filter[key] !== undefined)),
      sort: request.sort,
      firstPage: isFirstPage(request),
      include,
    };
    const statements = linkPage(db, shape);
    const values = { ...filter, name: filter.name && containsPattern(filter.name), limit: request.size, offset: request.page * request.size };
    const withStudent = include.student && {
      callerId: include.student.reader.id,
      callerType: include.student.reader.userType,
      ...Object.assign({}, ...Object.entries(include.student.embedded).map(([name, read]) => embeddedValues(embeddedPrefix(name), read))),
    };
    const rows: (LinkRecord & { total: number; student?: unknown })[] = await statements.rows.execute({ ...values, ...withStudent });
    return pageWithTotal(rows, request, async () => (await statements.total.execute(values))[0].n);
  },

  /** ACTIVE links of several users at once (GraphQL User.students / User.personals loaders). */
  async activeLinksOf(db: Db, side: "personal" | "student", userIds: readonly number[]) {
    if (userIds.length === 0) return [];
    const column = side === "personal" ? personalStudentLinks.personalId : personalStudentLinks.studentId;
    return db
      .select(linkColumns)
      .from(personalStudentLinks)
      .innerJoin(trainer, eq(trainer.id, personalStudentLinks.personalId))
      .innerJoin(student, eq(student.id, personalStudentLinks.studentId))
      .where(and(inArray(column, [...userIds]), eq(personalStudentLinks.status, "ACTIVE")))
      .orderBy(asc(personalStudentLinks.id));
  },
};

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
