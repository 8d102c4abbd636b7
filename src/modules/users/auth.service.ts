import { newSecretToken, secretTokenHash } from "../../platform/crypto/secret-tokens.js";
import type { AccessTokens } from "../../platform/auth/access-tokens.js";
import { requireUser, requireScope, type Actor, type RequestMeta, type UserActor } from "../../platform/auth/actor.js";
import type { IdentityVerifier } from "../../platform/auth/identity-provider.js";
import type { PasswordHasher } from "../../platform/auth/password-hasher.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { writingAs } from "../../platform/db/account-writes.js";
import { isUniqueViolation } from "../../platform/db/constraint-violation.js";
import { AppError, INVALID_TOKEN, conflict, notFound, unauthorized } from "../../platform/errors.js";
import type { MailLinks } from "../../platform/mail/mail-links.js";
import type { MailOutbox } from "../../platform/mail/outbox.js";
import type { RateLimiter, RateLimitRule } from "../../platform/rate-limit/rate-limiter.js";
import type { InputReader } from "../../platform/validation.js";
import { toUserDto, type MessageDto, type SessionDto, type UserRow } from "./user.dto.js";
import type { ConfirmEmailInput, FirebaseLoginInput, ForgotPasswordInput, LoginInput, RegisterInput, ResetPasswordInput } from "./user.inputs.js";
import { confirmationMail, passwordResetMail } from "./user.mails.js";
import { userRepository } from "./user.repository.js";
import type { SessionCache, SessionUser } from "./session-cache.js";
import type { DelegatedCredentials } from "./delegated-credentials.js";
import type { OneTimeTokenPurpose } from "../../tables/user.table.js";
import { DAY_MS } from "../../platform/dates.js";
import { emit } from "../events/emit.js";

export const USER_NOT_FOUND = "Usuário não encontrado";
export const INVALID_CREDENTIALS = "Credenciais inválidas";
const INVALID_PROVIDER_TOKEN = "Token do provedor de identidade inválido";
const RESET_TOKEN_TTL_MS = 60 * 60 * 1000;
const CONFIRMATION_TOKEN_TTL_MS = 7 * DAY_MS;

export type AuthEndpoint = "login" | "register" | "firebase-login" | "forgot-password" | "reset-password";

export interface AuthServiceDeps {
  db: Db;
  clock: Clock;
  mail: MailOutbox;
  hasher: PasswordHasher;
  tokens: AccessTokens;
  identity: IdentityVerifier;
  rateLimiter: RateLimiter;
  sessions: SessionCache;
  /** Tokens handed to tools (personal tokens, apps' access tokens), by their issuers in the module above. */
  delegated: readonly DelegatedCredentials[];
  links: MailLinks;
  adminEmails: readonly string[];
  limits: { perMinute: number; loginFailuresPerEmail: number };
}

/** Accounts and sessions: registration, the ways in, the ways out, and who a token belongs to. */
export class AuthService {
  private readonly perAddress: RateLimitRule;
  private readonly loginFailures: RateLimitRule;

  constructor(private readonly deps: AuthServiceDeps) {
    this.perAddress = { limit: deps.limits.perMinute, windowMs: 60_000 };
    this.loginFailures = { limit: deps.limits.loginFailuresPerEmail, windowMs: 15 * 60_000 };
  }

  /** Creates an account and signs it in; unless it arrives confirmed, a confirmation link is e-mailed. */
  async register(readInput: InputReader<RegisterInput>, meta: RequestMeta): Promise<SessionDto> {
    await this.throttle("register", meta);
    const input = readInput();
    const { db, clock, hasher } = this.deps;
    if (await userRepository.findByEmail(db, input.email)) throw conflict(EMAIL_TAKEN);
    const passwordHash = await hasher.hash(input.password);
    const emailConfirmed = input.requestLocation === "WEB" && input.confirmed;
    try {
      const user = await db.transaction(async (tx) => {
        const now = clock.now();
        const created = await userRepository.insert(tx, {
          name: input.name,
          email: input.email,
          passwordHash,
          userType: input.userType,
          emailConfirmed,
          isAdmin: this.deps.adminEmails.includes(input.email),
          createdAt: now,
          updatedAt: now,
        });
        if (!emailConfirmed) {
          const token = await this.issueOneTimeToken(tx, created.id, "EMAIL_CONFIRMATION", CONFIRMATION_TOKEN_TTL_MS);
          await this.deps.mail.enqueue(tx, confirmationMail(created.email, created.name, this.deps.links.confirmEmail(token)), now);
        }
        await emit(tx, now, { type: "user.created", userId: created.id });
        return created;
      });
      return this.session(user);
    } catch (error) {
      // Two registrations of one e-mail at the same moment: the unique index decides.
      if (isUniqueViolation(error, "users_email_key")) throw conflict(EMAIL_TAKEN);
      throw error;
    }
  }

  /** Signs in with e-mail and password; repeated failures for one e-mail are locked out for a while. */
  async login(readInput: InputReader<LoginInput>, meta: RequestMeta): Promise<SessionDto> {
    return this.session(await this.checkCredentials(readInput, meta));
  }

  /**
   * The user an e-mail and password sign in, under login's limits and lockout, without a session: what the
   * authorization server's login page asks before the user approves an app.
   */
  async checkCredentials(readInput: InputReader<LoginInput>, meta: RequestMeta): Promise<UserRow> {
    await this.throttle("login", meta);
    const input = readInput();
    const email = input.email.toLowerCase();
    // Every attempt counts as a failure from before the password is checked, so concurrent attempts cannot outrun
    // the lock; an attempt that turns out not to be a failure gives its place back.
    const attempt = await this.deps.rateLimiter.reserve(`login-failures:${email}`, this.loginFailures);
    let user: UserRow | null;
    let matches: boolean;
    try {
      user = await userRepository.findByEmail(this.deps.db, email);
      matches = user !== null && (await this.passwordMatches(user, input.password));
    } catch (error) {
      await attempt.giveBack();
      throw error;
    }
    if (!user) throw notFound(USER_NOT_FOUND);
    if (!matches) throw new AppError(400, INVALID_CREDENTIALS);
    await attempt.giveBack();
    return user;
  }

  /**
   * 400 `Credenciais inválidas` unless the owner proves the account is theirs (its password, or an identity provider's
   * ID token of its e-mail), before an irreversible act on it (its erasure). As at login, each attempt counts as a
   * failure until it proves ownership, so a stolen token guesses no password through it (429 once locked out).
   */
  async proveOwnership(user: UserRow, proof: { password?: string; firebaseToken?: string }): Promise<void> {
    const attempt = await this.deps.rateLimiter.reserve(`ownership-failures:${user.id}`, this.loginFailures);
    let proven: boolean;
    try {
      proven =
        proof.password !== undefined
          ? await this.passwordMatches(user, proof.password)
          : proof.firebaseToken !== undefined && (await this.deps.identity.verifiedEmail(proof.firebaseToken)) === user.email;
    } catch (error) {
      await attempt.giveBack();
      throw error;
    }
    if (!proven) throw new AppError(400, INVALID_CREDENTIALS);
    await attempt.giveBack();
  }

  /** Signs in the account of the e-mail an identity provider's ID token vouches for. */
  async firebaseLogin(readInput: InputReader<FirebaseLoginInput>, meta: RequestMeta): Promise<SessionDto> {
    await this.throttle("firebase-login", meta);
    const input = readInput();
    const email = await this.deps.identity.verifiedEmail(input.firebaseToken);
    if (!email) throw new AppError(400, INVALID_PROVIDER_TOKEN);
    const user = await userRepository.findByEmail(this.deps.db, email);
    if (!user) throw notFound(USER_NOT_FOUND);
    return this.session(user);
  }

  /** A new token for the caller; the one presented is revoked. */
  async refresh(actor: Actor): Promise<{ token: string; success: true }> {
    const { caller, tokenId } = loginSessionOf(actor);
    const user = await userRepository.findById(this.deps.db, caller.id);
    if (!user) throw unauthorized();
    // Only the refresh that revokes the token gets a successor: racing refreshes of one token give one new token.
    const revoked = await userRepository.revokeToken(this.deps.db, tokenId, caller.id, caller.tokenExpiresAt);
    if (!revoked) throw unauthorized();
    await this.deps.sessions.tokenRevoked(caller.id, tokenId);
    // The successor keeps the presented token's session version: a password reset racing this refresh revokes both.
    return { token: this.issueToken({ ...user, sessionVersion: caller.sessionVersion }), success: true };
  }

  /**
   * Runs `work` as the user the credentials sign in, in a session of its own that ends with it: a page answered from an
   * e-mail, whose browser keeps no token.
   */
  async asSignedIn<T>(readInput: InputReader<LoginInput>, meta: RequestMeta, work: (user: Actor) => Promise<T>): Promise<T> {
    const session = await this.login(readInput, meta);
    const user = await this.authenticateRequest(`Bearer ${session.token}`);
    try {
      return await work(user);
    } finally {
      await this.logout(user);
    }
  }

  async logout(actor: Actor): Promise<MessageDto> {
    const { caller, tokenId } = loginSessionOf(actor);
    await userRepository.revokeToken(this.deps.db, tokenId, caller.id, caller.tokenExpiresAt);
    await this.deps.sessions.tokenRevoked(caller.id, tokenId);
    return { message: "Logout realizado com sucesso", success: true };
  }

  /** E-mails a password reset link; it retires the links sent before it. */
  async forgotPassword(readInput: InputReader<ForgotPasswordInput>, meta: RequestMeta): Promise<MessageDto> {
    await this.throttle("forgot-password", meta);
    const input = readInput();
    const { db, clock } = this.deps;
    const user = await userRepository.findByEmail(db, input.email);
    if (!user) throw notFound(USER_NOT_FOUND);
    await db.transaction(async (tx) => {
      // Requests for one user take turns, so each retires the link of the one before it: one link works at a time.
      await userRepository.lockForUpdate(tx, user.id);
      await userRepository.retireOneTimeTokens(tx, user.id, "PASSWORD_RESET", clock.now());
      const token = await this.issueOneTimeToken(tx, user.id, "PASSWORD_RESET", RESET_TOKEN_TTL_MS);
      await this.deps.mail.enqueue(tx, passwordResetMail(user.email, user.name, this.deps.links.resetPassword(token)), clock.now());
    });
    return { message: "Enviamos um e-mail com o link para redefinir sua senha", success: true };
  }

  /** Sets a new password from a reset link; every token issued before it stops working. */
  async resetPassword(readInput: InputReader<ResetPasswordInput>, meta: RequestMeta): Promise<MessageDto> {
    await this.throttle("reset-password", meta);
    const input = readInput();
    const { db, clock, hasher } = this.deps;
    const passwordHash = await hasher.hash(input.password);
    const userId = await db.transaction(async (tx) => {
      const now = clock.now();
      const owner = await userRepository.consumeOneTimeToken(tx, "PASSWORD_RESET", secretTokenHash(input.token), now);
      if (owner === null) return null;
      // The link reached the mailbox, so the address is confirmed too.
      await userRepository.updateAndRevokeSessions(tx, owner, { passwordHash, emailConfirmed: true, updatedAt: now });
      await emit(tx, now, { type: "user.updated", userId: owner });
      return owner;
    });
    if (userId === null) throw new AppError(400, INVALID_TOKEN);
    await this.deps.sessions.usersChanged([userId]);
    return { message: "Senha redefinida com sucesso", success: true };
  }

  /** 400 `Token inválido ou expirado` unless a reset link's token can still set a password (its page shows the form). */
  async checkResetLink(readLink: InputReader<ConfirmEmailInput>): Promise<ConfirmEmailInput> {
    const link = readConfirmationLink(readLink);
    const owner = await userRepository.findLiveOneTimeToken(this.deps.db, "PASSWORD_RESET", secretTokenHash(link.token), this.deps.clock.now());
    if (owner === null) throw new AppError(400, INVALID_TOKEN);
    return link;
  }

  /** Confirms an account's e-mail address with the token of its confirmation link. */
  async confirmEmail(readLink: InputReader<ConfirmEmailInput>): Promise<MessageDto> {
    const input = readConfirmationLink(readLink);
    const { db, clock } = this.deps;
    const confirmed = await db.transaction(async (tx) => {
      const now = clock.now();
      const userId = await userRepository.consumeOneTimeToken(tx, "EMAIL_CONFIRMATION", secretTokenHash(input.token), now);
      if (userId === null) return false;
      await userRepository.update(tx, userId, { emailConfirmed: true, updatedAt: now });
      await emit(tx, now, { type: "user.updated", userId });
      return true;
    });
    if (!confirmed) throw new AppError(400, INVALID_TOKEN);
    return { message: "E-mail confirmado com sucesso", success: true };
  }

  /**
   * The caller behind a bearer token. A login token: signature, algorithm and expiry checked, then revocation (logout,
   * refresh) and the session version (password reset) against the database, or against what the session cache kept of
   * it; it holds every scope. A token handed to a tool (`fit_pat_…`, an app's opaque token): identified by its issuer, unexpired, not revoked
   * (the session cache again), with its own scopes. Missing header → anonymous.
   */
  async authenticate(authorization: string | undefined): Promise<Actor> {
    if (authorization === undefined || authorization === "") return { kind: "anonymous" };
    const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization);
    if (!match) throw unauthorized();
    const token = match[1]!;
    const issuer = this.deps.delegated.find((candidate) => candidate.recognizes(token));
    if (issuer) return this.authenticateDelegated(issuer, token);
    const claims = this.deps.tokens.verify(token);
    if (!claims) throw unauthorized();
    const userId = Number(claims.sub);
    const user = await this.deps.sessions.get(userId, claims.jti, () => userRepository.findSessionUser(this.deps.db, userId, claims.jti));
    if (!user || user.revoked || user.sessionVersion !== claims.ver) throw unauthorized();
    return actorOf(user, { kind: "login", tokenId: claims.jti }, "all", new Date(claims.exp * 1000));
  }

  private async authenticateDelegated(delegated: DelegatedCredentials, token: string): Promise<UserActor> {
    const { sessions, db, clock } = this.deps;
    const credential = await delegated.identify(token);
    if (!credential || credential.expiresAt.getTime() <= clock.now().getTime()) throw unauthorized();
    const user = await sessions.get(credential.userId, credential.sessionKey, async () =>
      (await delegated.holds(credential)) ? userRepository.findSessionUser(db, credential.userId, credential.sessionKey) : null,
    );
    if (!user || user.revoked) throw unauthorized();
    delegated.used(credential);
    return actorOf(user, credential.credential, credential.scopes, credential.expiresAt);
  }

  /**
   * `authenticate` for the request under way, whose transactions are then the user's writes (writingAs): they wait for
   * an erasure of the account under way, then find its session ended (401), so the erasure wins over them (contract
   * §15). Not for what outlives a request (a WebSocket's checks).
   */
  async authenticateRequest(authorization: string | undefined): Promise<Actor> {
    const actor = await this.authenticate(authorization);
    if (actor.kind === "user") {
      writingAs(actor.id, async (tx) => {
        if ((await userRepository.sessionVersionOf(tx, actor.id)) !== actor.sessionVersion) throw unauthorized();
      });
    }
    return actor;
  }

  /** Calls `watcher` with the user of every change to sessions from now on, on any instance (see SessionCache.watch). */
  onSessionsChanged(watcher: (userId: number) => void): () => void {
    return this.deps.sessions.watch(watcher);
  }

  /** Makes the listed e-mails administrators (ADMIN_EMAILS at start-up). */
  grantAdmin(emails: readonly string[]): Promise<AdminGrant> {
    return grantAdministrators(this.deps.db, emails, (ids) => this.deps.sessions.usersChanged(ids));
  }

  /** Drops revocations of tokens that have expired anyway. */
  async purgeExpiredRevocations(): Promise<void> {
    await userRepository.purgeExpiredRevocations(this.deps.db, this.deps.clock.now());
  }

  /** bcrypt reads 72 bytes at most: a longer password can never be one we stored. */
  private async passwordMatches(user: UserRow, password: string): Promise<boolean> {
    return Buffer.byteLength(password) <= 72 && this.deps.hasher.compare(password, user.passwordHash);
  }

  private async throttle(endpoint: AuthEndpoint, meta: RequestMeta): Promise<void> {
    await this.deps.rateLimiter.hit(`auth:${endpoint}:${meta.ip}`, this.perAddress);
  }

  private session(user: UserRow): SessionDto {
    return { user: toUserDto(user), token: this.issueToken(user), userId: user.id, success: true };
  }

  private issueToken(user: UserRow): string {
    return this.deps.tokens.issue({
      id: user.id,
      name: user.name,
      email: user.email,
      userType: user.userType,
      isAdmin: user.isAdmin,
      sessionVersion: user.sessionVersion,
    }).token;
  }

  /** A URL-safe random token; only its hash is stored. */
  private async issueOneTimeToken(db: Db, userId: number, purpose: OneTimeTokenPurpose, ttlMs: number): Promise<string> {
    const token = newSecretToken(32);
    await userRepository.insertOneTimeToken(db, userId, purpose, secretTokenHash(token), new Date(this.deps.clock.now().getTime() + ttlMs));
    return token;
  }
}

export const EMAIL_TAKEN = "Email já registrado";

function actorOf(user: SessionUser, credential: UserActor["credential"], scopes: UserActor["scopes"], expiresAt: Date): UserActor {
  return {
    kind: "user",
    id: user.id,
    userType: user.userType,
    isAdmin: user.isAdmin,
    credential,
    scopes,
    tokenExpiresAt: expiresAt,
    sessionVersion: user.sessionVersion,
  };
}

/** The caller and the login token it signed in with (403 `Escopo insuficiente` for a token handed to a tool). */
function loginSessionOf(actor: Actor): { caller: UserActor; tokenId: string } {
  const caller = requireUser(actor);
  requireScope(caller, "login");
  if (caller.credential.kind !== "login") throw unauthorized();
  return { caller, tokenId: caller.credential.tokenId };
}

/** The link's only parameter: missing or mangled, it is a token that is not valid (contract §3). */
function readConfirmationLink(readLink: InputReader<ConfirmEmailInput>): ConfirmEmailInput {
  try {
    return readLink();
  } catch (error) {
    if (error instanceof AppError && error.status === 400) throw new AppError(400, INVALID_TOKEN);
    throw error;
  }
}

export interface AdminGrant {
  /** The accounts that became administrators (lower-case e-mails). */
  granted: string[];
  /** The e-mails, as looked up, that no account has. */
  unknown: string[];
}

/**
 * Makes the accounts with these e-mails administrators, e-mails compared as stored (trimmed, lower-case), and hands
 * the ids it changed to `announce` (their sessions carry the admin flag). Also what `npm run admin -- grant` runs,
 * which has no whole service to call.
 */
export async function grantAdministrators(db: Db, emails: readonly string[], announce: (userIds: number[]) => Promise<void>): Promise<AdminGrant> {
  const wanted = emails.map((e) => e.trim().toLowerCase()).filter(Boolean);
  const changed = await userRepository.grantAdmin(db, wanted);
  await announce(changed.map((row) => row.id));
  const existing = await Promise.all(wanted.map((email) => userRepository.findByEmail(db, email)));
  return {
    granted: changed.map((row) => row.email),
    unknown: wanted.filter((_, i) => existing[i] === null),
  };
}
