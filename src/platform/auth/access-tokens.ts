import { createSecretKey, randomUUID, type KeyObject } from "node:crypto";
import jwt from "jsonwebtoken";
import type { Clock } from "../clock.js";
import { entityId } from "../validation.js";

export const ACCESS_TOKEN_TTL_SECONDS = 24 * 60 * 60;
/** Tokens whose signature was checked, kept so a client's next requests skip the HMAC and the claims' checks. */
const VERIFIED_TOKENS_KEPT = 10_000;

export interface AccessTokenSubject {
  id: number;
  name: string;
  email: string;
  userType: string;
  isAdmin: boolean;
  sessionVersion: number;
}

export interface AccessTokenClaims {
  sub: string;
  name: string;
  email: string;
  userType: string;
  role?: "ADMIN";
  /** The user's session version when issued; a password reset moves it on. */
  ver: number;
  jti: string;
  iat: number;
  exp: number;
}

/** HS256 JWTs of api-spec.md and contract §3. Anything else (another alg, `none`) is refused. */
export class AccessTokens {
  // jsonwebtoken re-parses a string secret on every call; a KeyObject made once is ~50× cheaper per verify.
  private readonly key: KeyObject;
  /**
   * Tokens already verified, by their whole text, with their claims: only a token this key signed gets in, so a
   * stranger cannot fill it, and its expiry is still checked on each use. Oldest first, so the first key goes first.
   */
  private readonly verified = new Map<string, AccessTokenClaims>();

  constructor(
    secret: string,
    private readonly clock: Clock,
  ) {
    this.key = createSecretKey(Buffer.from(secret, "utf8"));
  }

  issue(subject: AccessTokenSubject): { token: string; claims: AccessTokenClaims } {
    const iat = Math.floor(this.clock.now().getTime() / 1000);
    const claims: AccessTokenClaims = {
      sub: String(subject.id),
      name: subject.name,
      email: subject.email,
      userType: subject.userType,
      ...(subject.isAdmin ? { role: "ADMIN" as const } : {}),
      ver: subject.sessionVersion,
      jti: randomUUID(),
      iat,
      exp: iat + ACCESS_TOKEN_TTL_SECONDS,
    };
    return { token: jwt.sign(claims, this.key, { algorithm: "HS256" }), claims };
  }

  /** The claims of a valid token, or null (bad signature, wrong alg, expired, malformed). */
  verify(token: string): AccessTokenClaims | null {
    const now = Math.floor(this.clock.now().getTime() / 1000);
    const known = this.verified.get(token);
    // jsonwebtoken's own rule: a token is expired from its `exp` second on.
    if (known) return now < known.exp ? known : null;
    let claims: string | jwt.JwtPayload;
    try {
      claims = jwt.verify(token, this.key, { algorithms: ["HS256"], clockTimestamp: now });
    } catch {
      return null;
    }
    if (typeof claims !== "object" || !isClaims(claims)) return null;
    if (this.verified.size >= VERIFIED_TOKENS_KEPT) this.verified.delete(this.verified.keys().next().value!);
    this.verified.set(token, Object.freeze(claims));
    return claims;
  }
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Whole seconds since the epoch that a Date can hold. */
const isInstant = (seconds: unknown) => Number.isSafeInteger(seconds) && !Number.isNaN(new Date((seconds as number) * 1000).getTime());

/**
 * Claims as `issue` writes them: the subject a user id in its canonical digits, within the id column's range, the token
 * id a UUID, times in whole seconds a Date can hold. Anything else never came from here; an id out of range or a U+0000
 * would fail the session query, an expiry past any date the logout (a 500).
 */
function isClaims(value: object): value is AccessTokenClaims {
  const c = value as Partial<AccessTokenClaims>;
  return (
    typeof c.sub === "string" &&
    /^[1-9]\d*$/.test(c.sub) &&
    entityId.safeParse(Number(c.sub)).success &&
    typeof c.jti === "string" &&
    UUID.test(c.jti) &&
    typeof c.ver === "number" &&
    isInstant(c.iat) &&
    isInstant(c.exp)
  );
}
