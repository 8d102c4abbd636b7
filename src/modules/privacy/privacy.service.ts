import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { IdentityVerifier } from "../../platform/auth/identity-provider.js";
import type { PasswordHasher } from "../../platform/auth/password-hasher.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, forbidden, notFound, unauthorized } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { RateLimiter, RateLimitRule } from "../../platform/rate-limit/rate-limiter.js";
import type { InputReader } from "../../platform/validation.js";
import { INVALID_CREDENTIALS, USER_NOT_FOUND } from "../users/auth.service.js";
import type { UserRow } from "../users/user.dto.js";
import type { UserService } from "../users/user.service.js";
import type { AfterErasure, PersonalDataHolder, PersonalDataSections } from "./personal-data.js";
import type { DeleteAccountInput } from "./privacy.inputs.js";
import { accountErasedMail } from "./privacy.mails.js";

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
  hasher: PasswordHasher;
  identity: IdentityVerifier;
  rateLimiter: RateLimiter;
  users: UserService;
  /** Failed proofs of ownership a user may make per window before a 429 (the login's lockout, contract §2). */
  ownershipFailures: RateLimitRule;
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
  constructor(private readonly deps: PrivacyServiceDeps) {}

  /** Everything the service keeps of the caller, as one JSON document (no secret); once a minute at most. */
  async exportMine(actor: Actor): Promise<PersonalDataExport> {
    const caller = requireUser(actor);
    await this.deps.rateLimiter.hit(`data-export:${caller.id}`, EXPORT_RULE);
    const sections = await Promise.all(this.deps.holders.map((holder) => holder.exportPersonalData(caller.id)));
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
    // As at login, each attempt counts as a failure until it proves ownership: a stolen token guesses no password here.
    const attempt = await this.deps.rateLimiter.reserve(`erasure-failures:${user.id}`, this.deps.ownershipFailures);
    let proven: boolean;
    try {
      proven = await this.provesOwnership(user, input);
    } catch (error) {
      await attempt.giveBack();
      throw error;
    }
    if (!proven) throw new AppError(400, INVALID_CREDENTIALS);
    await attempt.giveBack();
    await this.erase(user.id);
  }

  /** An administrator erases any account. */
  async deleteUser(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    if (!caller.isAdmin) throw forbidden();
    await this.erase(id);
  }

  private async provesOwnership(user: UserRow, input: DeleteAccountInput): Promise<boolean> {
    if (input.password !== undefined) {
      // bcrypt reads 72 bytes at most; a longer password can never be one we stored.
      return Buffer.byteLength(input.password) <= 72 && (await this.deps.hasher.compare(input.password, user.passwordHash));
    }
    return (await this.deps.identity.verifiedEmail(input.firebaseToken!)) === user.email;
  }

  /**
   * One transaction asks every module to erase its rows, forgets the e-mails sent to the old address and queues the
   * notice to it; what must follow the
   * commit (gateway calls, files, other instances' session caches) runs after it, each failure logged, never undoing it.
   */
  private async erase(userId: number): Promise<void> {
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
