import type { Credential } from "../../platform/auth/actor.js";
import type { Scope } from "../../platform/auth/scopes.js";

/**
 * A bearer token a user handed to a tool (a personal token), as the module that issues it identifies it: what never
 * changes of it (whose, which scopes, until when), cacheable.
 */
export interface DelegatedCredential {
  userId: number;
  credential: Exclude<Credential, { kind: "login" }>;
  scopes: ReadonlySet<Scope>;
  expiresAt: Date;
  /** Its key among the user's sessions (SessionCache): revoking it announces `tokenRevoked(userId, sessionKey)`. */
  sessionKey: string;
}

/**
 * What `AuthService.authenticate` asks of the module that issues tokens for tools (developer), which sits above users:
 * it is handed in where the services are composed.
 */
export interface DelegatedCredentials {
  /** Whether the token is of the issuer's kind (by its prefix): if so, it is never a login token. */
  recognizes(token: string): boolean;
  /** The credential the token is, or null when none is (unknown, deleted). */
  identify(token: string): Promise<DelegatedCredential | null>;
  /** Whether it still holds (not revoked since): read when the session cache has nothing recent of it. */
  holds(credential: DelegatedCredential): Promise<boolean>;
  /** Notes a use of it (its `lastUsedAt`). */
  used(credential: DelegatedCredential): void;
}
