import { isOwnerOrAdmin, requireOwnerOrAdmin, requireStudent, requireTrainer } from "../access/ownership.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, forbidden, notFound } from "../../platform/errors.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import { toPage, type Page, type PageRequest } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { SubscriptionPlanService } from "../billing/subscription-plan.service.js";
import type { LinkListQuery } from "./coaching.inputs.js";
import { coachingMails } from "./coaching.mails.js";
import { toLink, type LinkDto, type LinkView } from "./coaching.dto.js";
import { linkRepository, type LinkFilter, type LinkInclude, type LinkParties, type LinkRecord } from "./link.repository.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import type { FeedSource } from "../events/feed-source.js";
import { userTreeFromJson, type UserTree } from "../users/user.tree.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

const LINK_NOT_FOUND = "Relacionamento não encontrado";

/** A link, with its parties when they were read along (a GraphQL selection's; null: the caller may no longer read one). */
export type LinkTree = LinkDto & { student?: UserTree | null; personal?: UserTree | null };

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

  /** A trainer's links to students (ACTIVE unless `status` says otherwise), by student name, each with what `include` names. */
  async listStudents(actor: Actor, readQuery: InputReader<LinkListQuery>, include: LinkInclude = {}): Promise<Page<LinkTree>> {
    const trainer = requireTrainer(actor);
    const { filter, page: request } = readQuery();
    return this.listLinks(trainer, { personalId: trainer.id, status: filter.status ?? "ACTIVE", name: filter.name }, request, include, "trainer");
  }

  /** A student's links to trainers (ACTIVE unless `status` says otherwise), by trainer name, each with what `include` names. */
  async listPersonals(actor: Actor, readQuery: InputReader<LinkListQuery>, include: LinkInclude = {}): Promise<Page<LinkTree>> {
    const student = requireStudent(actor);
    const { filter, page: request } = readQuery();
    return this.listLinks(student, { studentId: student.id, status: filter.status ?? "ACTIVE", name: filter.name }, request, include, "student");
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
   * ACTIVE links of each user, as trainer (`personal`) or as student, in the order asked (GraphQL loaders), each with
   * what `include` names: one query for all of them. Only the user themself and administrators see a user's links.
   */
  async listActiveLinksByUserIds(
    actor: Actor,
    side: "personal" | "student",
    userIds: readonly number[],
    include: LinkInclude,
  ): Promise<(LinkTree[] | AppError)[]> {
    const caller = requireUser(actor);
    const visible = userIds.filter((id) => isOwnerOrAdmin(caller, id));
    const rows = await linkRepository.activeLinksOf(this.deps.db, side, visible, caller, include);
    return userIds.map((id) =>
      visible.includes(id)
        ? rows.filter((row) => (side === "personal" ? row.personalId : row.studentId) === id).map((row) => toLinkTree(row, "full", include))
        : forbidden(),
    );
  }

  /** The link, as `reader` reads it with what `include` names (no access check: the asking module has just written it). */
  async readLinkTree(reader: UserActor, id: number, include: LinkInclude = {}): Promise<LinkTree> {
    return toLinkTree((await linkRepository.findLinkTree(this.deps.db, id, reader, include))!, "full", include);
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

  private async listLinks(reader: UserActor, filter: LinkFilter, request: PageRequest, include: LinkInclude, view: LinkView): Promise<Page<LinkTree>> {
    const { rows, total } = await linkRepository.listLinks(mayBeStale(this.deps.db), filter, request, reader, include);
    return toPage(
      rows.map((row) => toLinkTree(row, view, include)),
      total,
      request,
    );
  }

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

/** A link as read with what `include` names: its parties' trees decoded (user.tree.ts). */
function toLinkTree(row: LinkRecord & LinkParties, view: LinkView, include: LinkInclude): LinkTree {
  return {
    ...toLink(row, view),
    ...(include.student && { student: userTreeFromJson(row.student, include.student) }),
    ...(include.personal && { personal: userTreeFromJson(row.personal, include.personal) }),
  };
}
