import { z } from "zod";
import type { Actor, UserActor } from "../../platform/auth/actor.js";
import { requireScope, requireUser } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import { newSecretToken, secretTokenHash } from "../../platform/crypto/secret-tokens.js";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import type { Db } from "../../platform/db/database.js";
import { DAY_MS } from "../../platform/dates.js";
import { AppError, notFound } from "../../platform/errors.js";
import type { Logger } from "../../platform/logger.js";
import { LruMap } from "../../platform/lru-map.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import type { InputReader } from "../../platform/validation.js";
import type { DelegatedCredential, DelegatedCredentials } from "../users/delegated-credentials.js";
import type { SessionCache } from "../users/session-cache.js";
import { toPersonalTokenDto, type CreatedPersonalTokenDto, type PersonalTokenDto, personalTokenSchema } from "./developer.dto.js";
import type { PersonalTokenInput } from "./developer.inputs.js";
import { personalTokenRepository } from "./personal-token.repository.js";
import { LastUsedWriter } from "./last-used.js";

export const PERSONAL_TOKEN_PREFIX = "fit_pat_";
export const PERSONAL_TOKEN_NOT_FOUND = "Token não encontrado";
/** Tokens a user may hold at once: enough for every tool, bounded so a loop cannot fill the table. */
export const MAX_PERSONAL_TOKENS = 50;
/** Tokens identified and kept per instance (what never changes of them: whose, scopes, expiry). */
const IDENTIFIED_KEPT = 10_000;

export interface PersonalTokenServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  sessions: SessionCache;
}

const sessionKeyOf = (id: number) => `pat:${id}`;

/** What the data export holds of this module (contract §15). */
const personalTokenExport = z.object({
  personalAccessTokens: z.array(personalTokenSchema).describe("The user's personal access tokens (never the token itself)"),
});

/**
 * Personal access tokens (contract §18.3): a user's own tokens for their tools, with scopes and an expiry. Only a
 * login session creates them; deleting one refuses it at once on every instance (the session cache's announcement).
 */
export class PersonalTokenService {
  private readonly identified = new LruMap<DelegatedCredential>(IDENTIFIED_KEPT);
  private readonly lastUsed: LastUsedWriter;

  constructor(private readonly deps: PersonalTokenServiceDeps) {
    this.lastUsed = new LastUsedWriter(deps.clock, deps.logger, (id, at) => personalTokenRepository.touch(deps.db, Number(id), at));
  }

  async create(actor: Actor, readInput: InputReader<PersonalTokenInput>): Promise<CreatedPersonalTokenDto> {
    const caller = requireLoginSession(actor);
    const input = readInput();
    const token = PERSONAL_TOKEN_PREFIX + newSecretToken(30);
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction(async (tx) => {
      // One creation per user at a time, so concurrent ones cannot pass the limit together.
      await lockForTransaction(tx, "developer", caller.id);
      if ((await personalTokenRepository.countOf(tx, caller.id)) >= MAX_PERSONAL_TOKENS) {
        throw new AppError(409, `Limite de ${MAX_PERSONAL_TOKENS} tokens atingido`);
      }
      return personalTokenRepository.insert(tx, {
        userId: caller.id,
        name: input.name,
        tokenHash: secretTokenHash(token),
        scopes: input.scopes,
        expiresAt: new Date(now.getTime() + input.expiresInDays * DAY_MS),
        createdAt: now,
      });
    });
    return { ...toPersonalTokenDto(row), token };
  }

  async list(actor: Actor): Promise<PersonalTokenDto[]> {
    const caller = requireUser(actor);
    return (await personalTokenRepository.listOf(this.deps.db, caller.id)).map(toPersonalTokenDto);
  }

  /** Deletes one of the caller's tokens: from the next request on, on every instance, it is refused. */
  async revoke(actor: Actor, id: number): Promise<void> {
    const caller = requireUser(actor);
    if (!(await personalTokenRepository.delete(this.deps.db, caller.id, id))) throw notFound(PERSONAL_TOKEN_NOT_FOUND);
    await this.deps.sessions.tokenRevoked(caller.id, sessionKeyOf(id));
  }

  /** The user's tokens, without hashes (contract §15); erasure deletes them. */
  readonly personalData: PersonalDataHolder<typeof personalTokenExport> = {
    exportSections: personalTokenExport,
    exportPersonalData: async (db, userId) => ({ personalAccessTokens: (await personalTokenRepository.listOf(db, userId)).map(toPersonalTokenDto) }),
    erasePersonalData: async (tx, userId) => {
      const ids = await personalTokenRepository.deleteAllOf(tx, userId);
      return async () => {
        for (const id of ids) await this.deps.sessions.tokenRevoked(userId, sessionKeyOf(id));
      };
    },
  };

  /** What AuthService asks to authenticate a personal token. */
  readonly credentials: DelegatedCredentials = {
    recognizes: (token) => token.startsWith(PERSONAL_TOKEN_PREFIX),
    identify: async (token) => {
      const hash = secretTokenHash(token);
      const kept = this.identified.get(hash);
      if (kept) return kept;
      const row = await personalTokenRepository.findByHash(this.deps.db, hash);
      if (!row) return null;
      const credential: DelegatedCredential = {
        userId: row.userId,
        credential: { kind: "personal-token", tokenId: row.id },
        scopes: new Set(row.scopes),
        expiresAt: row.expiresAt,
        sessionKey: sessionKeyOf(row.id),
      };
      this.identified.set(hash, credential);
      return credential;
    },
    holds: (credential) => personalTokenRepository.exists(this.deps.db, tokenIdOf(credential)),
    used: (credential) => this.lastUsed.note(String(tokenIdOf(credential))),
  };
}

function tokenIdOf(credential: DelegatedCredential): number {
  if (credential.credential.kind !== "personal-token") throw new Error("not a personal token");
  return credential.credential.tokenId;
}

/**
 * The caller, signed in with a login token: a token handed to a tool never mints more tokens or apps (a leaked one
 * would otherwise outlive its own revocation).
 */
export function requireLoginSession(actor: Actor): UserActor {
  const caller = requireUser(actor);
  requireScope(caller, "login");
  return caller;
}
