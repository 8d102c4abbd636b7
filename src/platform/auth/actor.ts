import { unauthorized } from "../errors.js";

/** Who is calling: every service method takes one. */
export type Actor =
  | { kind: "anonymous" }
  | {
      kind: "user";
      id: number;
      userType: "ALUNO" | "PERSONAL";
      isAdmin: boolean;
      /** The token's id and expiry, so logout and refresh can revoke exactly it. */
      tokenId: string;
      tokenExpiresAt: Date;
      /** The session version the token carries: a refresh re-issues exactly it, never a newer one. */
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
