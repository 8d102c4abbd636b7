import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { erasingAccount } from "../../platform/db/account-writes.js";
import type { Db } from "../../platform/db/database.js";
import { forbidden, notFound, unauthorized } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { RateLimiter, RateLimitRule } from "../../platform/rate-limit/rate-limiter.js";
import type { InputReader } from "../../platform/validation.js";
import { USER_NOT_FOUND, type AuthService } from "../users/auth.service.js";
import type { UserService } from "../users/user.service.js";
import type { AfterErasure, PersonalDataHolder, PersonalDataSections } from "../../platform/personal-data.js";
import type { DeleteAccountInput } from "./privacy.inputs.js";
import { accountErasedMail } from "./privacy.mails.js";
import { mayBeStale } from "../../platform/db/read-routing.js";

/** At most one export per user per minute (contract §15), counted for every instance in the database. */
const EXPORT_RULE: RateLimitRule = { limit: 1, windowMs: 60_000 };

export interface PersonalDataExport {
  fileName: string;
  document: { exportedAt: Date; userId: number } & PersonalDataSections;
}

export interface PrivacyServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  mail: MailOutbox;
  rateLimiter: RateLimiter;
  users: UserService;
  /** Whether the caller proves the account is theirs (the users module's rule, with the login's lockout). */
  auth: Pick<AuthService, "proveOwnership">;
  /**
   * Every module keeping a person's rows, in the order erasure asks them: billing first (its lock comes before the
   * account's row in every billing write, and its notices still reach the old address), the users module (the account
   * itself) next to last, sync last (it drops what the others recorded for the user).
   */
  holders: readonly PersonalDataHolder[];
}

/**
 * The data subject's rights of LGPD art. 18 (contract §15): a copy of their data, and its erasure. Each module
 * exports and erases its own rows (PersonalDataHolder); this service composes them, the erasure in one transaction.
 */
export class PrivacyService {
  /** The export's document: when and whose, then each module's sections, as GET /users/me/export declares it. */
  readonly exportDocument: z.ZodObject;

  constructor(private readonly deps: PrivacyServiceDeps) {
    const sections = Object.assign({}, ...deps.holders.map((holder) => holder.exportSections.shape)) as z.ZodRawShape;
    this.exportDocument = z
      .object({
        exportedAt: instant.describe("When the export was made"),
        userId: int().describe("Whose data it is"),
        ...sections,
      })
      .meta({ id: "PersonalDataExport", description: "Everything the service keeps of a user, but secrets (contract §15)" });
  }

  /**
   * Everything the service keeps of the caller, as one JSON document (no secret); once a minute at most. Every module
   * reads in one REPEATABLE READ transaction, so all sections come from one snapshot even while the user writes (no
   * record whose execution is missing, a profile weight that is the newest of the weight history); read only, and
   * nothing but reads inside it (so it may run on a replica that has replayed the caller's writes): the document is
   * sent once it has ended.
   */
  async exportMine(actor: Actor): Promise<PersonalDataExport> {
    const caller = requireUser(actor);
    await this.deps.rateLimiter.hit(`data-export:${caller.id}`, EXPORT_RULE);
    const sections = await mayBeStale(this.deps.db).transaction(
      (tx) => Promise.all(this.deps.holders.map((holder) => holder.exportPersonalData(tx, caller.id))),
      {
        isolationLevel: "repeatable read",
        accessMode: "read only",
      },
    );
    return {
      fileName: `dados-${caller.id}.json`,
      document: { exportedAt: this.deps.clock.now(), userId: caller.id, ...Object.assign({}, ...sections) },
    };
  }

  /** Erases the caller's account once they prove it is theirs (password, or an identity provider's ID token). */
  async deleteMyAccount(actor: Actor, readInput: InputReader<DeleteAccountInput>): Promise<void> {
    const caller = requireUser(actor);
    const input = readInput();
    const user = await this.deps.users.findById(caller.id);
    if (!user) throw unauthorized();
    await this.deps.auth.proveOwnership(user, input);
    await this.erase(user.id);
  }

  /** An administrator erases any account. */
  async deleteUser(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    if (!caller.isAdmin) throw forbidden();
    await this.erase(id);
  }

  /**
   * One transaction asks every module to erase its rows, forgets the e-mails sent to the old address and queues the
   * notice to it; what must follow the
   * commit (gateway calls, files, other instances' session caches) runs after it, each failure logged, never undoing it.
   * It holds the account's lock alone (erasingAccount): the account's writes under way commit first, and are erased
   * with the rest; those that come later wait for it, then find the session ended.
   */
  private erase(userId: number): Promise<void> {
    return erasingAccount(userId, () => this.eraseAlone(userId));
  }

  private async eraseAlone(userId: number): Promise<void> {
    const { db, clock, users, holders, mail } = this.deps;
    const followUps = await db.transaction(async (tx) => {
      // Read, not locked: each module takes its own locks in their usual order, the users module last (it re-checks).
      const user = await users.findErasable(userId, tx);
      if (!user) throw notFound(USER_NOT_FOUND);
      const now = clock.now();
      const after: AfterErasure[] = [];
      for (const holder of holders) {
        const followUp = await holder.erasePersonalData(tx, userId, now);
        if (followUp) after.push(followUp);
      }
      await mail.forgetDeliveredTo(tx, user.email);
      await mail.enqueue(tx, accountErasedMail(user.email, user.name), now);
      return after;
    });
    for (const followUp of followUps) {
      try {
        await followUp();
      } catch (error) {
        this.deps.logger.error({ err: error, userId }, "work after an account's erasure failed");
      }
    }
  }
}
