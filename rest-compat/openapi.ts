import { z } from "zod";
import { pageParameterSchemas } from "../src/platform/paging.js";
import { DATABASE_UNAVAILABLE } from "../src/platform/db/database-unavailable.js";
import { TOO_MANY_CONNECTIONS } from "../src/platform/http/http-server.js";
import { queryId } from "../src/platform/validation.js";
import { INSUFFICIENT_SCOPE, SCOPE_NAMES, SCOPES } from "../src/platform/auth/scopes.js";
import { errorBodySchema } from "./errors.js";
import { RECEIVED_WEBHOOKS_TAG, webhooksOf, type WebhookEventSpec } from "./openapi-webhooks.js";
import type { BinaryAnswer, MultipartPart, OperationSpec } from "./routes.js";

type JsonSchema = Record<string, unknown>;

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
  415: "Codificação não suportada (a body compressed or encoded in a way the service does not read)",
  422: "Unprocessable",
  429: "Muitas requisições. Tente novamente mais tarde.",
  502: "Gateway de pagamento indisponível",
  503: "Serviço sobrecarregado. Tente novamente em instantes.",
};

/** Any operation's answer on a connection past its address's cap (contract §17): the connection closes after it. */
const PAST_CONNECTION_CAP = `${TOO_MANY_CONNECTIONS} (a connection past MAX_CONNECTIONS_PER_ADDRESS from its address)`;

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
/** The RateLimit fields of an app's or a personal token's answers: present only for those tokens. */
const BUDGET_HEADERS = {
  "RateLimit-Limit": { $ref: "#/components/headers/RateLimitLimit" },
  "RateLimit-Remaining": { $ref: "#/components/headers/RateLimitRemaining" },
  "RateLimit-Reset": { $ref: "#/components/headers/RateLimitReset" },
  "RateLimit-Policy": { $ref: "#/components/headers/RateLimitPolicy" },
};
const RETRY_AFTER_HEADER = { description: "seconds to wait before trying again", schema: { type: "string", pattern: "^\\d+$" } };

/**
 * The error answers the machinery in front of every handler gives (token check, parameter and body parsing, idempotency),
 * as [status, reason] by what an operation has: the same for every operation that has it, unlike an operation's own.
 */
export const SHARED_ANSWERS = {
  connectionCap: [[503, PAST_CONNECTION_CAP]],
  databaseUnavailable: [[503, `${DATABASE_UNAVAILABLE} (the database is out of reach: a restart, a failover)`]],
  token: [[401, STATUS_TEXT[401]]],
  optionalToken: [[401, "a token was sent and is invalid or expired"]],
  scope: [[403, `${INSUFFICIENT_SCOPE} (the token lacks the operation's scope; WWW-Authenticate names it)`]],
  budget: [
    [
      429,
      "an app's or a personal token's budget is spent: 600 requests per 15 minutes, 6000 per day by default (RateLimit-* and Retry-After say when it refills)",
    ],
  ],
  parameters: [[400, "Parâmetro inválido: <name> (a path or query parameter)"]],
  body: [
    [400, "Validation failed (with `errors`), JSON inválido, or Corpo da requisição muito aninhado"],
    [413, "Requisição muito grande (more than 1 MB)"],
    [415, STATUS_TEXT[415]],
  ],
  multipart: [
    [400, "Requisição multipart inválida, or a part that is missing or invalid (with `errors`)"],
    [413, "Requisição muito grande"],
  ],
  idempotency: [
    [400, "Parâmetro inválido: Idempotency-Key"],
    [409, "Requisição em andamento para esta chave de idempotência (the key's first request still runs)"],
    [413, "Requisição muito grande (a keyed body is read whole before it runs)"],
    [422, "Chave de idempotência já usada com outra requisição (the key was used with another method, path, query or body)"],
  ],
} satisfies Record<string, [number, string][]>;

/** How an answer's description joins its reasons. */
export const REASON_SEPARATOR = "; or ";

const TAGS: Record<string, string> = {
  "Accounts and sessions": "Registration, logins, tokens, password resets and e-mail confirmation",
  Profile: "The caller's profile and other users' (as their links allow)",
  "Subscription plans": "The plan catalogue",
  Subscriptions: "Subscriptions: buying, changing and cancelling them",
  "Payments and invoices": "What was charged, and the invoices (JSON and PDF)",
  "Payment flow": "The payment flow of the mobile apps: checkout, PIX status and the sandbox's payment",
  Webhooks: "Your webhook endpoints and their deliveries, and what the payment gateways send us (their refusals have no body)",
  [RECEIVED_WEBHOOKS_TAG]: "What the service POSTs to your webhook endpoints (POST /webhook-endpoints), by event type",
  "Personal trainer and student links": "Invites, and the links between trainers and students",
  Exercises: "Exercises, with their images",
  Trainings: "Trainings: ordered exercise lines",
  "Training plans": "Weekly plans and their assignments to students",
  "Executions and statistics": "Logged sessions and exercises, their statistics, progress and personal records",
  Records: "Records per exercise and kind (contract §12.1)",
  Adherence: "Adherence to the weekly plans (contract §12.2)",
  "Trainer's dashboard": "The trainer's dashboard (contract §12.3)",
  Sync: "Offline sync: the change feed (contract §13.3)",
  Developer: "Trainers' own tools: personal access tokens and apps (contract §18)",
};

const isDate = (schema: z.core.$ZodType) => schema._zod.def.type === "date";

/**
 * The JSON Schemas of an operation's inputs and answers: zod schemas with an id (`.meta({ id })`) become components,
 * referenced wherever they appear.
 */
class SchemaConverter {
  readonly components: Record<string, JsonSchema> = {};

  /** What a JSON value read with `schema` (`io: "input"`) or written from it (`"output"`) looks like on the wire. */
  body(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    return this.convert(schema, io, false);
  }

  /**
   * A parameter's schema: a value a query string gives as text and GraphQL typed (`union([typed, text→typed])`) is
   * declared typed, as clients send it (the text is how a query string carries it).
   */
  parameter(schema: z.ZodType, io: "input" | "output"): JsonSchema {
    return this.convert(schema, io, true);
  }

  private convert(schema: z.ZodType, io: "input" | "output", typedParameters: boolean): JsonSchema {
    const json = z.toJSONSchema(schema, {
      io,
      target: "draft-2020-12",
      unrepresentable: "any",
      override: ({ zodSchema, jsonSchema }) => {
        // A Date of a DTO is written as its ISO 8601 text (json-answer.ts).
        if (isDate(zodSchema)) Object.assign(jsonSchema, { type: "string", format: "date-time" });
        // An answer may gain fields: a client validating answers must not break the day one is added. (The project's
        // contract tests still refuse a field the document does not declare.)
        if (io === "output" && jsonSchema.additionalProperties === false) delete jsonSchema.additionalProperties;
        if (typedParameters && Array.isArray(jsonSchema.anyOf)) {
          const typed = jsonSchema.anyOf.filter((branch) => (branch as JsonSchema).type !== "string");
          if (typed.length > 0 && typed.length < jsonSchema.anyOf.length) {
            delete jsonSchema.anyOf;
            Object.assign(jsonSchema, typed.length === 1 ? typed[0] : { anyOf: typed });
          }
        }
      },
    }) as JsonSchema;
    const { $schema: _schema, $defs, ...rest } = json;
    const relink = (value: unknown) => JSON.parse(JSON.stringify(value).replaceAll('"#/$defs/', '"#/components/schemas/')) as JsonSchema;
    for (const [id, definition] of Object.entries(($defs ?? {}) as Record<string, JsonSchema>)) this.components[id] = relink(definition);
    return relink(rest);
  }
}

const isBinary = (response: OperationSpec["response"]): response is BinaryAnswer => response !== undefined && "mediaType" in response;

/** What a path's id names: `userId` → "The user's id"; a bare `id`, the item the path is about. */
const idDescription = (name: string) =>
  name === "id"
    ? "The id of the item the path names"
    : `The ${name
        .replace(/Id$/, "")
        .replace(/(?<=[a-z])(?=[A-Z])/g, " ")
        .toLowerCase()}'s id`;

function parametersOf(op: OperationSpec, schemas: SchemaConverter): JsonSchema[] {
  const path = [...op.path.matchAll(/:(\w+)/g)].map(([, name]) => {
    const { description, ...schema } = schemas.parameter(op.pathParams?.[name] ?? queryId, "output");
    return { name, in: "path", required: true, description: description ?? idDescription(name), schema };
  });
  const query: JsonSchema[] = [];
  const objectSchemas = [
    ...(op.query ? [schemas.parameter(op.query, "input")] : []),
    ...(op.paging ? [{ type: "object", properties: pageParameterSchemas(op.paging) }] : []),
  ];
  for (const object of objectSchemas) {
    const required = (object.required ?? []) as string[];
    for (const [name, property] of Object.entries(object.properties as Record<string, JsonSchema>)) {
      const { description, ...schema } = property;
      query.push({
        name,
        in: "query",
        required: required.includes(name),
        ...(description ? { description } : {}),
        // A repeated parameter is an array (`sort=a&sort=b`): form style, exploded, as query strings repeat keys.
        ...(schema.type === "array" ? { style: "form", explode: true } : {}),
        schema,
      });
    }
  }
  const headers = Object.entries(op.headers ?? {}).map(([name, description]) => ({
    name,
    in: "header",
    required: false,
    description,
    schema: { type: "string" },
  }));
  return [...path, ...query, ...headers];
}

function requestBodyOf(op: OperationSpec, schemas: SchemaConverter): JsonSchema | undefined {
  // A body whose every field is optional may be left out: the service reads `{}` then.
  if (op.body) return { required: !op.body.safeParse({}).success, content: { "application/json": { schema: schemas.body(op.body, "input") } } };
  if (!op.multipart) return undefined;
  const parts = Object.entries(op.multipart);
  const partSchema = (part: MultipartPart) =>
    "json" in part
      ? { ...schemas.body(part.json, "input"), description: part.description }
      : { type: "string", format: "binary", description: part.description };
  return {
    required: true,
    content: {
      "multipart/form-data": {
        schema: {
          type: "object",
          properties: Object.fromEntries(parts.map(([name, part]) => [name, partSchema(part)])),
          required: parts.filter(([, part]) => part.required).map(([name]) => name),
        },
        encoding: Object.fromEntries(
          parts.map(([name, part]) => [name, { contentType: "json" in part ? "application/json" : "image/jpeg, image/png, image/gif" }]),
        ),
      },
    },
  };
}

/** The answers of an operation: its successes, the errors its inputs, authentication and idempotency give, and its own. */
function responsesOf(op: OperationSpec, keyed: boolean, schemas: SchemaConverter): Record<string, JsonSchema> {
  const responses: Record<string, JsonSchema> = {};
  // Budgeted operations (those a tool's token may call) report the caller's budget on every answer (contract §18.4).
  const budgeted = op.scope !== undefined && op.scope !== "login";
  const replayed = {
    ...(keyed ? { "Idempotent-Replayed": { $ref: "#/components/headers/IdempotentReplayed" } } : {}),
    ...(budgeted ? BUDGET_HEADERS : {}),
  };
  const withHeaders = Object.keys(replayed).length > 0;
  const success = (description: string): JsonSchema => {
    if (op.response === undefined) return { description, ...(withHeaders ? { headers: replayed } : {}) };
    if (isBinary(op.response)) {
      const headers = Object.fromEntries(
        Object.entries(op.response.headers ?? {}).map(([name, text]) => [name, { description: text, required: true, schema: { type: "string" } }]),
      );
      return {
        description: `${description}: ${op.response.description}`,
        headers: { ...headers, ...replayed },
        content: { [op.response.mediaType]: { schema: { type: "string", format: "binary" } } },
      };
    }
    return { description, ...(withHeaders ? { headers: replayed } : {}), content: { "application/json": { schema: schemas.body(op.response, "output") } } };
  };
  responses[op.success] = success(STATUS_TEXT[op.success] ?? "OK");
  for (const [status, when] of Object.entries(op.alsoAnswers ?? {})) responses[status] = success(when);

  const reasons = new Map<number, string[]>();
  const add = (answers: readonly (readonly [number | string, string])[]) => {
    for (const [status, reason] of answers) reasons.set(Number(status), [...(reasons.get(Number(status)) ?? []), reason]);
  };
  add(SHARED_ANSWERS.connectionCap);
  add(SHARED_ANSWERS.databaseUnavailable);
  if (op.auth !== "none") add(op.auth === "optional" ? SHARED_ANSWERS.optionalToken : SHARED_ANSWERS.token);
  if (op.scope !== undefined) add(SHARED_ANSWERS.scope);
  if (budgeted) add(SHARED_ANSWERS.budget);
  if (op.path.includes(":") || op.query || op.paging) add(SHARED_ANSWERS.parameters);
  if (op.body) add(SHARED_ANSWERS.body);
  if (op.multipart) add(SHARED_ANSWERS.multipart);
  if (keyed) add(SHARED_ANSWERS.idempotency);
  add(Array.isArray(op.errors) ? op.errors.map((status) => [status, STATUS_TEXT[status] ?? "Error"] as const) : Object.entries(op.errors ?? {}));
  const errorContent = { "application/json": { schema: { $ref: "#/components/schemas/Error" } } };
  for (const status of [...reasons.keys()].sort()) {
    const retryAfter =
      status === 429 || status === 503
        ? { headers: { "Retry-After": { $ref: "#/components/headers/RetryAfter" }, ...(status === 429 && budgeted ? BUDGET_HEADERS : {}) } }
        : {};
    responses[status] = { description: [...new Set(reasons.get(status))].join(REASON_SEPARATOR), ...retryAfter, content: errorContent };
  }
  for (const [status, reason] of Object.entries(op.emptyErrors ?? {})) responses[status] = { description: `${reason} (no body)` };
  // Any operation, on a failure nobody foresaw (nothing about it is told; the logs have it).
  responses[500] = { description: "Erro interno do servidor", content: errorContent };
  for (const [status, response] of Object.entries(responses)) {
    // A budgeted token's refusals report its budget too, once it was counted.
    const budget = budgeted && status.startsWith("4") ? BUDGET_HEADERS : {};
    response.headers = {
      ...(response.headers as JsonSchema | undefined),
      ...budget,
      "Access-Control-Allow-Origin": { $ref: "#/components/headers/Access-Control-Allow-Origin" },
    };
  }
  return responses;
}

/** OpenAPI's integer formats: int32 where the bounds fit, else int64 (a JSON number holds integers to 2^53 exactly). */
function withIntegerFormats<T>(node: T): T {
  if (Array.isArray(node)) node.forEach(withIntegerFormats);
  else if (node !== null && typeof node === "object") {
    const schema = node as JsonSchema;
    if (schema.type === "integer" && schema.format === undefined) {
      const fits = (bound: unknown) => typeof bound === "number" && Math.abs(bound) <= 2 ** 31 - 1;
      schema.format = fits(schema.minimum) && fits(schema.maximum) ? "int32" : "int64";
    }
    Object.values(schema).forEach(withIntegerFormats);
  }
  return node;
}

/** The OpenAPI 3.1 document of the REST layer, built from the routers' own operation list and their zod schemas. */
export function openApiDocument(
  operations: readonly OperationSpec[],
  serverUrl: string,
  idempotencyExempt: readonly string[] = [],
  webhookEvents: readonly WebhookEventSpec[] = [],
) {
  const schemas = new SchemaConverter();
  const paths: Record<string, Record<string, unknown>> = {};
  for (const op of operations) {
    const keyed = op.method !== "get" && !idempotencyExempt.includes(op.path);
    const parameters = [...parametersOf(op, schemas), ...(keyed ? [{ $ref: "#/components/parameters/IdempotencyKey" }] : [])];
    const requestBody = requestBodyOf(op, schemas);
    (paths[op.path.replace(/:(\w+)/g, "{$1}")] ??= {})[op.method] = {
      operationId: op.operationId,
      tags: [op.tag],
      summary: op.summary,
      ...(op.description ? { description: op.description } : {}),
      security: securityOf(op),
      ...(parameters.length > 0 ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses: responsesOf(op, keyed, schemas),
    };
  }
  const webhooks = webhooksOf(webhookEvents, (schema) => schemas.body(schema, "output"));
  const usedTags = new Set([...operations.map((op) => op.tag), ...(webhookEvents.length > 0 ? [RECEIVED_WEBHOOKS_TAG] : [])]);
  return withIntegerFormats({
    openapi: "3.1.0",
    info: {
      title: "Fitness Training Service — REST compatibility layer",
      version: "1.0.0",
      description: "Every documented REST path under /api. Errors are {message, success:false, errors?, details?}. GraphQL lives at /graphql.",
      license: { name: "Proprietary", identifier: "LicenseRef-Proprietary" },
    },
    servers: [
      { url: `${serverUrl}/api`, description: "This deployment (production, staging or local alike: the PUBLIC_BASE_URL it runs with)", "x-internal": false },
    ],
    tags: [...usedTags].map((name) => ({ name, description: TAGS[name] ?? name })),
    components: {
      securitySchemes: securitySchemes(serverUrl),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      headers: {
        "Access-Control-Allow-Origin": {
          description: "`*`: any web page may call the API (CORS); a token, never a cookie, is the credential",
          schema: { type: "string", const: "*" },
        },
        IdempotentReplayed: REPLAYED_HEADER,
        RetryAfter: RETRY_AFTER_HEADER,
        RateLimitLimit: {
          description: "requests the budget's window nearest its limit allows (IETF RateLimit fields)",
          schema: { type: "string", pattern: "^\\d+$" },
        },
        RateLimitRemaining: { description: "requests left in that window", schema: { type: "string", pattern: "^\\d+$" } },
        RateLimitReset: { description: "seconds until that window ends", schema: { type: "string", pattern: "^\\d+$" } },
        RateLimitPolicy: { description: "the budget's windows: limit;w=seconds, comma-separated", schema: { type: "string" } },
      },
      schemas: { ...schemas.components, Error: schemas.body(errorBodySchema, "output") },
    },
    paths,
    ...(webhookEvents.length > 0 ? { webhooks } : {}),
  });
}

/**
 * Who may call an operation: a login token (every scope), or an app's or a personal token holding its scope; `login`
 * operations take a login token only. An optional token may be left out.
 */
function securityOf(op: OperationSpec): Record<string, string[]>[] {
  if (op.auth === "none") return [];
  const scoped: Record<string, string[]>[] = op.scope === undefined || op.scope === "login" ? [] : [{ oauth2: [op.scope] }, { personalToken: [op.scope] }];
  return [...(op.auth === "optional" ? [{}] : []), { bearer: [] }, ...scoped];
}

function securitySchemes(serverUrl: string) {
  const scopes = Object.fromEntries(SCOPE_NAMES.map((name) => [name, SCOPES[name].en]));
  return {
    bearer: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "JWT",
      description:
        "A login token (/users/login): every scope. A JWT as RFC8725 advises: HS256 only (any other `alg`, `none` included, is refused), `exp` required and checked, revocable by its session",
    },
    personalToken: {
      type: "http",
      scheme: "bearer",
      bearerFormat: "fit_pat_…",
      description: "A personal access token (POST /users/me/tokens), with the scopes it was created with",
    },
    oauth2: {
      type: "oauth2",
      description:
        "An app's access token (authorization code with PKCE S256), with the scopes its user granted: opaque, never a JWT (only its ID tokens are, signed as RFC8725 advises)",
      flows: {
        authorizationCode: {
          authorizationUrl: `${serverUrl}/oauth/auth`,
          tokenUrl: `${serverUrl}/oauth/token`,
          refreshUrl: `${serverUrl}/oauth/token`,
          scopes,
        },
      },
    },
  };
}
