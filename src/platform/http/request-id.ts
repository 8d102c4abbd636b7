import { AsyncLocalStorage } from "node:async_hooks";
import { randomUUID } from "node:crypto";
import type { RequestHandler } from "express";

/** A request id a client may choose: what tracing systems send (UUIDs, W3C trace ids, ULIDs), never a log injection. */
const CLIENT_REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

const current = new AsyncLocalStorage<string>();

/** The id of the request being served, for every log line written on its behalf (see createLogger's mixin). */
export const currentRequestId = (): string | undefined => current.getStore();

/**
 * Every answer carries `X-Request-Id` (contract §16): the client's own when it sent a usable one, else a new UUID; the
 * rest of the request runs with it as its context, so that whatever is logged while serving it names it.
 */
export function requestIds(): RequestHandler {
  return (req, res, next) => {
    const sent = req.headers["x-request-id"];
    const id = typeof sent === "string" && CLIENT_REQUEST_ID.test(sent) ? sent : randomUUID();
    res.setHeader("X-Request-Id", id);
    current.run(id, next);
  };
}
