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

/** The OpenAPI 3.1 document of the REST layer, built from the routers' own operation list and zod inputs. */
export function openApiDocument(operations: readonly OperationSpec[], serverUrl: string) {
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
    const errors = new Set([...(op.errors ?? []), ...(op.auth === "required" ? [401] : [])]);
    for (const status of [...errors].sort()) {
      responses[status] = { description: STATUS_TEXT[status] ?? "Error", content: { "application/json": { schema: errorBody } } };
    }
    (paths[path] ??= {})[op.method] = {
      tags: [op.tag],
      summary: op.summary,
      ...(op.auth === "none" ? { security: [] } : op.auth === "optional" ? { security: [{}, { bearer: [] }] } : {}),
      parameters: [...pathParams, ...queryParams],
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
    components: { securitySchemes: { bearer: { type: "http", scheme: "bearer", bearerFormat: "JWT" } } },
    security: [{ bearer: [] }],
    paths,
  };
}
