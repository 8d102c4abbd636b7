import { z } from "zod";
import type { OperationSpec } from "./routes.js";

const STATUS_TEXT: Record<number, string> = {
  200: "OK",
  201: "Created",
  204: "No Content",
  400: "Validation failed or invalid parameter",
  401: "Token inválido ou expirado",
  403: "Acesso negado",
  404: "Not found",
  409: "Conflict",
  410: "Gone",
  413: "Requisição muito grande",
  422: "Unprocessable",
  429: "Muitas requisições. Tente novamente mais tarde.",
};

const errorBody = {
  type: "object",
  required: ["message", "success"],
  properties: {
    message: { type: "string" },
    success: { type: "boolean", const: false },
    errors: {
      type: "array",
      items: { type: "object", properties: { field: { type: "string" }, message: { type: "string" } } },
    },
    details: { type: "string" },
  },
};

const pageNumber = z.number().int().min(0);
const sortInfo = z.object({ sorted: z.boolean(), unsorted: z.boolean(), empty: z.boolean() });

/** The page object of contract §2 around `item`, for the document of a paged answer. */
export function pageOf(item: z.ZodType) {
  return z.object({
    content: z.array(item),
    pageable: z.object({ sort: sortInfo, pageNumber, pageSize: pageNumber, offset: pageNumber, paged: z.literal(true), unpaged: z.literal(false) }),
    totalPages: pageNumber,
    totalElements: pageNumber,
    last: z.boolean(),
    first: z.boolean(),
    sort: sortInfo,
    number: pageNumber,
    numberOfElements: pageNumber,
    size: pageNumber,
    empty: z.boolean(),
  });
}

/** Contract §13.1: the header every write takes, and what it adds to the write's answers. */
const IDEMPOTENCY_KEY_PARAMETER = {
  name: "Idempotency-Key",
  in: "header",
  required: false,
  description:
    "Makes the write safe to retry (IETF httpapi Idempotency-Key draft): 1 to 255 printable ASCII characters (a UUID v4 is best), " +
    "bare or as a quoted Structured Field string, else 400 `Parâmetro inválido: Idempotency-Key`. The key is the caller's (a valid " +
    "token's user; without one, the key of this method and path) for 24 hours. The first request runs and its answer (status, " +
    "body, Content-Type, Location) is kept, unless it is a 5xx or 429; the same key with the same method, path, query and body " +
    "bytes answers it again byte for byte with `Idempotent-Replayed: true`, and nothing runs twice. A multipart retry must send " +
    "the same bytes (the same boundary).",
  schema: { type: "string", minLength: 1, maxLength: 257, pattern: "^[\\x20-\\x7E]+$" },
};
const REPLAYED_HEADER = {
  description: "`true` on an answer sent again for an Idempotency-Key; absent on the first",
  schema: { type: "string", const: "true" },
};
const IDEMPOTENCY_ANSWERS: Record<number, string> = {
  409: "Requisição em andamento para esta chave de idempotência (the key's first request still runs)",
  422: "Chave de idempotência já usada com outra requisição (the key was used with another method, path, query or body)",
};

/** The OpenAPI 3.1 document of the REST layer, built from the routers' own operation list and zod inputs. */
export function openApiDocument(operations: readonly OperationSpec[], serverUrl: string, idempotencyExempt: readonly string[] = []) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const path = op.path.replace(/:(\w+)/g, "{$1}");
    const pathParams = [...op.path.matchAll(/:(\w+)/g)].map((m) => ({
      name: m[1],
      in: "path",
      required: true,
      schema: { type: "integer", minimum: 1 },
    }));
    const queryParams = Object.entries(op.query ?? {}).map(([name, description]) => ({
      name,
      in: "query",
      required: false,
      description,
      schema: { type: "string" },
    }));
    const responses: Record<string, unknown> = {
      [op.success]: {
        description: STATUS_TEXT[op.success] ?? "OK",
        ...(op.response ? { content: { "application/json": { schema: z.toJSONSchema(op.response, { io: "output", unrepresentable: "any" }) } } } : {}),
      },
    };
    for (const [status, description] of Object.entries(op.alsoAnswers ?? {})) responses[status] = { ...(responses[op.success] as object), description };
    const keyed = op.method !== "get" && !idempotencyExempt.includes(op.path);
    const errors = new Set([...(op.errors ?? []), ...(op.auth === "required" ? [401] : [])]);
    if (keyed) {
      for (const status of [op.success, ...Object.keys(op.alsoAnswers ?? {}).map(Number)]) {
        responses[status] = { ...(responses[status] as object), headers: { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } } };
      }
    }
    for (const status of [...new Set([...errors, ...(keyed ? [400, 409, 422] : [])])].sort()) {
      const own = errors.has(status) ? (STATUS_TEXT[status] ?? "Error") : undefined;
      const idempotency = keyed ? IDEMPOTENCY_ANSWERS[status] : undefined;
      const description = own && idempotency ? `${own}; or ${idempotency}` : (own ?? idempotency ?? "Parâmetro inválido: Idempotency-Key");
      responses[status] = { description, content: { "application/json": { schema: errorBody } } };
    }
    (paths[path] ??= {})[op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.auth === "none" ? { security: [] } : op.auth === "optional" ? { security: [{}, { bearer: [] }] } : {}),
      parameters: [...pathParams, ...queryParams, ...(keyed ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : [])],
      ...(op.body
        ? { requestBody: { required: true, content: { "application/json": { schema: z.toJSONSchema(op.body, { io: "input", unrepresentable: "any" }) } } } }
        : {}),
      ...(op.multipart
        ? {
            requestBody: {
              required: true,
              content: {
                "multipart/form-data": {
                  schema: {
                    type: "object",
                    properties: Object.fromEntries(
                      Object.entries(op.multipart).map(([name, description]) => [name, { type: "string", format: "binary", description }]),
                    ),
                  },
                },
              },
            },
          }
        : {}),
      responses,
    };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Fitness Training Service — REST compatibility layer",
      version: "1.0.0",
      description: "Every documented REST path under /api. Errors are {message, success:false, errors?, details?}. GraphQL lives at /graphql.",
    },
    servers: [{ url: `${serverUrl}/api` }],
    components: {
      securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } },
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: { IdempotentReplayed: REPLAYED_HEADER },
    },
    security: [{ bearer: [] }],
    paths,
  };
}
