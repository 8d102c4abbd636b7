import { unwrapResolverError } from "@apollo/server/errors";
import type { GraphQLFormattedError } from "graphql";
import { AppError, graphqlCodeFor } from "../platform/errors.js";
import type { Logger } from "../platform/logger.js";

// Codes Apollo and graphql-js give to the client's own mistakes: passed through as they are.
const CLIENT_CODES = new Set([
  "GRAPHQL_PARSE_FAILED",
  "GRAPHQL_VALIDATION_FAILED",
  "BAD_USER_INPUT",
  "BAD_REQUEST",
  "PERSISTED_QUERY_NOT_FOUND",
  "PERSISTED_QUERY_NOT_SUPPORTED",
  "OPERATION_RESOLUTION_FAILURE",
]);

/** The one place a GraphQL error gets its `extensions` (contract §10); bugs leave as a bare INTERNAL_SERVER_ERROR. */
export function formatError(logger: Logger) {
  return (formatted: GraphQLFormattedError, error: unknown): GraphQLFormattedError => {
    const original = unwrapResolverError(error);
    if (original instanceof AppError) {
      return {
        message: original.message,
        locations: formatted.locations,
        path: formatted.path,
        extensions: {
          code: graphqlCodeFor(original.status),
          status: original.status,
          ...(original.errors ? { errors: original.errors } : {}),
          ...(original.details !== undefined ? { details: original.details } : {}),
        },
      };
    }
    const code = formatted.extensions?.code;
    if (typeof code === "string" && CLIENT_CODES.has(code)) {
      return { message: formatted.message, locations: formatted.locations, path: formatted.path, extensions: { code, status: 400 } };
    }
    logger.error({ err: original }, "unhandled GraphQL error");
    return { message: "Erro interno do servidor", path: formatted.path, extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } };
  };
}
