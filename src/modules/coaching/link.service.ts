import { isOwnerOrAdmin, requireOwnerOrAdmin, requireStudent, requireTrainer } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, forbidden, notFound } from "../../platform/errors.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { SubscriptionPlanService } from "../billing/subscription-plan.service.js";
import type { LinkListQuery } from "./coaching.inputs.js";
import { coachingMails } from "./coaching.mails.js";
import { toLink, type LinkDto } from "./coaching.dto.js";
import { linkRepository } from "./link.repository.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import type { FeedSource } from "../events/feed-source.js";
import { userFromJson, type UserDto } from "../users/user.dto.js";
import type { EmbeddedRead } from "../../platform/db/embedded-read.js";
import { fromJson } from "../../platform/db/json.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

const LINK_NOT_FOUND = "Relacionamento não encontrado";

/** What a page of a trainer's links reads along with each link: its student, with the reads of other modules embedded under their names. */
export interface StudentsInclude {
  /** `keys`: the only keys of the student read (a GraphQL selection's), all when undefined. */
  student?: { embedded: Record<string, EmbeddedRead<unknown>>; keys?: string[] };
  /** The only keys of each link read (LINK_KEYS; a GraphQL selection's), all when undefined: the others are left out. */
  keys?: string[];
}

/** A student read along with its link, and the answers of the reads embedded in it. */
export type StudentWithReads = UserDto & Record<string, unknown>;

/** A link, with its student when it was read along (null: the caller may no longer read it). */
export type LinkWithStudent = LinkDto & { student?: StudentWithReads | null };

/** A trainer's students against its plan's limit (contract §6, §12.3). */
export interface TrainerSeats {
  active: number;
  /** null = unlimited. */
  limit: number | null;
  pendingInvites: number;
}

export interface LinkServiceDeps {
  db: Db;
  clock: Clock;
  subscriptionPlans: SubscriptionPlanService;
  mail: MailOutbox;
  freeTrainerMaxStudents: number;
}

/**
 * Trainer-student links: a trainer's students and a student's trainers, ending a link, a trainer's seats against its
 * student limit, and the questions other modules ask of links ("are these two linked?").
 */
export class LinkService {
  constructor(private readonly deps: LinkServiceDeps) {}

  /** A trainer's links to students (ACTIVE unless `status` says otherwise), by student name. */
  async listStudents(actor: Actor, readQuery: InputReader<LinkListQuery>, include: StudentsInclude = {}): Promise<Page<LinkWithStudent>> {
    const trainer = requireTrainer(actor);
    const {
      filter: { status, name },
      page: request,
    } = readQuery();
    const db = mayBeStale(this.deps.db);
    const { rows, total } = await linkRepository.listLinks(db, { personalId: trainer.id, status: status ?? "ACTIVE", name }, request, {
      keys: include.keys,
      ...(include.student && { student: { reader: trainer, ...include.student } }),
    });
    const embedded = include.student?.embedded;
    return toPage(
      rows.map((row) => (embedded ? { ...toLink(row, "trainer"), student: studentFromJson(row.student, embedded) } : toLink(row, "trainer"))),
      total,
      request,
    );
  }

  /** A student's links to trainers (ACTIVE unless `status` says otherwise), by trainer name. */
  async listPersonals(actor: Actor, readQuery: InputReader<LinkListQuery>): Promise<Page<LinkDto>> {
    const student = requireStudent(actor);
    const {
      filter: { status, name },
      page: request,
    } = readQuery();
    const { rows, total } = await linkRepository.listLinks(mayBeStale(this.deps.db), { studentId: student.id, status: status ?? "ACTIVE", name }, request);
    return toPage(
      rows.map((row) => toLink(row, "student")),
      total,
      request,
    );
  }

  /** A trainer ends an ACTIVE link to a student; the student is told. */
  async removeStudent(actor: Actor, linkId: number): Promise<void> {
    await this.removeLink(requireTrainer(actor), linkId, "personal");
  }

  /** A student ends an ACTIVE link to a trainer; the trainer is told. */
  async removePersonal(actor: Actor, linkId: number): Promise<void> {
    await this.removeLink(requireStudent(actor), linkId, "student");
  }

  /**
   * ACTIVE links of each user, as trainer (`personal`) or as student, in the order asked (GraphQL loaders):
   * one query for all of them. Only the user themself and administrators see a user's links.
   */
  async listActiveLinksByUserIds(actor: Actor, side: "personal" | "student", userIds: readonly number[]): Promise<(LinkDto[] | AppError)[]> {
    const caller = requireUser(actor);
    const visible = userIds.filter((id) => isOwnerOrAdmin(caller, id));
    const rows = await linkRepository.activeLinksOf(this.deps.db, side, visible);
    return userIds.map((id) =>
      visible.includes(id)
        ? rows.filter((row) => (side === "personal" ? row.personalId : row.studentId) === id).map((row) => toLink(row, "full"))
        : forbidden(),
    );
  }

  /**
   * A trainer's seats (no access check: the asking module has its own rule): its ACTIVE students, its student limit
   * (null = unlimited) and its PENDING invites still open.
   */
  async seatsOf(trainerId: number): Promise<TrainerSeats> {
    const { clock } = this.deps;
    const db = mayBeStale(this.deps.db);
    const [{ active, pendingInvites }, limit] = await Promise.all([
      linkRepository.countSeatsTaken(db, trainerId, clock.now()),
      this.studentLimit(db, trainerId),
    ]);
    return { active, limit, pendingInvites };
  }

  /** The change feed's links (contract §13.3): the reader's ACTIVE ones, as its listing shows them (a removed link reads as DELETE). */
  readonly linkFeed: FeedSource<LinkDto> = {
    load: async (reader, ids) => {
      const rows = await linkRepository.findActiveLinksOf(this.deps.db, reader.id, ids);
      return new Map(rows.map((row) => [row.id, toLink(row, row.personalId === reader.id ? "trainer" : "student")]));
    },
    idsAfter: (reader, afterId, limit) => linkRepository.activeLinkIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  /** maxStudents of the trainer's ACTIVE plan (null = unlimited), or the free allowance without one. */
  async studentLimit(db: Db, trainerId: number): Promise<number | null> {
    const limit = await this.deps.subscriptionPlans.studentLimitOf(db, trainerId);
    return limit === undefined ? this.deps.freeTrainerMaxStudents : limit;
  }

  /**
   * The role each side of coaching is for: the trainer's side PERSONAL users, the student's side ALUNO users, else
   * 401 / 403. Every method of a side checks it first; REST checks it for a whole path prefix (/personal/, /students/)
   * before reading anything else of the request.
   */
  requireSide(actor: Actor, side: "personal" | "student"): UserActor {
    return side === "personal" ? requireTrainer(actor) : requireStudent(actor);
  }

  private async removeLink(caller: UserActor, linkId: number, side: "personal" | "student"): Promise<void> {
    const { db, clock } = this.deps;
    const link = await linkRepository.findLink(db, linkId);
    if (!link || link.status !== "ACTIVE") throw notFound(LINK_NOT_FOUND);
    requireOwnerOrAdmin(caller, side === "personal" ? link.personalId : link.studentId);
    await db.transaction(async (tx) => {
      const now = clock.now();
      // Only one of several simultaneous removals ends the link (and sends the e-mail); the others find it gone.
      if (!(await linkRepository.deactivateLink(tx, linkId, now))) throw notFound(LINK_NOT_FOUND);
      await emit(tx, now, await linkEvent(tx, linkId));
      const [to, toName, byName] =
        side === "personal" ? [link.studentEmail, link.studentName, link.personalName] : [link.personalEmail, link.personalName, link.studentName];
      await this.deps.mail.enqueue(tx, coachingMails.linkRemoved(to, toName, byName), now);
    });
  }
}

/** The `link.updated` event of a link as it now is, for its two parties. */
export async function linkEvent(tx: Db, id: number): Promise<DomainEventOf<"link.updated">> {
  const row = (await linkRepository.findLink(tx, id))!;
  return { type: "link.updated", linkId: id, subjectUserIds: [row.personalId, row.studentId], data: toLink(row, "full") };
}

/**
 * A link's student as its page read it: the user as the users module's loader answers it (null when the trainer may
 * no longer read it), with the answer of each read other modules embedded in it, under its name.
 */
function studentFromJson(json: unknown, embedded: Record<string, EmbeddedRead<unknown>>): StudentWithReads | null {
  if (json === null || json === undefined) return null;
  const user = fromJson(json) as Record<string, unknown>;
  return Object.assign(userFromJson(user), ...Object.entries(embedded).map(([name, read]) => ({ [name]: read.answer(user[name]) })));
}
