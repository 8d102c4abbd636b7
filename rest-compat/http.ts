import type { Request } from "express";
import type { Actor, UserActor } from "../src/platform/auth/actor.js";
import { requireUser } from "../src/platform/auth/actor.js";
import { invalidParameter } from "../src/platform/errors.js";
import { queryId } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";
import type { RequestMeta } from "../src/modules/users/auth.service.js";

const actors = new WeakMap<Request, Promise<Actor>>();

/** The caller of a request, or anonymous when no token was sent (an invalid token is 401); resolved once per request. */
export function actorOf(services: Services, req: Request): Promise<Actor> {
  let actor = actors.get(req);
  if (!actor) {
    actor = services.auth.authenticate(req.headers.authorization);
    actors.set(req, actor);
  }
  return actor;
}

/** The signed-in caller, or 401 `Token inválido ou expirado`. */
export async function userOf(services: Services, req: Request): Promise<UserActor> {
  return requireUser(await actorOf(services, req));
}

/** A numeric path parameter (`id`, `userId`…), or 400 `Parâmetro inválido: id` whatever its name (contract §2). */
export function idParam(req: Request, name = "id"): number {
  const id = queryId.safeParse(req.params[name]);
  if (!id.success) throw invalidParameter("id");
  return id.data;
}

export const requestMeta = (req: Request): RequestMeta => ({ ip: req.ip ?? req.socket.remoteAddress ?? "unknown" });
