import { isOwnerOrAdmin, requireOwnerOrAdmin, requireStudent, requireTrainer } from "../../platform/auth/access.js";
import { requireUser, type Actor, type UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { isUniqueViolation } from "../../platform/db/constraint-violation.js";
import { AppError, conflict, forbidden, notFound, validationError } from "../../platform/errors.js";
import type { MailLinks } from "../../platform/mail/mail-links.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { SubscriptionPlanService } from "../billing/subscription-plan.service.js";
import type { UserService } from "../users/user.service.js";
import type { InviteInput, InviteListQuery, LinkListQuery } from "./coaching.inputs.js";
import { coachingMails } from "./coaching.mails.js";
import type { LinkDto, ReceivedInviteDto, SentInviteDto } from "./coaching.dto.js";
import { coachingRepository, linkKey, type InviteRecord, type LinkRecord } from "./coaching.repository.js";
import { DAY_MS } from "../../platform/dates.js";
import { recordEvent, type DomainEvent } from "../webhooks/domain-events.recorder.js";
import { recordChanges, type ChangeTo, type FeedSource } from "../sync/change-feed.recorder.js";
import type { PersonalDataHolder } from "../privacy/personal-data.js";
import { erasedEmail, type UserDto } from "../users/user.dto.js";
import { userFromJson } from "../users/user.fragments.js";
import type { EmbeddedRead } from "../../platform/db/embedded-read.js";
import { fromJson } from "../../platform/db/json.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

export const INVITE_TTL_MS = 7 * DAY_MS;
const INVITE_NOT_FOUND = "Convite não encontrado";
const LINK_NOT_FOUND = "Relacionamento não encontrado";
const PENDING_INVITE_EXISTS = "Já existe um convite pendente para este aluno";
const ALREADY_LINKED = "Aluno já vinculado a este personal";
const INVITE_CLOSED = "Este convite já foi processado ou expirou";
const LIMIT_REACHED = "Você atingiu o limite de alunos para seu plano atual";

export type { LinkDto, ReceivedInviteDto, SentInviteDto };

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

/** A reader, and the users whose activity it would read (an event's subjects). */
export interface ActivityQuestion {
  reader: Pick<UserActor, "id" | "isAdmin">;
  userIds: readonly number[];
}

/** A trainer's students against its plan's limit (contract §6, §12.3). */
export interface TrainerSeats {
  active: number;
  /** null = unlimited. */
  limit: number | null;
  pendingInvites: number;
}

export interface CoachingServiceDeps {
  db: Db;
  clock: Clock;
  subscriptionPlans: SubscriptionPlanService;
  users: UserService;
  mail: MailOutbox;
  freeTrainerMaxStudents: number;
  links: MailLinks;
}

/** Trainer-student invites and links, and the questions other modules ask of them ("are these two linked?"). */
export class CoachingService {
  constructor(private readonly deps: CoachingServiceDeps) {}

  /** A trainer invites a student by e-mail: PENDING for a week, within the trainer's student limit; the student is told. */
  async invite(actor: Actor, readInput: InputReader<InviteInput>): Promise<SentInviteDto> {
    const trainer = requireTrainer(actor);
    const input = readInput();
    const { db, clock, users } = this.deps;
    const student = await users.getByEmail(input.studentEmail);
    if (student.userType !== "ALUNO") throw validationError([{ field: "studentEmail", message: "O e-mail informado não é de um aluno" }]);

    try {
      const id = await db.transaction(async (tx) => {
        // One trainer's invites run one at a time, so concurrent invites never pass the student limit.
        await coachingRepository.lockTrainer(tx, trainer.id);
        // Under the lock accepts take too: an invite racing the acceptance of the previous one sees the link.
        if (await coachingRepository.isTrainerOf(tx, trainer.id, student.id)) throw conflict(ALREADY_LINKED);
        const now = clock.now();
        const expired = await coachingRepository.expireInvites(tx, now, { personalId: trainer.id, studentId: student.id });
        if (await coachingRepository.hasPendingInvite(tx, trainer.id, student.id, now)) throw conflict(PENDING_INVITE_EXISTS);
        const limit = await this.studentLimit(tx, trainer.id);
        if (limit !== null && (await coachingRepository.countStudentSlotsUsed(tx, trainer.id, now)) >= limit) {
          throw new AppError(422, LIMIT_REACHED);
        }
        const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
        const inviteId = await coachingRepository.insertInvite(tx, {
          personalId: trainer.id,
          studentId: student.id,
          studentEmail: student.email,
          message: input.message ?? null,
          createdAt: now,
          expiresAt,
        });
        await recordChanges(tx, now, ...invitesOf([...expired, { id: inviteId, personalId: trainer.id, studentId: student.id }]));
        await recordEvent(tx, now, ...(await this.inviteEvents(tx, now, [...expired.map((row) => row.id), inviteId])));
        const sender = await users.findById(trainer.id, tx);
        const answerUrl = this.deps.links.inviteAnswer(inviteId);
        await this.deps.mail.enqueue(
          tx,
          coachingMails.inviteSent(student.email, student.name, sender?.name ?? "", input.message ?? null, expiresAt, answerUrl),
          now,
        );
        return inviteId;
      });
      return toSentInvite((await coachingRepository.findInvite(db, id, clock.now()))!);
    } catch (error) {
      if (isUniqueViolation(error, "invites_one_pending_per_pair")) throw conflict(PENDING_INVITE_EXISTS);
      throw error;
    }
  }

  /** The invites a trainer sent. */
  async listSentInvites(actor: Actor, readQuery: InputReader<InviteListQuery>): Promise<Page<SentInviteDto>> {
    const trainer = requireTrainer(actor);
    const {
      filter: { status },
      page: request,
    } = readQuery();
    const { rows, total } = await coachingRepository.listInvites(this.deps.db, { personalId: trainer.id, status }, request, this.deps.clock.now());
    return toPage(rows.map(toSentInvite), total, request);
  }

  /** The invites a student received. */
  async listReceivedInvites(actor: Actor, readQuery: InputReader<InviteListQuery>): Promise<Page<ReceivedInviteDto>> {
    const student = requireStudent(actor);
    const {
      filter: { status },
      page: request,
    } = readQuery();
    const { rows, total } = await coachingRepository.listInvites(this.deps.db, { studentId: student.id, status }, request, this.deps.clock.now());
    return toPage(rows.map(toReceivedInvite), total, request);
  }

  /**
   * A student accepts an invite: the invite ACCEPTED and the pair's link ACTIVE (the same link when it existed); 422
   * when the trainer's current limit has no room for one more ACTIVE student.
   */
  async acceptInvite(actor: Actor, id: number): Promise<LinkDto> {
    const student = requireStudent(actor);
    const { db, clock } = this.deps;
    const invite = await this.loadInvite(student, id);
    const linkId = await db.transaction(async (tx) => {
      await coachingRepository.lockTrainer(tx, invite.personalId);
      await coachingRepository.lockInvite(tx, id);
      const now = clock.now();
      const current = await coachingRepository.findInvite(tx, id, now);
      if (current?.status !== "PENDING") throw conflict(INVITE_CLOSED);
      // The limit may have dropped since the invite was sent (a downgrade): the ACTIVE links must still fit it.
      // Refused, the invite stays PENDING, acceptable once a place frees up or the plan allows more.
      const limit = await this.studentLimit(tx, invite.personalId);
      if (limit !== null && (await coachingRepository.countActiveStudents(tx, invite.personalId, invite.studentId)) >= limit) {
        throw new AppError(422, LIMIT_REACHED);
      }
      await coachingRepository.setInviteStatus(tx, id, "ACCEPTED", now);
      const activated = await coachingRepository.activateLink(tx, invite.personalId, invite.studentId, now);
      const parties = [invite.personalId, invite.studentId];
      await recordChanges(tx, now, { entity: "invite", ids: [id], userIds: parties }, { entity: "link", ids: [activated], userIds: parties });
      await recordEvent(tx, now, ...(await this.inviteEvents(tx, now, [id])), await this.linkEvent(tx, activated));
      const [trainer, me] = await Promise.all([this.deps.users.findById(invite.personalId, tx), this.deps.users.findById(invite.studentId, tx)]);
      if (trainer && me) await this.deps.mail.enqueue(tx, coachingMails.inviteAccepted(trainer.email, trainer.name, me.name), now);
      return activated;
    });
    return toLink((await coachingRepository.findLink(db, linkId))!, "full");
  }

  /** A student turns an invite down; the trainer is told. */
  async rejectInvite(actor: Actor, id: number): Promise<ReceivedInviteDto> {
    const student = requireStudent(actor);
    const { db, clock } = this.deps;
    const invite = await this.loadInvite(student, id);
    await db.transaction(async (tx) => {
      await coachingRepository.lockInvite(tx, id);
      const now = clock.now();
      const current = await coachingRepository.findInvite(tx, id, now);
      if (current?.status !== "PENDING") throw conflict(INVITE_CLOSED);
      await coachingRepository.setInviteStatus(tx, id, "REJECTED", now);
      await recordChanges(tx, now, ...invitesOf([invite]));
      await recordEvent(tx, now, ...(await this.inviteEvents(tx, now, [id])));
      const [trainer, me] = await Promise.all([this.deps.users.findById(invite.personalId, tx), this.deps.users.findById(invite.studentId, tx)]);
      if (trainer && me) await this.deps.mail.enqueue(tx, coachingMails.inviteRejected(trainer.email, trainer.name, me.name), now);
    });
    return toReceivedInvite((await coachingRepository.findInvite(db, id, clock.now()))!);
  }

  /** A trainer's links to students (ACTIVE unless `status` says otherwise), by student name. */
  async listStudents(actor: Actor, readQuery: InputReader<LinkListQuery>, include: StudentsInclude = {}): Promise<Page<LinkWithStudent>> {
    const trainer = requireTrainer(actor);
    const {
      filter: { status, name },
      page: request,
    } = readQuery();
    const db = mayBeStale(this.deps.db);
    const { rows, total } = await coachingRepository.listLinks(db, { personalId: trainer.id, status: status ?? "ACTIVE", name }, request, {
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
    const { rows, total } = await coachingRepository.listLinks(mayBeStale(this.deps.db), { studentId: student.id, status: status ?? "ACTIVE", name }, request);
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
    const rows = await coachingRepository.activeLinksOf(this.deps.db, side, visible);
    return userIds.map((id) =>
      visible.includes(id)
        ? rows.filter((row) => (side === "personal" ? row.personalId : row.studentId) === id).map((row) => toLink(row, "full"))
        : forbidden(),
    );
  }

  /** True when `personalId` is the ACTIVE-linked trainer of `studentId`. */
  isTrainerOf(personalId: number, studentId: number, db: Db = this.deps.db): Promise<boolean> {
    return coachingRepository.isTrainerOf(db, personalId, studentId);
  }

  /**
   * Who may read a user's logged activity — executions, statistics, progress, records (contract §7): the user,
   * administrators and the user's ACTIVE-linked trainer; anyone else 403 `Acesso negado`.
   */
  async ensureMayReadActivity(caller: UserActor, userId: number): Promise<void> {
    if (isOwnerOrAdmin(caller, userId)) return;
    if (!(await coachingRepository.isTrainerOf(this.deps.db, caller.id, userId))) throw forbidden();
  }

  /** Those of `userIds` whose activity the caller may read (the rule of ensureMayReadActivity), in one query. */
  async activityReadableAmong(caller: Pick<UserActor, "id" | "isAdmin">, userIds: readonly number[]): Promise<Set<number>> {
    const answers = await this.mayReadActivities(userIds.map((id) => ({ reader: caller, userIds: [id] })));
    return new Set(userIds.filter((_, index) => answers[index]));
  }

  /**
   * For each question, whether its reader may read the activity of all its users (the rule of ensureMayReadActivity),
   * for all of them in at most one query: an event's receivers are checked together, never one statement each (live
   * updates, webhook dispatch). `db`: a transaction to read the links in (the webhook dispatcher's).
   */
  async mayReadActivities(questions: readonly ActivityQuestion[], db: Db = this.deps.db): Promise<boolean[]> {
    const asked = questions.flatMap(({ reader, userIds }) =>
      userIds.filter((id) => !isOwnerOrAdmin(reader, id)).map((studentId) => ({ personalId: reader.id, studentId })),
    );
    const linked = await coachingRepository.activeLinksAmong(db, asked);
    return questions.map(({ reader, userIds }) => userIds.every((id) => isOwnerOrAdmin(reader, id) || linked.has(linkKey(reader.id, id))));
  }

  /**
   * A trainer's seats (no access check: the asking module has its own rule): its ACTIVE students, its student limit
   * (null = unlimited) and its PENDING invites still open.
   */
  async seatsOf(trainerId: number): Promise<TrainerSeats> {
    const { clock } = this.deps;
    const db = mayBeStale(this.deps.db);
    const [{ active, pendingInvites }, limit] = await Promise.all([
      coachingRepository.countSeatsTaken(db, trainerId, clock.now()),
      this.studentLimit(db, trainerId),
    ]);
    return { active, limit, pendingInvites };
  }

  /** The sweep: persists EXPIRED for invites past their expiry (they already read as EXPIRED). */
  async expireInvites(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const expired = await coachingRepository.expireInvites(tx, now);
      await recordChanges(tx, now, ...invitesOf(expired));
      await recordEvent(
        tx,
        now,
        ...(await this.inviteEvents(
          tx,
          now,
          expired.map((row) => row.id),
        )),
      );
      return expired.length;
    });
  }

  /** The change feed's invites (contract §13.3): those the reader sent or received, as its listing shows them. */
  readonly inviteFeed: FeedSource<SentInviteDto | ReceivedInviteDto> = {
    load: async (reader, ids) => {
      const rows = await coachingRepository.findInvitesOf(this.deps.db, reader.id, ids, this.deps.clock.now());
      return new Map(rows.map((row) => [row.id, row.personalId === reader.id ? toSentInvite(row) : toReceivedInvite(row)]));
    },
    idsAfter: (reader, afterId, limit) => coachingRepository.inviteIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  /**
   * The links and invites a user is a party to (contract §15). Erasure ends them for the other party too: links
   * INACTIVE, waiting invites CANCELED, and the address invites were sent to replaced; both parties hear of it (change
   * feed, webhooks).
   */
  readonly personalData: PersonalDataHolder = {
    exportPersonalData: async (db, userId) => {
      const [links, invites] = await Promise.all([
        coachingRepository.linksOfUser(db, userId),
        coachingRepository.invitesOfUser(db, userId, this.deps.clock.now()),
      ]);
      return { links, invites };
    },
    erasePersonalData: async (tx, userId, now) => {
      const links = await coachingRepository.deactivateLinksOf(tx, userId, now);
      const invites = await coachingRepository.cancelInvitesOf(tx, userId, erasedEmail(userId), now);
      await recordChanges(
        tx,
        now,
        ...links.map((link): ChangeTo => ({ entity: "link", ids: [link.id], userIds: [link.personalId, link.studentId] })),
        ...invitesOf(invites),
      );
      await recordEvent(
        tx,
        now,
        ...(await this.inviteEvents(tx, now, [...new Set(invites.map((invite) => invite.id))])),
        ...(await Promise.all(links.map((link) => this.linkEvent(tx, link.id)))),
      );
    },
  };

  /** The change feed's links (contract §13.3): the reader's ACTIVE ones, as its listing shows them (a removed link reads as DELETE). */
  readonly linkFeed: FeedSource<LinkDto> = {
    load: async (reader, ids) => {
      const rows = await coachingRepository.findActiveLinksOf(this.deps.db, reader.id, ids);
      return new Map(rows.map((row) => [row.id, toLink(row, row.personalId === reader.id ? "trainer" : "student")]));
    },
    idsAfter: (reader, afterId, limit) => coachingRepository.activeLinkIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  private async removeLink(caller: UserActor, linkId: number, side: "personal" | "student"): Promise<void> {
    const { db, clock } = this.deps;
    const link = await coachingRepository.findLink(db, linkId);
    if (!link || link.status !== "ACTIVE") throw notFound(LINK_NOT_FOUND);
    requireOwnerOrAdmin(caller, side === "personal" ? link.personalId : link.studentId);
    await db.transaction(async (tx) => {
      const now = clock.now();
      // Only one of several simultaneous removals ends the link (and sends the e-mail); the others find it gone.
      if (!(await coachingRepository.deactivateLink(tx, linkId, now))) throw notFound(LINK_NOT_FOUND);
      await recordChanges(tx, now, { entity: "link", ids: [linkId], userIds: [link.personalId, link.studentId] });
      await recordEvent(tx, now, await this.linkEvent(tx, linkId));
      const [to, toName, byName] =
        side === "personal" ? [link.studentEmail, link.studentName, link.personalName] : [link.personalEmail, link.personalName, link.studentName];
      await this.deps.mail.enqueue(tx, coachingMails.linkRemoved(to, toName, byName), now);
    });
  }

  /** The `invite.updated` events of invites as they now are, for their two parties (contract §14.1). */
  private async inviteEvents(tx: Db, now: Date, ids: readonly number[]): Promise<DomainEvent[]> {
    const rows = await Promise.all(ids.map((id) => coachingRepository.findInvite(tx, id, now)));
    return rows.flatMap((row) => (row ? [{ type: "invite.updated" as const, subjectUserIds: [row.personalId, row.studentId], data: toSentInvite(row) }] : []));
  }

  /** The `link.updated` event of a link as it now is, for its two parties. */
  private async linkEvent(tx: Db, id: number): Promise<DomainEvent> {
    const row = (await coachingRepository.findLink(tx, id))!;
    return { type: "link.updated", subjectUserIds: [row.personalId, row.studentId], data: toLink(row, "full") };
  }

  private async loadInvite(student: UserActor, id: number): Promise<InviteRecord> {
    const invite = await coachingRepository.findInvite(this.deps.db, id, this.deps.clock.now());
    if (!invite) throw notFound(INVITE_NOT_FOUND);
    requireOwnerOrAdmin(student, invite.studentId);
    return invite;
  }

  /** maxStudents of the trainer's ACTIVE plan (null = unlimited), or the free allowance without one. */
  private async studentLimit(db: Db, trainerId: number): Promise<number | null> {
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
}

/** The change feed's records of invites: each for both its parties. */
function invitesOf(rows: { id: number; personalId: number; studentId: number }[]): ChangeTo[] {
  return rows.map((row) => ({ entity: "invite", ids: [row.id], userIds: [row.personalId, row.studentId] }));
}

function toSentInvite(row: InviteRecord): SentInviteDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    studentEmail: row.studentEmail,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    ...(row.updatedAt ? { updatedAt: row.updatedAt } : {}),
  };
}

function toReceivedInvite(row: InviteRecord): ReceivedInviteDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    personalEmail: row.personalEmail,
    personalProfilePicture: row.personalProfilePicture,
    message: row.message,
    status: row.status,
    createdAt: row.createdAt,
    expiresAt: row.expiresAt,
    ...(row.updatedAt ? { updatedAt: row.updatedAt } : {}),
  };
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

function toLink(row: LinkRecord, view: "full" | "trainer" | "student"): LinkDto {
  return {
    id: row.id,
    personalId: row.personalId,
    personalName: row.personalName,
    ...(view !== "trainer" ? { personalEmail: row.personalEmail, personalProfilePicture: row.personalProfilePicture } : {}),
    studentId: row.studentId,
    studentName: row.studentName,
    ...(view !== "student" ? { studentEmail: row.studentEmail, studentProfilePicture: row.studentProfilePicture } : {}),
    status: row.status,
    createdAt: row.createdAt,
    updatedAt: row.updatedAt,
  };
}
