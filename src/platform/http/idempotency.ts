import type { IncomingMessage } from "node:http";
import type { Request, RequestHandler, Response } from "express";
import type { Logger } from "../logger.js";
import { RequestBodyTap, type BodyDigest } from "./request-body-tap.js";

/**
 * The HTTP side of `Idempotency-Key` (contract §13.1): which requests take part, their body's digest, holding the
 * first answer until it is kept, and sending a kept one again. What a key means — its syntax, whose it is, the
 * fingerprint, storage, leases and expiry — is the rules' (the sync module's IdempotencyService).
 */

export const IDEMPOTENCY_KEY_HEADER = "idempotency-key";
export const REPLAYED_HEADER = "Idempotent-Replayed";
const WRITE_METHODS = new Set(["POST", "PUT", "PATCH", "DELETE"]);

/**
 * The most body bytes read to fingerprint a request its handler did not read whole (a replayed upload, an upload
 * refused before it was read): the largest multipart request a handler takes, two 5 MB images and twenty 1 MB
 * fields, with room to spare.
 */
export const MAX_FINGERPRINTED_BODY_BYTES = 32 * 1024 * 1024;
/** Answers larger than this are not kept (no write of this API answers anything near it). */
export const MAX_KEPT_ANSWER_BYTES = 4 * 1024 * 1024;

/** What identifies a request's content for the fingerprint. */
export interface RequestPrint {
  method: string;
  /** The path and query string as sent. */
  url: string;
  body: BodyDigest;
}

/** An answer as kept: replayed byte for byte with these headers. */
export interface KeptAnswer {
  status: number;
  contentType: string | null;
  location: string | null;
  body: Buffer;
}

/** A key this request holds while it runs. */
export interface IdempotencyClaim {
  /** Keeps the answer for the key (or lets the key go when the rules keep no answer of this status). */
  finish(answer: KeptAnswer, print: RequestPrint, judgedStatus: number): Promise<void>;
  /** Lets the key go: the request's answer is not kept, and a retry runs again. */
  release(reason: string): Promise<void>;
}

/** A key some earlier request finished with. */
export interface KeptRequest {
  /** Its answer when `print` is the request it answered; else throws 422. */
  answerFor(print: RequestPrint): KeptAnswer;
}

/** The rules the middleware follows (implemented by the sync module's IdempotencyService). */
export interface IdempotencyRules {
  /** The key the header's values carry; null without the header; throws 400 for a malformed one. */
  keyOf(values: readonly string[] | undefined): string | null;
  /** Claims the key for this request, or finds the request that finished with it; throws 409 while another runs. */
  begin(request: { key: string; userId: number | null; method: string; path: string }): Promise<{ claim: IdempotencyClaim } | { kept: KeptRequest }>;
}

export interface IdempotencyOptions {
  rules: IdempotencyRules;
  /** The caller's user id, from a valid token; null without one (the key is then the anonymous caller's of this method and path). */
  userIdOf(req: Request): Promise<number | null>;
  /** Paths under the mount that never take the header: the payment gateways' events, which dedupe by event id. */
  except?: readonly string[];
  /** The status the rules judge an answer by (GraphQL answers a failed resolver with 200 and the status in its errors). */
  judgedStatus?(answer: KeptAnswer): number;
  logger: Logger;
}

const taps = new WeakMap<IncomingMessage, RequestBodyTap>();

/**
 * The app's first middleware: puts a body tap on every write that carries an Idempotency-Key, before any of its body
 * arrives, so whoever reads the body later the request's fingerprint covers all of it.
 */
export function tapIdempotentRequests(): RequestHandler {
  return (req, _res, next) => {
    if (WRITE_METHODS.has(req.method) && req.headers[IDEMPOTENCY_KEY_HEADER] !== undefined) taps.set(req, new RequestBodyTap(req));
    next();
  };
}

/**
 * Honours `Idempotency-Key` on the writes of the router it is mounted in, after its body parsers (a body that does
 * not parse is refused before any key is claimed): the first request with a key runs and its answer is kept before
 * it is sent (so it is kept when the client is gone), a retry gets the kept answer again with `Idempotent-Replayed:
 * true`, and the rules answer 409 while the first runs, 422 to another request with the key.
 */
export function idempotencyKeys(options: IdempotencyOptions): RequestHandler {
  const { rules, logger } = options;
  return async (req, res, next) => {
    if (req.headers[IDEMPOTENCY_KEY_HEADER] === undefined || !WRITE_METHODS.has(req.method) || options.except?.includes(req.path)) return next();
    // Each line of the header apart (req.headers joins repeated ones with ", "), so a repeated header is refused.
    const key = rules.keyOf(req.headersDistinct[IDEMPOTENCY_KEY_HEADER]);
    if (key === null) return next();
    const tap = taps.get(req);
    if (!tap?.intact) throw new Error("a request with an Idempotency-Key has no intact body tap (tapIdempotentRequests must be the app's first middleware)");
    const path = req.originalUrl.split("?")[0];
    const begun = await rules.begin({ key, userId: await options.userIdOf(req), method: req.method, path });
    const printOf = (body: BodyDigest): RequestPrint => ({ method: req.method, url: req.originalUrl, body });
    if ("kept" in begun) {
      const answer = begun.kept.answerFor(printOf(await tap.receiveRest(MAX_FINGERPRINTED_BODY_BYTES)));
      replay(res, answer);
      return;
    }
    holdAnswer(res, tap, begun.claim, printOf, options.judgedStatus ?? ((answer) => answer.status), logger);
    next();
  };
}

function replay(res: Response, answer: KeptAnswer): void {
  res.status(answer.status);
  if (answer.contentType !== null) res.setHeader("Content-Type", answer.contentType);
  if (answer.location !== null) res.setHeader("Location", answer.location);
  res.setHeader(REPLAYED_HEADER, "true");
  res.end(answer.body);
}

/**
 * Collects what the handler writes and, when it ends the answer, settles the claim before the answer leaves: kept
 * (or let go, by its status), so a client that got an answer always finds it kept, and one that left before it came
 * finds it when it retries. An answer that cannot be kept lets the key go: one given to a request cut off before
 * its body was delivered (it may answer the cut, "Requisição interrompida", not the request), or too large.
 */
function holdAnswer(
  res: Response,
  tap: RequestBodyTap,
  claim: IdempotencyClaim,
  printOf: (body: BodyDigest) => RequestPrint,
  judgedStatus: (answer: KeptAnswer) => number,
  logger: Logger,
): void {
  const chunks: Buffer[] = [];
  let size = 0;
  const collect = (chunk: unknown, encoding: unknown) => {
    if (chunk === undefined || chunk === null || typeof chunk === "function") return;
    const bytes =
      typeof chunk === "string" ? Buffer.from(chunk, typeof encoding === "string" ? (encoding as BufferEncoding) : "utf8") : Buffer.from(chunk as Uint8Array);
    size += bytes.length;
    if (size <= MAX_KEPT_ANSWER_BYTES) chunks.push(bytes);
  };
  const write = res.write;
  const end = res.end;
  res.write = function (this: Response, chunk: unknown, ...rest: unknown[]) {
    collect(chunk, rest[0]);
    return (write as (...args: unknown[]) => boolean).call(this, chunk, ...rest);
  } as Response["write"];
  let settled = false;
  res.end = function (this: Response, ...args: unknown[]) {
    if (settled) return (end as (...args: unknown[]) => Response).apply(this, args);
    settled = true;
    collect(args[0], args[1]);
    const answer: KeptAnswer = {
      status: res.statusCode,
      contentType: headerText(res.getHeader("content-type")),
      location: headerText(res.getHeader("location")),
      body: Buffer.concat(chunks),
    };
    settle(answer)
      .catch((error: unknown) => logger.error({ err: error }, "idempotency key not settled"))
      .finally(() => (end as (...args: unknown[]) => Response).apply(this, args));
    return this;
  } as Response["end"];

  async function settle(answer: KeptAnswer): Promise<void> {
    if (size > MAX_KEPT_ANSWER_BYTES) return claim.release("answer too large to keep");
    if (tap.cutOff) return claim.release("request cut off before its body was delivered");
    let body: BodyDigest;
    try {
      body = await tap.receiveRest(MAX_FINGERPRINTED_BODY_BYTES);
    } catch {
      return claim.release("request body not received whole");
    }
    await claim.finish(answer, printOf(body), judgedStatus(answer));
  }
}

function headerText(value: number | string | string[] | undefined): string | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value.join(", ") : String(value);
}
