import { z } from "zod";
import { int, instant } from "../../platform/answer-fields.js";
import { requireOwnerOrAdmin, requireStudent, requireTrainer } from "../access/ownership.js";
import type { Actor, UserActor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { isUniqueViolation } from "../../platform/db/constraint-violation.js";
import { AppError, conflict, notFound, validationError } from "../../platform/errors.js";
import type { MailLinks } from "../../platform/mail/mail-links.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import { toPage, type Page } from "../../platform/paging.js";
import type { InputReader } from "../../platform/validation.js";
import type { UserService } from "../users/user.service.js";
import type { AuthService } from "../users/auth.service.js";
import type { LoginInput } from "../users/user.inputs.js";
import type { RequestMeta } from "../../platform/auth/actor.js";
import type { InviteInput, InviteListQuery } from "./coaching.inputs.js";
import { coachingMails } from "./coaching.mails.js";
import { toReceivedInvite, toSentInvite, type ReceivedInviteDto, type SentInviteDto, linkSchema, receivedInviteSchema } from "./coaching.dto.js";
import { inviteRepository, type InviteRecord } from "./invite.repository.js";
import { linkRepository, type LinkInclude } from "./link.repository.js";
import { linkEvent, type LinkService, type LinkTree } from "./link.service.js";
import type { ActivityAccess } from "../access/activity-access.js";
import { DAY_MS } from "../../platform/dates.js";
import { emit, type DomainEventOf } from "../events/emit.js";
import type { FeedSource } from "../events/feed-source.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import { erasedEmail } from "../users/user.dto.js";

export const INVITE_TTL_MS = 7 * DAY_MS;
const INVITE_NOT_FOUND = "Convite não encontrado";
const PENDING_INVITE_EXISTS = "Já existe um convite pendente para este aluno";
const ALREADY_LINKED = "Aluno já vinculado a este personal";
const INVITE_CLOSED = "Este convite já foi processado ou expirou";
const LIMIT_REACHED = "Você atingiu o limite de alunos para seu plano atual";

export interface InviteServiceDeps {
  db: Db;
  clock: Clock;
  users: UserService;
  mail: MailOutbox;
  mailLinks: MailLinks;
  /** The trainer's student limit, and the link an accepted invite makes ACTIVE. */
  links: LinkService;
  access: ActivityAccess;
  /** Signs the invited student in for an answer given on the invite e-mail's page. */
  auth: Pick<AuthService, "asSignedIn">;
}

/** What the data export holds of this module (contract §15). */
const coachingExport = z.object({
  links: z.array(linkSchema).describe("The user's links, as trainer or as student, ACTIVE or not"),
  invites: z
    .array(
      receivedInviteSchema.extend({
        studentId: int().describe("The invited student's id"),
        studentEmail: z.string().describe("The address the invite was sent to"),
        updatedAt: instant.nullable().describe("When its status last changed, or null"),
      }),
    )
    .describe("The invites the user sent or received"),
});

/** Trainer-student invites: sending, listing, accepting, rejecting and expiring them; and the module's personal data. */
export class InviteService {
  constructor(private readonly deps: InviteServiceDeps) {}

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
        await inviteRepository.lockTrainer(tx, trainer.id);
        // Under the lock accepts take too: an invite racing the acceptance of the previous one sees the link.
        if (await this.deps.access.isTrainerOf(trainer.id, student.id, tx)) throw conflict(ALREADY_LINKED);
        const now = clock.now();
        const expired = await inviteRepository.expireInvites(tx, now, { personalId: trainer.id, studentId: student.id });
        if (await inviteRepository.hasPendingInvite(tx, trainer.id, student.id, now)) throw conflict(PENDING_INVITE_EXISTS);
        const limit = await this.deps.links.studentLimit(tx, trainer.id);
        if (limit !== null && (await linkRepository.countStudentSlotsUsed(tx, trainer.id, now)) >= limit) {
          throw new AppError(422, LIMIT_REACHED);
        }
        const expiresAt = new Date(now.getTime() + INVITE_TTL_MS);
        const inviteId = await inviteRepository.insertInvite(tx, {
          personalId: trainer.id,
          studentId: student.id,
          studentEmail: student.email,
          message: input.message ?? null,
          createdAt: now,
          expiresAt,
        });
        await emit(tx, now, ...(await inviteEvents(tx, now, [...expired.map((row) => row.id), inviteId])));
        const sender = await users.findById(trainer.id, tx);
        const answerUrl = this.deps.mailLinks.inviteAnswer(inviteId);
        await this.deps.mail.enqueue(
          tx,
          coachingMails.inviteSent(student.email, student.name, sender?.name ?? "", input.message ?? null, expiresAt, answerUrl),
          now,
        );
        return inviteId;
      });
      return toSentInvite((await inviteRepository.findInvite(db, id, clock.now()))!);
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
    const { rows, total } = await inviteRepository.listInvites(this.deps.db, { personalId: trainer.id, status }, request, this.deps.clock.now());
    return toPage(rows.map(toSentInvite), total, request);
  }

  /** The invites a student received. */
  async listReceivedInvites(actor: Actor, readQuery: InputReader<InviteListQuery>): Promise<Page<ReceivedInviteDto>> {
    const student = requireStudent(actor);
    const {
      filter: { status },
      page: request,
    } = readQuery();
    const { rows, total } = await inviteRepository.listInvites(this.deps.db, { studentId: student.id, status }, request, this.deps.clock.now());
    return toPage(rows.map(toReceivedInvite), total, request);
  }

  /**
   * A student accepts an invite: the invite ACCEPTED and the pair's link ACTIVE (the same link when it existed); 422
   * when the trainer's current limit has no room for one more ACTIVE student.
   */
  async acceptInvite(actor: Actor, id: number, include: LinkInclude = {}): Promise<LinkTree> {
    const student = requireStudent(actor);
    const { db, clock } = this.deps;
    const invite = await this.loadInvite(student, id);
    const linkId = await db.transaction(async (tx) => {
      await inviteRepository.lockTrainer(tx, invite.personalId);
      await inviteRepository.lockInvite(tx, id);
      const now = clock.now();
      const current = await inviteRepository.findInvite(tx, id, now);
      if (current?.status !== "PENDING") throw conflict(INVITE_CLOSED);
      // The limit may have dropped since the invite was sent (a downgrade): the ACTIVE links must still fit it.
      // Refused, the invite stays PENDING, acceptable once a place frees up or the plan allows more.
      const limit = await this.deps.links.studentLimit(tx, invite.personalId);
      if (limit !== null && (await linkRepository.countActiveStudents(tx, invite.personalId, invite.studentId)) >= limit) {
        throw new AppError(422, LIMIT_REACHED);
      }
      await inviteRepository.setInviteStatus(tx, id, "ACCEPTED", now);
      const activated = await linkRepository.activateLink(tx, invite.personalId, invite.studentId, now);
      await emit(tx, now, ...(await inviteEvents(tx, now, [id])), await linkEvent(tx, activated));
      const [trainer, me] = await Promise.all([this.deps.users.findById(invite.personalId, tx), this.deps.users.findById(invite.studentId, tx)]);
      if (trainer && me) await this.deps.mail.enqueue(tx, coachingMails.inviteAccepted(trainer.email, trainer.name, me.name), now);
      return activated;
    });
    return this.deps.links.readLinkTree(student, linkId, include);
  }

  /** A student turns an invite down; the trainer is told. */
  /**
   * Answers an invite from the page its e-mail links to: signed in with the credentials for this one answer, as the
   * invited student (the session ends with it).
   */
  async answerSignedIn(readLogin: InputReader<LoginInput>, meta: RequestMeta, id: number, accept: boolean): Promise<void> {
    await this.deps.auth.asSignedIn(readLogin, meta, async (student) => {
      if (accept) await this.acceptInvite(student, id);
      else await this.rejectInvite(student, id);
    });
  }

  async rejectInvite(actor: Actor, id: number): Promise<ReceivedInviteDto> {
    const student = requireStudent(actor);
    const { db, clock } = this.deps;
    const invite = await this.loadInvite(student, id);
    await db.transaction(async (tx) => {
      await inviteRepository.lockInvite(tx, id);
      const now = clock.now();
      const current = await inviteRepository.findInvite(tx, id, now);
      if (current?.status !== "PENDING") throw conflict(INVITE_CLOSED);
      await inviteRepository.setInviteStatus(tx, id, "REJECTED", now);
      await emit(tx, now, ...(await inviteEvents(tx, now, [id])));
      const [trainer, me] = await Promise.all([this.deps.users.findById(invite.personalId, tx), this.deps.users.findById(invite.studentId, tx)]);
      if (trainer && me) await this.deps.mail.enqueue(tx, coachingMails.inviteRejected(trainer.email, trainer.name, me.name), now);
    });
    return toReceivedInvite((await inviteRepository.findInvite(db, id, clock.now()))!);
  }

  /** The sweep: persists EXPIRED for invites past their expiry (they already read as EXPIRED). */
  async expireInvites(): Promise<number> {
    const now = this.deps.clock.now();
    return this.deps.db.transaction(async (tx) => {
      const expired = await inviteRepository.expireInvites(tx, now);
      await emit(
        tx,
        now,
        ...(await inviteEvents(
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
      const rows = await inviteRepository.findInvitesOf(this.deps.db, reader.id, ids, this.deps.clock.now());
      return new Map(rows.map((row) => [row.id, row.personalId === reader.id ? toSentInvite(row) : toReceivedInvite(row)]));
    },
    idsAfter: (reader, afterId, limit) => inviteRepository.inviteIdsAfter(this.deps.db, reader.id, afterId, limit),
  };

  /**
   * The links and invites a user is a party to (contract §15). Erasure ends them for the other party too: links
   * INACTIVE, waiting invites CANCELED, and the address invites were sent to replaced; both parties hear of it (change
   * feed, webhooks). One holder for the module's rows of both, here where the invite side already reaches the link
   * side, so that their export and their erasure's records and events keep one order.
   */
  readonly personalData: PersonalDataHolder<typeof coachingExport> = {
    exportSections: coachingExport,
    exportPersonalData: async (db, userId) => {
      const [links, invites] = await Promise.all([linkRepository.linksOfUser(db, userId), inviteRepository.invitesOfUser(db, userId, this.deps.clock.now())]);
      return { links, invites };
    },
    erasePersonalData: async (tx, userId, now) => {
      const links = await linkRepository.deactivateLinksOf(tx, userId, now);
      const invites = await inviteRepository.cancelInvitesOf(tx, userId, erasedEmail(userId), now);
      await emit(
        tx,
        now,
        ...(await inviteEvents(tx, now, [...new Set(invites.map((invite) => invite.id))])),
        ...(await Promise.all(links.map((link) => linkEvent(tx, link.id)))),
      );
    },
  };

  private async loadInvite(student: UserActor, id: number): Promise<InviteRecord> {
    const invite = await inviteRepository.findInvite(this.deps.db, id, this.deps.clock.now());
    if (!invite) throw notFound(INVITE_NOT_FOUND);
    requireOwnerOrAdmin(student, invite.studentId);
    return invite;
  }
}

/** The `invite.updated` events of invites as they now are, for their two parties (contract §14.1). */
async function inviteEvents(tx: Db, now: Date, ids: readonly number[]): Promise<DomainEventOf<"invite.updated">[]> {
  const rows = await Promise.all(ids.map((id) => inviteRepository.findInvite(tx, id, now)));
  return rows.flatMap((row) =>
    row ? [{ type: "invite.updated" as const, inviteId: row.id, subjectUserIds: [row.personalId, row.studentId], data: toSentInvite(row) }] : [],
  );
}
