import { createHash, createHmac, randomUUID } from "node:crypto";
import { open, purposeKey, seal } from "../../platform/crypto/sealed.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, conflict, invalidParameter } from "../../platform/errors.js";
import type { IdempotencyClaim, IdempotencyRules, KeptAnswer, KeptRequest, RequestPrint } from "../../platform/http/idempotency.js";
import type { Logger } from "../../platform/logger.js";
import { idempotencyRepository, type IdempotencyRow } from "./idempotency.repository.js";

export const IDEMPOTENCY_IN_FLIGHT = "Requisição em andamento para esta chave de idempotência";
export const IDEMPOTENCY_KEY_REUSED = "Chave de idempotência já usada com outra requisição";

/** How long a key holds its answer (contract §13.1), from its first request. */
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60_000;
/**
 * A running claim is held this long past its last sign of life: a process that dies mid-request frees its keys
 * within a minute, and a request alive that long (a slow payment gateway) pushes its lease on every HEARTBEAT_MS.
 */
export const CLAIM_LEASE_MS = 60_000;
export const HEARTBEAT_MS = 20_000;
/** A request still running after this is stuck: its lease is no longer pushed on, and a retry may take the key. */
export const MAX_RUNNING_MS = 10 * 60_000;
const DELETE_BATCH = 5_000;

export interface IdempotencyServiceDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  /** The server's secret the stored keys, fingerprints and answers are derived from (never stored itself). */
  secret: string;
}

/** A request asking for a key: the key, who calls, and what it calls. */
export interface KeyRequest {
  key: string;
  userId: number | null;
  method: string;
  /** The path as sent, without the query string. */
  path: string;
}

/**
 * Idempotency keys (contract §13.1, after the IETF httpapi Idempotency-Key draft and Stripe's practice): whose a key
 * is, what request it stands for, how it is claimed, kept and replayed, and when it expires. The HTTP side is
 * src/platform/http/idempotency.ts.
 */
export class IdempotencyService implements IdempotencyRules {
  private readonly secret: Buffer;

  constructor(private readonly deps: IdempotencyServiceDeps) {
    this.secret = purposeKey(deps.secret, "idempotency");
  }

  /**
   * The key of the header's values: 1 to 255 printable ASCII characters, sent once, as a bare value or as the draft's
   * Structured Field string (`"…"`, whose content is the key); anything else is 400 `Parâmetro inválido: Idempotency-Key`.
   */
  keyOf(values: readonly string[] | undefined): string | null {
    if (values === undefined) return null;
    if (values.length !== 1) throw invalidParameter("Idempotency-Key");
    const key = unquoted(values[0]);
    if (key === null || !/^[\x20-\x7e]{1,255}$/.test(key)) throw invalidParameter("Idempotency-Key");
    return key;
  }

  /**
   * Whose the key is: the signed-in user's, whatever it calls; for a caller without a token, one key per method and
   * path (anonymous callers cannot be told apart, so their keys should be random, as the draft advises).
   */
  scopeOf(request: Pick<KeyRequest, "userId" | "method" | "path">): string {
    if (request.userId !== null) return `user:${request.userId}`;
    return `anonymous:${createHash("sha256").update(`${request.method} ${request.path}`).digest("base64url")}`;
  }

  /**
   * What a key stands for: the method, the path with its query string, and every byte of the body as sent. Keyed by
   * the server's secret, as a bare hash of a login's body could be matched against guessed passwords.
   */
  fingerprintOf(print: RequestPrint): string {
    return createHmac("sha256", this.secret).update(`${print.method}\n${print.url}\n${print.body.bytes}\n`).update(print.body.sha256).digest("hex");
  }

  /**
   * How the client's key is stored: the database holds neither the key nor what its answer said in the clear (a login's
   * or registration's answer is a token, others hold personal data). The row is found by a keyed digest of the key, and
   * its answer's body sealed (AES-256-GCM) with a second key derived from the client's key, which only the client and
   * the request holding it know: the database alone reads nothing back. A new server secret leaves the old rows
   * unfound (their requests would run again), as they expire within 24 hours anyway.
   */
  sealOf(scope: string, key: string): AnswerSeal {
    const derive = (purpose: string) => createHmac("sha256", this.secret).update(`${purpose}\0${scope}\0${key}`).digest();
    return new AnswerSeal(derive("row").toString("hex"), derive("seal"));
  }

  /** Whether an answer of this status is kept: not a server failure (a retry runs again), nor 429 (it says: retry later). */
  keeps(status: number): boolean {
    return status < 500 && status !== 429;
  }

  /**
   * Claims the key for this request (atomically, on whatever instance), or finds the request that finished with
   * it; 409 `Requisição em andamento…` while another request holds it.
   */
  async begin(request: KeyRequest): Promise<{ claim: IdempotencyClaim } | { kept: KeptRequest }> {
    const { db, clock } = this.deps;
    const scope = this.scopeOf(request);
    const seal = this.sealOf(scope, request.key);
    // A row that vanishes between the claim and the read (released after a 5xx, or pruned) is claimed again.
    for (let attempt = 0; attempt < 3; attempt++) {
      const now = clock.now();
      const owner = randomUUID();
      const claimed = await idempotencyRepository.claim(
        db,
        {
          scope,
          key: seal.storedKey,
          userId: request.userId,
          owner,
          leaseUntil: new Date(now.getTime() + CLAIM_LEASE_MS),
          createdAt: now,
          expiresAt: new Date(now.getTime() + IDEMPOTENCY_TTL_MS),
        },
        now,
      );
      if (claimed) return { claim: new Claim(this, this.deps, scope, seal, owner) };
      const row = await idempotencyRepository.find(db, scope, seal.storedKey);
      if (!row) continue;
      if (row.state === "RUNNING") throw conflict(IDEMPOTENCY_IN_FLIGHT);
      return { kept: this.keptRequest(row, seal) };
    }
    throw conflict(IDEMPOTENCY_IN_FLIGHT);
  }

  /** Deletes the keys past their 24 hours (they are free from then on anyway); how many. */
  async purgeExpired(): Promise<number> {
    const now = this.deps.clock.now();
    let deleted = 0;
    for (;;) {
      const batch = await idempotencyRepository.deleteExpired(this.deps.db, now, DELETE_BATCH);
      deleted += batch;
      if (batch < DELETE_BATCH) return deleted;
    }
  }

  private keptRequest(row: IdempotencyRow, seal: AnswerSeal): KeptRequest {
    return {
      answerFor: (print) => {
        if (this.fingerprintOf(print) !== row.fingerprint) throw new AppError(422, IDEMPOTENCY_KEY_REUSED);
        return { status: row.status!, contentType: row.contentType, location: row.location, body: seal.open(row.body) };
      },
    };
  }
}

/** One key's stored name, and the key its answer's body is sealed under (src/platform/crypto/sealed.ts). */
class AnswerSeal {
  constructor(
    readonly storedKey: string,
    private readonly cipherKey: Buffer,
  ) {}

  close(body: Buffer): Buffer {
    return seal(this.cipherKey, body);
  }

  open(stored: Buffer | null): Buffer {
    return !stored || stored.length === 0 ? Buffer.alloc(0) : open(this.cipherKey, stored);
  }
}

/** A key held by a running request: its lease pushed on while it runs, then its answer kept, or the key let go. */
class Claim implements IdempotencyClaim {
  private readonly heartbeat: NodeJS.Timeout;
  private beats = 0;
  private settled = false;

  constructor(
    private readonly rules: IdempotencyService,
    private readonly deps: IdempotencyServiceDeps,
    private readonly scope: string,
    private readonly seal: AnswerSeal,
    private readonly owner: string,
  ) {
    this.heartbeat = setInterval(() => void this.extend(), HEARTBEAT_MS);
    this.heartbeat.unref();
  }

  async finish(answer: KeptAnswer, print: RequestPrint, judgedStatus: number): Promise<void> {
    if (!this.rules.keeps(judgedStatus)) return this.release(`status ${judgedStatus}`);
    if (!this.stop()) return;
    const kept = await idempotencyRepository.complete(this.deps.db, this.scope, this.seal.storedKey, this.owner, {
      fingerprint: this.rules.fingerprintOf(print),
      status: answer.status,
      contentType: answer.contentType,
      location: answer.location,
      body: this.seal.close(answer.body),
    });
    if (!kept) this.deps.logger.warn({ scope: this.scope }, "idempotency key lost before its answer was kept (its lease ran out)");
  }

  async release(reason: string): Promise<void> {
    if (!this.stop()) return;
    this.deps.logger.debug({ scope: this.scope, reason }, "idempotency key released");
    await idempotencyRepository.release(this.deps.db, this.scope, this.seal.storedKey, this.owner);
  }

  /** Stops the heartbeat; false when the claim was settled already. */
  private stop(): boolean {
    clearInterval(this.heartbeat);
    if (this.settled) return false;
    this.settled = true;
    return true;
  }

  private async extend(): Promise<void> {
    this.beats += 1;
    if (this.beats * HEARTBEAT_MS > MAX_RUNNING_MS) {
      clearInterval(this.heartbeat);
      this.deps.logger.warn({ scope: this.scope }, "request still running after its idempotency key's longest lease");
      return;
    }
    try {
      const held = await idempotencyRepository.extend(
        this.deps.db,
        this.scope,
        this.seal.storedKey,
        this.owner,
        new Date(this.deps.clock.now().getTime() + CLAIM_LEASE_MS),
      );
      if (!held) clearInterval(this.heartbeat);
    } catch (error) {
      this.deps.logger.error({ err: error }, "idempotency key lease not extended");
    }
  }
}

/**
 * The content of a Structured Field string (RFC 8941 §3.3.3: printable ASCII between double quotes, `\"` and `\\`
 * escaped), or a bare value as it is; null for a value that starts a string and does not end it properly.
 */
function unquoted(value: string): string | null {
  if (!value.startsWith('"')) return value;
  let out = "";
  for (let i = 1; i < value.length; i++) {
    const c = value[i];
    if (c === "\\") {
      const next = value[++i];
      if (next !== '"' && next !== "\\") return null;
      out += next;
    } else if (c === '"') {
      return i === value.length - 1 ? out : null;
    } else out += c;
  }
  return null;
}
