import { AppError, unauthorized } from "../errors.js";
import { INSUFFICIENT_SCOPE, scopeAllows, type ScopeRequirement, type ScopeSet } from "./scopes.js";

/**
 * What the caller signed in with: a login token (the mobile and web apps; its id, so logout and refresh revoke exactly
 * it), or a token handed to a tool: a personal token, or an app's access token under a user's grant.
 */
export type Credential = { kind: "login"; tokenId: string } | { kind: "personal-token"; tokenId: number } | { kind: "app"; clientId: string; grantId: string };

/** Who is calling: every service method takes one. */
export type Actor =
  | { kind: "anonymous" }
  | {
      kind: "user";
      id: number;
      userType: "ALUNO" | "PERSONAL";
      isAdmin: boolean;
      credential: Credential;
      /** What the credential may reach (contract §18.2); a login token reaches all. */
      scopes: ScopeSet;
      tokenExpiresAt: Date;
      /** The user's session version the credential was checked against (a login token's carries it, and a refresh re-issues exactly it). */
      sessionVersion: number;
    };

export type UserActor = Extract<Actor, { kind: "user" }>;

/** Where a call came from: the rate limits of contract §2 count per client address. */
export interface RequestMeta {
  ip: string;
}

export const anonymous: Actor = { kind: "anonymous" };

/** The signed-in caller, or 401. */
export function requireUser(actor: Actor): UserActor {
  if (actor.kind !== "user") throw unauthorized();
  return actor;
}

/**
 * 403 `Escopo insuficiente` (RFC 6750's `insufficient_scope`, naming the scope needed) unless the caller's credential
 * may do what needs `requirement`. Anonymous callers pass: what they may do is the operation's own rule.
 */
export function requireScope(actor: Actor, requirement: ScopeRequirement): void {
  if (actor.kind === "user" && !scopeAllows(actor.scopes, requirement)) throw insufficientScope(requirement);
}

export function insufficientScope(requirement: ScopeRequirement): AppError {
  const challenge =
    requirement === "login"
      ? `Bearer error="insufficient_scope", error_description="a login session is required"`
      : `Bearer error="insufficient_scope", scope="${requirement}"`;
  return new AppError(403, INSUFFICIENT_SCOPE, {
    headers: { "WWW-Authenticate": challenge },
    graphql: { code: "INSUFFICIENT_SCOPE", extensions: requirement === "login" ? {} : { scope: requirement } },
  });
}
