import type { Request } from "express";
import type { z } from "zod";
import type { Actor, RequestMeta, UserActor } from "../src/platform/auth/actor.js";
import { requireUser } from "../src/platform/auth/actor.js";
import { invalidParameter } from "../src/platform/errors.js";
import { parsePageRequest, type ListQuery, type PageRequest, type Paging } from "../src/platform/paging.js";
import { parseQuery, queryId, readerOf, type DatedInputReader, type DatedSchema, type InputReader, type RefusalMessage } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";

const actors = new WeakMap<Request, Promise<Actor>>();

/** The caller of a request, or anonymous when no token was sent (an invalid token is 401); resolved once per request. */
export function actorOf(services: Services, req: Request): Promise<Actor> {
  let actor = actors.get(req);
  if (!actor) {
    actor = services.auth.authenticateRequest(req.headers.authorization);
    actors.set(req, actor);
  }
  return actor;
}

/** The caller's user id when its token is valid, else null (the request itself answers 401 where a user is needed). */
export function callerIdOf(services: Services, req: Request): Promise<number | null> {
  return actorOf(services, req).then(
    (actor) => (actor.kind === "user" ? actor.id : null),
    () => null,
  );
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

/** The query string's parameters as `schema` reads them. */
export function queryReader<S extends z.ZodType>(req: Request, schema: S): InputReader<z.output<S>> {
  return () => parseQuery(schema, req.query);
}

/** The page the query string asks for: `page`, `size` and `sort` (contract §2). */
export function pageReader(req: Request, paging: Paging): InputReader<PageRequest> {
  return () => parsePageRequest(req.query, paging);
}

/** A listing's query string: the page asked, read first, and the other parameters as `filter` reads them. */
export function listReader<S extends z.ZodType>(req: Request, paging: Paging, filter: S): InputReader<ListQuery<z.output<S>>> {
  return () => {
    const { page, size, sort, ...filters } = req.query;
    return { page: parsePageRequest({ page, size, sort }, paging), filter: parseQuery(filter, filters) };
  };
}

/**
 * The JSON body as `schema` reads it (a dated schema: as of the `now` the service reads it at); `message` picks the
 * top-level text of a refusal where api-spec.md keeps its own.
 */
export function bodyReader<S extends z.ZodType>(req: Request, schema: S, message?: RefusalMessage): InputReader<z.output<S>>;
export function bodyReader<S extends z.ZodType>(req: Request, schema: DatedSchema<S>): DatedInputReader<z.output<S>>;
export function bodyReader<S extends z.ZodType>(req: Request, schema: S | DatedSchema<S>, message?: RefusalMessage) {
  return readerOf(schema, req.body, message);
}

export const requestMeta = (req: Request): RequestMeta => ({ ip: req.ip ?? req.socket.remoteAddress ?? "unknown" });
