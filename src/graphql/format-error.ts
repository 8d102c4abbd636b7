import { HeaderMap, type ApolloServerPlugin } from "@apollo/server";
import { unwrapResolverError } from "@apollo/server/errors";
import { GraphQLError, type GraphQLFormattedError } from "graphql";
import { databaseUnavailable, RETRY_AFTER_SECONDS } from "../platform/db/database-unavailable.js";
import { AppError, graphqlCodeFor, INVALID_MULTIPART, REQUEST_TOO_LARGE } from "../platform/errors.js";
import type { Logger } from "../platform/logger.js";
import { RESPONSE_TOO_LARGE } from "./list-bounds.js";

// Codes Apollo and graphql-js give to the client's own mistakes: passed through as they are.
const CLIENT_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "OPERATION_RESOLUTION_FAILURE",
  RESPONSE_TOO_LARGE,
  // A budget spent (cost-budget.ts): answered with HTTP 200, the error saying 429.
  "THROTTLED",
  "MAX_COST_EXCEEDED",
  "PERSISTED_QUERY_REQUIRED",
]);

/** The one place a GraphQL error gets its `extensions` (contract §10); bugs leave as a bare INTERNAL_SERVER_ERROR. */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    const cause = original instanceof GraphQLError && original.originalError instanceof AppError ? original.originalError : original;
    const known = cause instanceof AppError ? cause : (uploadError(original) ?? databaseUnavailable(original));
    if (known) {
      return {
        message: known.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: {
          code: known.graphql?.code ?? graphqlCodeFor(known.status),
          status: known.status,
          ...known.graphql?.extensions,
          ...(known.errors ? { errors: known.errors } : {}),
          ...(known.details !== undefined ? { details: known.details } : {}),
        },
      };
    }
    // The HTTP status Apollo answers with (405 for a mutation sent with GET).
    const httpStatus = (original as { extensions?: { http?: { status?: unknown } } } | null)?.extensions?.http?.status;
    const clientStatus = typeof httpStatus === "number" && httpStatus >= 400 && httpStatus < 500 ? httpStatus : undefined;
    // Apollo refuses some malformed requests (a persisted query's hash that is not its document's) with a bare
    // GraphQLError carrying a 4xx status and no code of its own (Apollo then names it INTERNAL_SERVER_ERROR): the
    // client's mistake, said as BAD_REQUEST.
    const refusedRequest = original instanceof GraphQLError && !original.originalError && original.extensions.code === undefined && clientStatus !== undefined;
    const code = refusedRequest ? "BAD_REQUEST" : formatted.extensions?.code;
    if (typeof code === "string" && CLIENT_CODES.has(code)) {
      const ownStatus = (original as { extensions?: { status?: unknown } } | null)?.extensions?.status;
      const extensions = { code, status: clientStatus ?? (typeof ownStatus === "number" ? ownStatus : 400) };
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions };
    }
    logger.error({ err: original }, "unhandled GraphQL error");
    return { message: "Erro interno do servidor", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } };
  };
}

/**
 * An answer with an error of the database out of reach (SERVICE_UNAVAILABLE) carries `Retry-After`, as the REST
 * answer's 503 does: the operation may succeed when sent again.
 */
export function retryAfterUnavailable(): ApolloServerPlugin {
  return {
    async requestDidStart() {
      return {
        async willSendResponse({ response }) {
          if (response.body.kind !== "single") return;
          const unavailable = (response.body.singleResult.errors ?? []).some((error) => error.extensions?.code === "SERVICE_UNAVAILABLE");
          if (unavailable) response.http.headers.set("retry-after", String(RETRY_AFTER_SECONDS));
        },
      };
    },
  };
}

/**
 * What the context's failure becomes: our AppError answers with its own HTTP status and headers (Apollo answers a
 * context that throws anything else 500), its body formatted as every other error.
 */
export function contextFailure(error: unknown): unknown {
  if (!(error instanceof AppError)) return error;
  const headers = new HeaderMap(Object.entries(error.headers ?? {}).map(([name, value]) => [name.toLowerCase(), String(value)]));
  return new GraphQLError(error.message, { originalError: error, extensions: { http: { status: error.status, headers } } });
}

/**
 * graphql-upload rejects an `Upload` argument with its own client error (status 4xx, `expose`) when the request's
 * `map` names a file part that never comes: the same answer as a multipart request its parser refuses (app.ts).
 */
function uploadError(error: unknown): AppError | null {
  const e = error as { expose?: unknown; status?: unknown } | null;
  if (e?.expose !== true || typeof e.status !== "number" || e.status < 400 || e.status >= 500) return null;
  return e.status === 413 ? new AppError(413, REQUEST_TOO_LARGE) : new AppError(400, INVALID_MULTIPART);
}
