import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync, inflateSync } from "node:zlib";
import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

/*
 * Every REST exchange of the tests, checked against the OpenAPI document the app under test serves: the request's
 * path, query, headers and body, and the answer's status, media type, headers and body (OpenAPI 3.1: JSON Schema
 * 2020-12, validated by Ajv). Validators are compiled once per worker and document; what each test reached is
 * counted, for the report of operations and statuses no test reached (openapi-coverage-reporter.ts).
 */

// ajv-formats is CommonJS: its default export arrives wrapped under ESM.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = Record<string, any>;

/** What a test sends: a request it means to be invalid is marked, and only its answer is checked. */
export interface ExchangeRequest {
  method: string;
  url: URL;
  headers: Headers;
  /** The JSON body sent, `undefined` when none was; a FormData for multipart. */
  json?: unknown;
  form?: FormData;
  /** A body sent as is, other than JSON or FormData (a webhook's signed bytes, malformed text). */
  raw?: string | Uint8Array;
  invalidRequest?: boolean;
}

export interface ExchangeResponse {
  status: number;
  headers: Headers;
  text: string;
}

interface Operation {
  id: string;
  method: string;
  template: string;
  pattern: RegExp;
  pathNames: string[];
  spec: Json;
  /** Literal segments: a literal path wins over a template (`/users/profile` over `/users/{id}`). */
  literals: number;
}

export class ContractMismatch extends Error {}

/** Per worker: how often each operation answered each status, and how many exchanges were validated. */
const reached = new Map<string, Map<string, number>>();
let exchanges = 0;
/** Per worker: the statuses each operation of the documents seen declares, with their descriptions. */
const declared = new Map<string, Record<string, string>>();

export class ContractValidator {
  private readonly operations: Operation[] = [];
  private readonly bodies = new Ajv2020({ strict: false, allErrors: true });
  /** Parameters arrive as text: coerced to the declared types, a repeated one to an array (as OpenAPI validators read them). */
  private readonly parameters = new Ajv2020({ strict: false, allErrors: true, coerceTypes: "array" });
  /**
   * The service's own answers and webhook events, against the document with every object closed: the served document
   * lets answers grow (a client must not break when a field is added), but the service must not send a field the
   * document does not declare.
   */
  private readonly answers = new Ajv2020({ strict: false, allErrors: true });
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly components: Json;
  private readonly webhooks: Json;

  private static readonly cache = new Map<string, ContractValidator>();

  /** The validator of `document`, compiled once per worker (the servers' URL aside, every app of a run serves the same). */
  static of(document: Json): ContractValidator {
    const key = JSON.stringify({ ...document, servers: [] });
    let validator = this.cache.get(key);
    if (!validator) {
      validator = new ContractValidator(document);
      this.cache.set(key, validator);
    }
    return validator;
  }

  private constructor(document: Json) {
    // Refs name the document's components; each Ajv holds them as one schema of their own.
    const relinked = JSON.parse(JSON.stringify(document).replaceAll('"#/components/schemas/', '"components#/$defs/')) as Json;
    this.components = relinked.components;
    this.webhooks = relinked.webhooks ?? {};
    for (const ajv of [this.bodies, this.parameters]) {
      addFormats(ajv);
      ajv.addSchema({ $id: "components", $defs: relinked.components.schemas ?? {} });
    }
    addFormats(this.answers);
    this.answers.addSchema({ $id: "components", $defs: closed(relinked.components.schemas ?? {}) });
    for (const [template, item] of Object.entries(relinked.paths as Json)) {
      for (const [method, spec] of Object.entries(item as Json)) {
        const segments = template.split("/").filter(Boolean);
        this.operations.push({
          id: spec.operationId,
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${template.replace(/\{\w+\}/g, "([^/]+)")}$`),
          pathNames: [...template.matchAll(/\{(\w+)\}/g)].map(([, name]) => name),
          spec,
          literals: segments.filter((segment) => !segment.startsWith("{")).length,
        });
        const descriptions = Object.fromEntries(
          Object.entries(spec.responses as Record<string, Json>).map(([status, answer]) => [status, String(answer.description)]),
        );
        declared.set(spec.operationId, { ...declared.get(spec.operationId), ...descriptions });
      }
    }
  }

  /** The operation a request is for, by method and path (under /api); a literal path wins over a template. */
  private match(method: string, apiPath: string): { operation: Operation; pathValues: Record<string, string> } | null {
    const candidates = this.operations
      .filter((operation) => operation.method === method)
      .map((operation) => ({ operation, values: operation.pattern.exec(apiPath) }))
      .filter((candidate) => candidate.values !== null)
      .sort((a, b) => b.operation.literals - a.operation.literals);
    const best = candidates[0];
    if (!best) return null;
    const pathValues = Object.fromEntries(best.operation.pathNames.map((name, i) => [name, decoded(best.values![i + 1])]));
    return { operation: best.operation, pathValues };
  }

  private validator(key: string, schema: Json, ajv: Ajv2020): ValidateFunction {
    let validate = this.compiled.get(key);
    if (!validate) {
      validate = ajv.compile(schema);
      this.compiled.set(key, validate);
    }
    return validate;
  }

  /**
   * Checks one exchange; throws ContractMismatch naming the operation, the status and Ajv's errors. Paths outside the
   * documented API (the document itself, the docs page) are not checked.
   */
  async check(request: ExchangeRequest, response: ExchangeResponse): Promise<void> {
    const apiPath = request.url.pathname.replace(/^\/api(?=\/)/, "");
    // A CORS preflight is the CORS middleware's, no operation's.
    if (request.method === "OPTIONS") return;
    if (apiPath === request.url.pathname || apiPath === "/openapi.json" || apiPath.startsWith("/docs")) return;
    const matched = this.match(request.method, apiPath);
    const label = `${request.method} ${request.url.pathname}`;
    if (!matched) {
      if (request.invalidRequest) return;
      throw new ContractMismatch(`OpenAPI: ${label} is no operation of the document (answered ${response.status})`);
    }
    const { operation, pathValues } = matched;
    const problems = request.invalidRequest ? [] : await this.requestProblems(operation, request, pathValues);
    if (problems.length > 0) {
      throw new ContractMismatch(
        `OpenAPI: the request of ${operation.id} (${label}, answered ${response.status}) breaks the document:\n${problems.join("\n")}`,
      );
    }
    const answer = this.responseProblems(operation, response);
    if (answer.length > 0) {
      throw new ContractMismatch(`OpenAPI: ${operation.id} (${label}) answered ${response.status} against the document:\n${answer.join("\n")}`);
    }
    exchanges += 1;
    const statuses = reached.get(operation.id) ?? new Map<string, number>();
    statuses.set(String(response.status), (statuses.get(String(response.status)) ?? 0) + 1);
    reached.set(operation.id, statuses);
  }

  private parametersOf(operation: Operation): Json[] {
    return ((operation.spec.parameters ?? []) as Json[]).map((parameter) =>
      parameter.$ref ? this.components.parameters[String(parameter.$ref).split("/").pop()!] : parameter,
    );
  }

  private async requestProblems(operation: Operation, request: ExchangeRequest, pathValues: Record<string, string>): Promise<string[]> {
    const parameters = this.parametersOf(operation);
    const problems: string[] = [];
    const objectOf = (where: string, values: Json, closed: boolean) => {
      const declared = parameters.filter((parameter) => parameter.in === where);
      const schema = {
        type: "object",
        properties: Object.fromEntries(declared.map((parameter) => [parameter.name, parameter.schema])),
        required: declared.filter((parameter) => parameter.required).map((parameter) => parameter.name),
        ...(closed ? { additionalProperties: false } : {}),
      };
      const validate = this.validator(`${operation.id} ${where}`, schema, this.parameters);
      if (!validate(values)) problems.push(...describe(`${where} parameters`, validate.errors));
    };
    objectOf("path", { ...pathValues }, true);
    const query: Json = {};
    for (const name of new Set(request.url.searchParams.keys())) {
      const values = request.url.searchParams.getAll(name);
      query[name] = values.length === 1 ? values[0] : values;
    }
    objectOf("query", query, true);
    const headers: Json = {};
    for (const parameter of parameters.filter((p) => p.in === "header")) {
      const value = request.headers.get(parameter.name);
      if (value !== null) headers[parameter.name] = value;
    }
    objectOf("header", headers, false);

    const content = (operation.spec.requestBody?.content ?? {}) as Json;
    const sent = request.json !== undefined || request.form !== undefined || request.raw !== undefined;
    if (!sent) {
      if (operation.spec.requestBody?.required) problems.push("body: required, none sent");
      return problems;
    }
    const mediaType = request.form ? "multipart/form-data" : (request.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const declared = content[mediaType];
    if (!declared) {
      problems.push(`body: ${mediaType || "no Content-Type"} is not declared (declared: ${Object.keys(content).join(", ") || "no body"})`);
      return problems;
    }
    if (mediaType === "application/json") {
      let json = request.json;
      if (json === undefined) {
        try {
          const raw = request.raw!;
          json = JSON.parse(typeof raw === "string" ? raw : inflated(raw, request.headers.get("content-encoding")).toString("utf8"));
        } catch {
          problems.push("body: not JSON");
          return problems;
        }
      }
      const validate = this.validator(`${operation.id} body`, declared.schema, this.bodies);
      if (!validate(json)) problems.push(...describe("body", validate.errors));
    } else if (mediaType === "multipart/form-data" && request.form) {
      problems.push(...(await this.formProblems(operation, declared, request.form)));
    }
    return problems;
  }

  private async formProblems(operation: Operation, declared: Json, form: FormData): Promise<string[]> {
    const problems: string[] = [];
    const properties = (declared.schema.properties ?? {}) as Json;
    for (const name of declared.schema.required ?? []) if (!form.has(name)) problems.push(`multipart: part ${name} is required`);
    for (const [name, value] of form.entries()) {
      const part = properties[name];
      if (!part) {
        problems.push(`multipart: part ${name} is not declared`);
        continue;
      }
      if (declared.encoding?.[name]?.contentType !== "application/json") continue;
      const text = typeof value === "string" ? value : await value.text();
      let json: unknown;
      try {
        json = JSON.parse(text);
      } catch {
        problems.push(`multipart: part ${name} is not JSON`);
        continue;
      }
      const { description: _description, ...schema } = part;
      const validate = this.validator(`${operation.id} part ${name}`, schema, this.bodies);
      if (!validate(json)) problems.push(...describe(`part ${name}`, validate.errors));
    }
    return problems;
  }

  private responseProblems(operation: Operation, response: ExchangeResponse): string[] {
    const declared = (operation.spec.responses as Json)[String(response.status)] ?? (operation.spec.responses as Json).default;
    if (!declared)
      return [
        `status ${response.status} is not declared (declared: ${Object.keys(operation.spec.responses).join(", ")}); body: ${response.text.slice(0, 300)}`,
      ];
    const problems: string[] = [];
    for (const [name, header] of Object.entries((declared.headers ?? {}) as Json)) {
      const spec = header.$ref ? this.components.headers[String(header.$ref).split("/").pop()!] : header;
      const value = response.headers.get(name);
      if (value === null) {
        if (spec.required) problems.push(`header ${name}: required, absent`);
        continue;
      }
      const validate = this.validator(`${operation.id} ${response.status} header ${name}`, spec.schema, this.parameters);
      if (!validate(value)) problems.push(...describe(`header ${name}`, validate.errors));
    }
    const content = declared.content as Json | undefined;
    if (!content) {
      if (response.text !== "") problems.push(`body: none declared, got ${response.headers.get("content-type")}: ${response.text.slice(0, 200)}`);
      return problems;
    }
    const mediaType = (response.headers.get("content-type") ?? "").split(";")[0].trim().toLowerCase();
    const media = content[mediaType];
    if (!media) return [...problems, `body: ${mediaType || "no Content-Type"} is not declared (declared: ${Object.keys(content).join(", ")})`];
    if (mediaType !== "application/json") return problems;
    let json: unknown;
    try {
      json = JSON.parse(response.text);
    } catch {
      return [...problems, `body: not JSON: ${response.text.slice(0, 200)}`];
    }
    const validate = this.validator(`${operation.id} ${response.status} body`, closed(media.schema), this.answers);
    if (!validate(json)) problems.push(...describe("body", validate.errors));
    return problems;
  }

  /** What is wrong with a webhook delivery's body against the document's `webhooks` entry of its event type. */
  webhookEventProblems(body: string): string[] {
    const event: unknown = JSON.parse(body);
    const type = String((event as Json).type);
    const schema = this.webhooks[type]?.post?.requestBody?.content?.["application/json"]?.schema;
    if (!schema) return [`webhook event type ${type} is not in the document's webhooks section`];
    const validate = this.validator(`webhook ${type}`, closed(schema), this.answers);
    return validate(event) ? [] : describe(`webhook ${type}`, validate.errors);
  }
}

/** `schema` with every object that lists its properties and says nothing of others closed to others. */
function closed<T>(schema: T): T {
  if (Array.isArray(schema)) return schema.map(closed) as T;
  if (schema === null || typeof schema !== "object") return schema;
  const copy = Object.fromEntries(Object.entries(schema).map(([key, value]) => [key, closed(value)])) as Json;
  if (copy.properties && typeof copy.properties === "object" && !("additionalProperties" in copy) && !Array.isArray(copy.properties)) {
    copy.additionalProperties = false;
  }
  return copy as T;
}

/** A path segment's value; one whose percent-encoding is broken stays as sent (and breaks its declared type). */
function decoded(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** The bytes of a body as sent, inflated when its Content-Encoding compressed them. */
function inflated(bytes: Uint8Array, encoding: string | null): Buffer {
  const buffer = Buffer.from(bytes);
  switch ((encoding ?? "identity").trim().toLowerCase()) {
    case "gzip":
      return gunzipSync(buffer);
    case "deflate":
      return inflateSync(buffer);
    case "br":
      return brotliDecompressSync(buffer);
    default:
      return buffer;
  }
}

function describe(where: string, errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).slice(0, 10).map((error) => `  ${where}${error.instancePath || ""}: ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`);
}

/** Writes what this worker's tests reached so far into `dir` (the reporter merges every worker's file at the end). */
export function saveReached(dir: string): void {
  mkdirSync(dir, { recursive: true });
  const coverage: WorkerCoverage = {
    exchanges,
    declared: Object.fromEntries(declared),
    reached: Object.fromEntries([...reached].map(([id, statuses]) => [id, Object.fromEntries(statuses)])),
  };
  writeFileSync(path.join(dir, `worker-${process.pid}.json`), JSON.stringify(coverage));
}

/** What one worker's file holds. */
export interface WorkerCoverage {
  exchanges: number;
  /** operationId → status → its description in the document (its reasons, joined by REASON_SEPARATOR). */
  declared: Record<string, Record<string, string>>;
  /** operationId → status → exchanges. */
  reached: Record<string, Record<string, number>>;
}
