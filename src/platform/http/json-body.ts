import express, { type RequestHandler } from "express";
import { ensureJsonNesting } from "../validation.js";

/**
 * The JSON body parser of REST and GraphQL: at most 1 MB, nesting bounded before the parser builds anything.
 * Only UTF-8 text, the charset JSON is exchanged in, is scanned; the rare body in UTF-16 or UTF-32 is parsed as
 * before and meets the same bound when the service validates it.
 */
export function jsonBody(): RequestHandler {
  return express.json({
    limit: "1mb",
    verify: (_req, _res, body, encoding) => {
      if (encoding === "utf-8") ensureJsonNesting(body.toString("latin1"));
    },
  });
}
