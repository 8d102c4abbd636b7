import type { ErrorRequestHandler, RequestHandler } from "express";
import { z } from "zod";
import { databaseUnavailable } from "../src/platform/db/database-unavailable.js";
import { AppError, invalidParameter, REQUEST_TOO_LARGE } from "../src/platform/errors.js";
import type { Logger } from "../src/platform/logger.js";

/** Every error answer of the API (contract §2): the OpenAPI document's `Error`. */
export const errorBodySchema = z
  .object({
    message: z.string().describe("What went wrong, in Portuguese, as api-spec.md words it: apps show or match it"),
    success: z.literal(false).describe("Always false"),
    errors: z
      .array(
        z
          .object({
            field: z.string().describe("JSON path of the offending value (`sets[0].repetitions`)"),
            message: z.string().describe("What is wrong with it, in Portuguese"),
          })
          .describe("One refused value"),
      )
      .optional()
      .describe("Validation failures, every one of the request (with `Validation failed`)"),
    details: z.string().optional().describe("Why a payment was refused (the gateway's reason)"),
  })
  .describe("Every error answer of the REST layer (contract §2)");
type ErrorBody = z.output<typeof errorBodySchema>;

/** Unknown routes under the API answer in the error shape. */
export const notFoundHandler: RequestHandler = (_req, res) => {
  res.status(404).json({ message: "Recurso não encontrado", success: false });
};

/** The one place a REST error becomes `{message, success:false, errors?, details?}`; bugs become a bare 500. */
export function errorHandler(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    const known = asAppError(error);
    if (known) {
      for (const [name, value] of Object.entries(known.headers ?? {})) res.setHeader(name, value);
      const body: ErrorBody = {
        message: known.message,
        success: false,
        ...(known.errors ? { errors: known.errors } : {}),
        ...(known.details !== undefined ? { details: known.details } : {}),
      };
      res.status(known.status).json(body);
      return;
    }
    // The path only: a query string may carry a secret (the confirmation link's token).
    logger.error({ err: error, method: req.method, url: req.originalUrl.split("?")[0] }, "unhandled error");
    res.status(500).json({ message: "Erro interno do servidor", success: false });
  };
}

/**
 * Our AppError, the database out of reach (503), or a client's mistake that a library reports before any handler runs: the body parser's
 * (malformed JSON, oversized body, a compressed body that does not inflate) and the router's (a path parameter
 * whose percent-encoding is broken, `/users/%E0%A4%A`). Both mark them with a 4xx `status`.
 */
export function asAppError(error: unknown): AppError | null {
  if (error instanceof AppError) return error;
  const e = error as { type?: string; status?: number; expose?: boolean } | null;
  if (e?.type === "entity.parse.failed") return new AppError(400, "JSON inválido");
  if (e?.type === "entity.too.large") return new AppError(413, REQUEST_TOO_LARGE);
  if (e?.type === "encoding.unsupported" || e?.type === "charset.unsupported") return new AppError(415, "Codificação não suportada");
  if (e?.type === "request.aborted") return new AppError(400, "Requisição interrompida");
  // Every path parameter of the API but one is an id, and a value that cannot even be decoded is not a number (contract §2).
  if (error instanceof URIError && e?.status === 400) return invalidParameter("id");
  // The body parser's other client errors: a gzip, deflate or br body that does not inflate, a length that does not match.
  if (e?.expose === true && typeof e.status === "number" && e.status >= 400 && e.status < 500) return new AppError(400, "Requisição inválida");
  return databaseUnavailable(error);
}
