import { createHmac } from "node:crypto";
import { gzipSync } from "node:zlib";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import type { FuzzRequest } from "./client.js";
import { DEEP, hostileJson, hostilePathValue, hostileQueryShape, hostileQueryValue, hostileString, nestedArrays, nestedObjects } from "./hostile.js";
import { Random } from "./random.js";
import { ACTING_ROLES, exercisePart, multipartBody, PNG, type FixtureKind, type Role, type World } from "./world.js";

/** The parts of a JSON Schema (as zod writes them) that a valid example needs. */
interface JsonSchema {
  type?: string | string[];
  properties?: Record<string, JsonSchema>;
  items?: JsonSchema;
  anyOf?: JsonSchema[];
  enum?: unknown[];
  const?: unknown;
  default?: unknown;
  format?: string;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  minItems?: number;
  minLength?: number;
  maxLength?: number;
}

/** One operation of the OpenAPI document. */
export interface Operation {
  /** "POST /trainings/{id}/execution" */
  key: string;
  method: string;
  template: string;
  auth: "none" | "optional" | "required";
  pathParams: string[];
  query: Array<{ name: string; enumValues: string[] }>;
  jsonSchema?: JsonSchema;
  multipartParts?: string[];
  /** The operation takes the Idempotency-Key header (contract §13.1). */
  idempotencyKey: boolean;
}

interface OpenApiOperation {
  security?: Array<Record<string, unknown>>;
  parameters?: Array<{ name: string; in: string; description?: string; $ref?: string }>;
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
}

/** Every operation of the document, deletions last (so the rows the others point at live as long as possible). */
export function operationsOf(document: { paths?: Record<string, Record<string, OpenApiOperation>> }): Operation[] {
  const operations: Operation[] = [];
  for (const [template, methods] of Object.entries(document.paths ?? {})) {
    for (const [method, spec] of Object.entries(methods)) {
      const parameters = spec.parameters ?? [];
      const security = spec.security;
      operations.push({
        key: `${method.toUpperCase()} ${template}`,
        method: method.toUpperCase(),
        template,
        auth: security === undefined ? "required" : security.length === 0 ? "none" : "optional",
        pathParams: parameters.filter((p) => p.in === "path").map((p) => p.name),
        query: parameters
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, enumValues: /^\w+(?: \| \w+)+$/.test(p.description ?? "") ? p.description!.split(" | ") : [] })),
        jsonSchema: spec.requestBody?.content["application/json"]?.schema,
        multipartParts: Object.keys(spec.requestBody?.content["multipart/form-data"]?.schema.properties ?? {}),
        idempotencyKey: parameters.some((p) => p.$ref === "#/components/parameters/IdempotencyKey"),
      });
    }
  }
  const deletes = (op: Operation) => (op.method === "DELETE" ? 1 : 0);
  return operations.map((op) => ({ ...op, multipartParts: op.multipartParts?.length ? op.multipartParts : undefined })).sort((a, b) => deletes(a) - deletes(b));
}

/** Which kind of row a path parameter names, by the path before it (the longest match wins). */
const PATH_FIXTURES: Array<[string, FixtureKind]> = [
  ["/executions/user/", "user"],
  ["/users/", "user"],
  ["/subscription-plans/", "subscriptionPlan"],
  ["/subscriptions/", "subscription"],
  ["/invoices/", "invoice"],
  ["/payments/", "payment"],
  ["/billing/status/", "pixTransaction"],
  ["/invites/", "invite"],
  ["/personal/students/", "link"],
  ["/students/personals/", "link"],
  ["/trainings/executions/", "trainingExecution"],
  ["/assignments/", "assignment"],
  ["/training-plans/", "plan"],
  ["/trainings/", "training"],
  ["/exercises/", "exercise"],
];

export function fixtureOf(template: string, param: string): FixtureKind | undefined {
  const before = template.slice(0, template.indexOf(`{${param}}`));
  const matches = PATH_FIXTURES.filter(([suffix]) => before.endsWith(suffix)).sort((a, b) => b[0].length - a[0].length);
  return matches[0]?.[1];
}

const PLACEHOLDER = "\u0007fuzz-slot\u0007";
const PLACEHOLDER_JSON = JSON.stringify(PLACEHOLDER);
const BOUNDARY = "fuzz-boundary-7MA4YWxkTrZu0gW";

type Path = Array<string | number>;

/** Every property and first array item under `value` (the body's fields, nested ones included). */
function pathsIn(value: unknown, at: Path = []): Path[] {
  const out: Path[] = [];
  if (Array.isArray(value)) {
    if (value.length > 0) out.push([...at, 0], ...pathsIn(value[0], [...at, 0]));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) out.push([...at, key], ...pathsIn(item, [...at, key]));
  }
  return out;
}

function valueAt(value: unknown, path: Path): unknown {
  return path.reduce<unknown>((node, key) => (node as Record<string | number, unknown>)[key], value);
}

/** `base` with the value at `path` replaced by raw JSON text. */
function replaceAt(base: unknown, path: Path, json: string): string {
  const copy = structuredClone(base) as Record<string | number, unknown>;
  const parent = valueAt(copy, path.slice(0, -1)) as Record<string | number, unknown>;
  parent[path[path.length - 1]] = PLACEHOLDER;
  return JSON.stringify(copy).replace(PLACEHOLDER_JSON, () => json);
}

const jsonPath = (path: Path) => path.map((key, i) => (typeof key === "number" ? `[${key}]` : i === 0 ? key : `.${key}`)).join("");

let gzipBomb: Buffer | undefined;

/** A hand-made HS256 JWT: any header and payload text, signed with `secret`. */
function jwt(payload: string, secret: string, header = '{"alg":"HS256","typ":"JWT"}'): string {
  const encoded = `${Buffer.from(header).toString("base64url")}.${Buffer.from(payload).toString("base64url")}`;
  return `${encoded}.${createHmac("sha256", secret).update(encoded).digest("base64url")}`;
}

/** A request under construction. */
interface Draft {
  labels: string[];
  as: string;
  authorization?: string;
  pathValues: Record<string, string>;
  query: string;
  headers: Record<string, string>;
  body?: Buffer;
  /** Set by the variants that attack a webhook's secret or signature themselves. */
  ownCredentials?: boolean;
}

type Kind = "valid" | "auth" | "path" | "query" | "query shape" | "body" | "property" | "property set" | "multipart" | "multipart part" | "idempotency key";

/**
 * The hostile variants of the REST operations. Variant `i` of an operation is a function of (seed, operation, i)
 * alone: the same seed replays it, whatever else runs.
 */
export class RestVariants {
  constructor(
    private readonly world: World,
    private readonly seed: number,
  ) {}

  /** The kinds of variant that apply to `op`; the richer ones appear more than once. */
  kindsOf(op: Operation): Kind[] {
    const kinds: Kind[] = ["valid", "auth", "query", "query shape", "body"];
    if (op.pathParams.length > 0) kinds.push("path", "path");
    if (this.baseBody(op, new Random(0)) !== undefined) kinds.push("property", "property", "property", "property set", "body");
    if (op.multipartParts) kinds.push("multipart", "multipart", "multipart part", "multipart part");
    if (op.idempotencyKey) kinds.push("idempotency key");
    return kinds;
  }

  request(op: Operation, index: number): FuzzRequest {
    const kinds = this.kindsOf(op);
    const kind = kinds[(Random.derive(this.seed, op.key).below(kinds.length) + index) % kinds.length];
    const rng = Random.derive(this.seed, `${op.key}#${index}`);
    const draft = this.validDraft(op, rng);
    this.mutate(kind, op, draft, rng);
    return this.finish(op, draft, rng);
  }

  private validDraft(op: Operation, rng: Random): Draft {
    const anonymous = op.auth === "none" ? rng.chance(0.8) : rng.chance(0.1);
    const role: Role | undefined = anonymous ? undefined : rng.pick(ACTING_ROLES);
    const pathValues: Record<string, string> = {};
    for (const param of op.pathParams) pathValues[param] = this.fixture(op, param, rng).mine;
    const draft: Draft = { labels: [], as: role ?? "anonymous", authorization: role && `Bearer ${this.world.token(role)}`, pathValues, query: "", headers: {} };
    const body = this.baseBody(op, rng);
    if (body !== undefined) {
      draft.headers["content-type"] = "application/json";
      draft.body = Buffer.from(JSON.stringify(body));
    } else if (op.multipartParts) {
      draft.headers["content-type"] = `multipart/form-data; boundary=${BOUNDARY}`;
      draft.body = multipartBody(BOUNDARY, this.baseParts(op));
    }
    return draft;
  }

  private fixture(op: Operation, param: string, rng: Random): { mine: string; other: string } {
    const kind = fixtureOf(op.template, param);
    if (kind) return this.world.fixtures[kind];
    // A parameter nobody taught this fuzzer: a number still tries the id parsing.
    const guess = String(1 + rng.below(5));
    return { mine: guess, other: guess };
  }

  /** A valid JSON body of `op` from its schema, pointing at real rows; the webhooks' bodies, which it does not declare. */
  private baseBody(op: Operation, rng: Random): unknown {
    const { fixtures } = this.world;
    if (op.template === "/webhooks/pix/payment") return { event: "payment.updated", data: { id: fixtures.pixTransaction.mine, status: "PAID" } };
    if (op.template === "/payments/webhook" || op.template === "/webhooks/card") {
      return {
        id: `evt_fuzz_${rng.below(1e9)}`,
        type: "payment_intent.succeeded",
        data: { object: { id: `pi_fuzz_${rng.below(1e9)}`, amount_received: 4990, metadata: { subscriptionId: fixtures.subscription.mine } } },
      };
    }
    return op.jsonSchema ? this.example(op, op.jsonSchema, "", rng) : undefined;
  }

  private example(op: Operation, schema: JsonSchema, name: string, rng: Random): unknown {
    const hinted = this.hint(op, name, rng);
    if (hinted !== undefined) return hinted;
    if (schema.const !== undefined) return schema.const;
    if (schema.default !== undefined) return schema.default;
    if (schema.enum) return schema.enum[0];
    if (schema.anyOf) return this.example(op, schema.anyOf.find((s) => s.type !== "null") ?? schema.anyOf[0], name, rng);
    const type = Array.isArray(schema.type) ? schema.type.find((t) => t !== "null") : schema.type;
    switch (type) {
      case "object":
        return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([key, property]) => [key, this.example(op, property, key, rng)]));
      case "array":
        return Array.from({ length: Math.max(1, schema.minItems ?? 1) }, () => this.example(op, schema.items ?? {}, name, rng));
      case "string": {
        if (schema.format === "date") return new Date().toISOString().slice(0, 10);
        if (schema.format === "date-time") return new Date().toISOString();
        const text = "Fuzz".padEnd(schema.minLength ?? 0, "z");
        return text.slice(0, schema.maxLength ?? text.length);
      }
      case "integer":
      case "number": {
        const low = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
        const high = schema.maximum ?? low;
        return high - low <= 10_000 ? Math.round((low + high) / 2) : low;
      }
      case "boolean":
        return true;
      default:
        return null;
    }
  }

  /** Values a field's name calls for: real rows' ids, a fresh e-mail, a sandbox card, a plausible time. */
  private hint(op: Operation, name: string, rng: Random): unknown {
    const { fixtures, people } = this.world;
    const billing = op.template.startsWith("/subscriptions") || op.template.startsWith("/payments");
    const hour = 3_600_000;
    const hints: Record<string, () => unknown> = {
      exerciseId: () => Number(fixtures.exercise.mine),
      trainingId: () => Number(fixtures.training.mine),
      planId: () => Number(billing ? fixtures.subscriptionPlan.mine : fixtures.plan.mine),
      studentId: () => people.student.id,
      userId: () => people.student.id,
      email: () => `fuzz-${rng.below(1e9)}@example.com`,
      studentEmail: () => people.otherStudent.email,
      password: () => "senha-forte-1",
      cardNumber: () => "4242424242424242",
      cardHolderName: () => "FUZZ",
      cardExpirationMonth: () => "12",
      cardExpirationYear: () => String(new Date().getUTCFullYear() + 3),
      cardCvv: () => "123",
      startTime: () => new Date(Date.now() - 2 * hour).toISOString(),
      endTime: () => new Date(Date.now() - hour).toISOString(),
      birthDate: () => "1990-05-17",
      phone: () => "+55 11 99999-9999",
      id: () => (op.template.includes("simulate-payment") ? fixtures.pixTransaction.mine : undefined),
    };
    return hints[name]?.();
  }

  private baseParts(op: Operation): Array<{ name: string; filename?: string; type?: string; data: Buffer | string }> {
    return (op.multipartParts ?? []).map((name) =>
      name === "file"
        ? { name, filename: "foto.png", type: "image/png", data: PNG }
        : { name, data: name === "exercise" ? JSON.stringify(exercisePart(true)) : "fuzz" },
    );
  }

  private mutate(kind: Kind, op: Operation, draft: Draft, rng: Random): void {
    switch (kind) {
      case "valid":
        draft.labels.push("valid request");
        return;
      case "auth":
        return this.hostileCredentials(op, draft, rng);
      case "path": {
        const param = rng.pick(op.pathParams);
        const fixture = this.fixture(op, param, rng);
        const value = hostilePathValue(rng, fixture.mine, fixture.other);
        draft.pathValues[param] = value.value;
        draft.labels.push(`path ${param} = ${value.label}`);
        return;
      }
      case "query": {
        const param = op.query.length > 0 ? rng.pick(op.query) : { name: rng.pick(["page", "size", "sort", "id"]), enumValues: [] };
        const value = hostileQueryValue(rng, param.name, param.enumValues);
        draft.query = `${param.name}=${value.value}`;
        draft.labels.push(`query ${param.name} = ${value.label}${op.query.some((q) => q.name === param.name) ? "" : " (undeclared)"}`);
        return;
      }
      case "query shape": {
        const shape = hostileQueryShape(rng, op.query.length > 0 ? rng.pick(op.query).name : "page");
        draft.query = shape.query;
        draft.labels.push(shape.label);
        return;
      }
      case "body":
        return this.hostileBody(op, draft, rng);
      case "property":
        return this.hostileProperty(op, draft, rng);
      case "property set":
        return this.oddPropertySet(op, draft, rng);
      case "multipart":
        return this.hostileMultipart(op, draft, rng);
      case "multipart part":
        return this.hostilePart(op, draft, rng);
      case "idempotency key": {
        // Malformed keys, and one key this operation's variants share (a replay, or 422 for another body).
        const [label, key] = rng.pick([
          ["empty", ""],
          ["of 256 characters", "k".repeat(256)],
          ["of 8 KB", "k".repeat(8_000)],
          ["not ASCII", "chave-\u00e9"],
          ["a quoted string left open", '"fuzz'],
          ["a quoted string with escapes", '"fu\\"zz\\\\"'],
          ["shared by the operation's variants", `fuzz-${op.key}`],
          ["fresh", `fuzz-${rng.below(1e9)}-${rng.below(1e9)}`],
        ] as const);
        draft.headers["idempotency-key"] = key;
        draft.labels.push(`Idempotency-Key ${label}`);
        return;
      }
    }
  }

  /** One field of the body (nested ones included) replaced by a hostile value. */
  private hostileProperty(op: Operation, draft: Draft, rng: Random): void {
    const base = this.baseBody(op, rng);
    const paths = pathsIn(base);
    if (paths.length === 0) return this.hostileBody(op, draft, rng);
    const path = rng.pick(paths);
    const value = hostileJson(rng, valueAt(base, path));
    draft.body = Buffer.from(replaceAt(base, path, value.json));
    draft.labels.push(`body ${jsonPath(path)} = ${value.label}`);
  }

  /** A field left out, or fields the schema does not have (prototype keys, privileges, someone else's ids). */
  private oddPropertySet(op: Operation, draft: Draft, rng: Random): void {
    const base = this.baseBody(op, rng) as Record<string, unknown>;
    const keys = Object.keys(base ?? {});
    if (keys.length > 0 && rng.chance(0.3)) {
      const key = rng.pick(keys);
      const rest = { ...base };
      delete rest[key];
      draft.body = Buffer.from(JSON.stringify(rest));
      draft.labels.push(`body without ${key}`);
      return;
    }
    const { people } = this.world;
    const [label, extra] = rng.pick([
      ["__proto__", '"__proto__":{"isAdmin":true,"userType":"ADMIN"}'],
      ["constructor.prototype", '"constructor":{"prototype":{"isAdmin":true}}'],
      ["isAdmin", '"isAdmin":true'],
      ["role ADMIN", '"role":"ADMIN"'],
      ["userType ADMIN", '"userType":"ADMIN"'],
      ["id", '"id":1'],
      ["createdBy someone else", `"createdBy":${people.otherTrainer.id}`],
      ["userId someone else", `"userId":${people.otherStudent.id}`],
      ["status ACTIVE", '"status":"ACTIVE"'],
      ["price 0", '"price":0,"amount":0,"amountCents":0'],
      ["the same key twice", `"${keys[0] ?? "a"}":1,"${keys[0] ?? "a"}":"x"`],
    ] as const);
    const text = JSON.stringify(base ?? {});
    draft.body = Buffer.from(text === "{}" ? `{${extra}}` : `{${extra},${text.slice(1)}`);
    draft.labels.push(`body with extra ${label}`);
  }

  /** The whole body: not JSON, cut short, of another type, mislabelled, compressed or pretending to be. */
  private hostileBody(op: Operation, draft: Draft, rng: Random): void {
    const base = this.baseBody(op, rng);
    const text = JSON.stringify(base ?? {});
    const json = "application/json";
    const choices: Array<[string, () => { body: Buffer | string; type?: string; encoding?: string }]> = [
      ["not JSON", () => ({ body: "hello", type: json })],
      ["truncated JSON", () => ({ body: text.slice(0, Math.max(1, Math.floor(text.length / 2))), type: json })],
      ["single-quoted JSON", () => ({ body: "{'a': 1}", type: json })],
      ["trailing comma", () => ({ body: '{"a":1,}', type: json })],
      ["BOM before the JSON", () => ({ body: `\uFEFF${text}`, type: json })],
      ["the body inside an array", () => ({ body: `[${text}]`, type: json })],
      ["JSON null", () => ({ body: "null", type: json })],
      ["JSON string", () => ({ body: '"x"', type: json })],
      ["JSON number", () => ({ body: "123", type: json })],
      ["empty with a JSON content type", () => ({ body: "", type: json })],
      [`arrays nested ${DEEP} deep`, () => ({ body: nestedArrays(DEEP), type: json })],
      [`objects nested ${DEEP} deep`, () => ({ body: nestedObjects(DEEP), type: json })],
      ["2 MB body", () => ({ body: JSON.stringify({ pad: "x".repeat(2_000_000) }), type: json })],
      [
        "invalid UTF-8 inside a string",
        () => ({ body: Buffer.concat([Buffer.from('{"name":"'), Buffer.from([0xff, 0xfe, 0xc0, 0xaf, 0xed, 0xa0, 0x80]), Buffer.from('"}')]), type: json }),
      ],
      ["UTF-16 body", () => ({ body: Buffer.from(text, "utf16le"), type: "application/json; charset=utf-16" })],
      ["charset latin1", () => ({ body: text, type: "application/json; charset=latin1" })],
      ["text/plain content type", () => ({ body: text, type: "text/plain" })],
      ["form-urlencoded with nested keys", () => ({ body: "a[b][c]=1&name[__proto__][x]=1", type: "application/x-www-form-urlencoded" })],
      ["XML", () => ({ body: "<a>1</a>", type: "application/xml" })],
      ["no content type", () => ({ body: text })],
      ["multipart content type without a boundary", () => ({ body: text, type: "multipart/form-data" })],
      ["gzip claimed, not gzip", () => ({ body: text, type: json, encoding: "gzip" })],
      ["deflate claimed, garbage", () => ({ body: Buffer.from([0x78, 0x9c, 0xff, 0x00, 0x13, 0x37]), type: json, encoding: "deflate" })],
      ["br claimed, garbage", () => ({ body: Buffer.from("not brotli at all"), type: json, encoding: "br" })],
      ["unknown content-encoding", () => ({ body: text, type: json, encoding: "x-fuzz" })],
      ["real gzip", () => ({ body: gzipSync(text), type: json, encoding: "gzip" })],
      ["gzip bomb (20 MB of zeros)", () => ({ body: (gzipBomb ??= gzipSync(Buffer.alloc(20 * 1024 * 1024, 0x30))), type: json, encoding: "gzip" })],
      ["gzip claimed twice", () => ({ body: gzipSync(text), type: json, encoding: "gzip, gzip" })],
    ];
    const [label, make] = rng.pick(choices);
    const made = make();
    delete draft.headers["content-type"];
    if (made.type) draft.headers["content-type"] = made.type;
    if (made.encoding) draft.headers["content-encoding"] = made.encoding;
    draft.body = Buffer.from(made.body);
    draft.labels.push(`body ${label}`);
  }

  /** The multipart envelope: no or wrong boundary, cut short, oversized, too many parts, odd file names. */
  private hostileMultipart(op: Operation, draft: Draft, rng: Random): void {
    const parts = this.baseParts(op);
    const valid = multipartBody(BOUNDARY, parts);
    const withParts = (list: typeof parts) => multipartBody(BOUNDARY, list);
    const file = (data: Buffer | string, filename = "foto.png", type = "image/png") =>
      withParts([...parts.filter((p) => p.name !== "file"), { name: "file", filename, type, data }]);
    const choices: Array<[string, () => { body: Buffer; type?: string }]> = [
      ["missing boundary", () => ({ body: valid, type: "multipart/form-data" })],
      ["boundary mismatch", () => ({ body: valid, type: "multipart/form-data; boundary=another-boundary" })],
      ["truncated", () => ({ body: valid.subarray(0, Math.floor(valid.length * 0.7)) })],
      ["no closing boundary", () => ({ body: valid.subarray(0, valid.length - BOUNDARY.length - 6) })],
      ["empty", () => ({ body: Buffer.alloc(0) })],
      ["LF line endings", () => ({ body: Buffer.from(valid.toString("latin1").replace(/\r\n/g, "\n"), "latin1") })],
      ["boundary of 300 characters", () => ({ body: multipartBody("b".repeat(300), parts), type: `multipart/form-data; boundary=${"b".repeat(300)}` })],
      ["oversize file (6 MB)", () => ({ body: file(Buffer.concat([PNG, Buffer.alloc(6 * 1024 * 1024)])) })],
      ["text file claiming image/png", () => ({ body: file("just text") })],
      ["SVG with a script", () => ({ body: file('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>', "x.svg", "image/svg+xml") })],
      ["PDF named .jpg", () => ({ body: file("%PDF-1.4\n%\u00e2\u00e3\n1 0 obj\n<<>>\nendobj\n", "x.jpg", "image/jpeg") })],
      ["PNG signature only", () => ({ body: file(PNG.subarray(0, 8)) })],
      ["GIF header only", () => ({ body: file("GIF89a", "x.gif", "image/gif") })],
      ["empty file", () => ({ body: file(Buffer.alloc(0)) })],
      ["file name with path traversal", () => ({ body: file(PNG, "../../../../etc/passwd") })],
      ["file name with RTL override", () => ({ body: file(PNG, "foto\u202Egnp.exe") })],
      ["file name of 10,000 characters", () => ({ body: file(PNG, `${"a".repeat(10_000)}.png`) })],
      [
        "three files",
        () => ({
          body: withParts([
            ...parts,
            { name: "file", filename: "a.png", type: "image/png", data: PNG },
            { name: "file2", filename: "b.png", type: "image/png", data: PNG },
          ]),
        }),
      ],
      ["30 fields", () => ({ body: withParts([...parts, ...Array.from({ length: 30 }, (_, i) => ({ name: `f${i}`, data: "x" }))]) })],
      [
        "2 MB field",
        () => ({ body: withParts([...parts, { name: parts.find((p) => p.name !== "file")?.name ?? "note", data: "x".repeat(2 * 1024 * 1024) }]) }),
      ],
      ["every part twice", () => ({ body: withParts([...parts, ...parts]) })],
      ["no parts named", () => ({ body: Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: form-data\r\n\r\nx\r\n--${BOUNDARY}--\r\n`) })],
      ["JSON instead of multipart", () => ({ body: Buffer.from(JSON.stringify(exercisePart(true))), type: "application/json" })],
    ];
    const [label, make] = rng.pick(choices);
    const made = make();
    draft.body = made.body;
    if (made.type) draft.headers["content-type"] = made.type;
    draft.labels.push(`multipart ${label}`);
  }

  /** A non-file part of the multipart body (the exercise's JSON) made hostile, field by field or whole. */
  private hostilePart(op: Operation, draft: Draft, rng: Random): void {
    const parts = this.baseParts(op);
    const target = parts.find((p) => p.name !== "file");
    if (!target) return this.hostileMultipart(op, draft, rng);
    const base = target.name === "exercise" ? exercisePart(true) : undefined;
    const paths = pathsIn(base);
    if (base && paths.length > 0 && rng.chance(0.7)) {
      const path = rng.pick(paths);
      const value = hostileJson(rng, valueAt(base, path));
      target.data = replaceAt(base, path, value.json);
      draft.labels.push(`multipart ${target.name}.${jsonPath(path)} = ${value.label}`);
    } else {
      const text = hostileString(rng);
      const [label, data] = rng.pick([
        ["not JSON", "hello"],
        [`arrays nested ${DEEP} deep`, nestedArrays(DEEP)],
        [`objects nested ${DEEP} deep`, nestedObjects(DEEP)],
        ["JSON null", "null"],
        ["JSON array", "[]"],
        [text.label, text.value],
      ]);
      target.data = data;
      if (rng.chance(0.3)) Object.assign(target, { filename: "exercise.json", type: "application/json" });
      draft.labels.push(`multipart ${target.name} = ${label}`);
    }
    draft.body = multipartBody(BOUNDARY, parts);
  }

  /** A token that is not what it seems, or for webhooks a wrong secret or signature. */
  private hostileCredentials(op: Operation, draft: Draft, rng: Random): void {
    const { world } = this;
    if (op.template === "/webhooks/pix/payment") {
      const [label, secret] = rng.pick([
        ["no secret", undefined],
        ["wrong secret", "wrong"],
        ["empty secret", ""],
        ["secret with a trailing space", `${world.webhookSecret} `],
        ["secret in upper case", world.webhookSecret.toUpperCase()],
        ["secret of 8 KB", "s".repeat(8_000)],
      ] as const);
      draft.ownCredentials = true;
      if (secret !== undefined) draft.headers["x-webhook-secret"] = secret;
      draft.labels.push(`webhook ${label}`);
      return;
    }
    if (op.template === "/payments/webhook" || op.template === "/webhooks/card") {
      const now = Math.floor(Date.now() / 1000);
      const body = draft.body ?? Buffer.alloc(0);
      const [label, header] = rng.pick([
        ["no signature", undefined],
        ["garbage signature", "garbage"],
        ["empty v1", `t=${now},v1=`],
        ["signature 10 minutes old", signCardEvent(body, world.webhookSecret, now - 600)],
        ["signature 10 minutes ahead", signCardEvent(body, world.webhookSecret, now + 600)],
        ["signature of another body", signCardEvent("{}", world.webhookSecret, now)],
        ["signed with another secret", signCardEvent(body, "another-secret", now)],
        ["timestamp of 14 digits", `t=99999999999999,v1=${"0".repeat(64)}`],
        ["t twice", `t=${now},t=${now},v1=${"0".repeat(64)}`],
        ["header of 8 KB", `t=${now},${"v1=ab,".repeat(1_300)}v1=ab`],
      ] as const);
      draft.ownCredentials = true;
      if (header !== undefined) draft.headers["card-signature"] = header;
      draft.labels.push(`webhook ${label}`);
      return;
    }
    const role = rng.pick(ACTING_ROLES);
    const valid = world.token(role);
    const claims = JSON.parse(Buffer.from(valid.split(".")[1], "base64url").toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const signed = (changes: Record<string, unknown>) => jwt(JSON.stringify({ ...claims, ...changes }), world.jwtSecret);
    const [label, authorization] = rng.pick([
      ["token without scheme", valid],
      ["Basic scheme", "Basic ZnV6ejpmdXp6"],
      ["Bearer alone", "Bearer"],
      ["Bearer and a space", "Bearer "],
      ["garbage token", "Bearer abc"],
      ["three empty parts", "Bearer .."],
      ["token of 8 KB", `Bearer ${"a".repeat(8_000)}`],
      ["token and a trailing word", `Bearer ${valid} extra`],
      ["tampered signature", `Bearer ${valid.slice(0, -3)}${valid.endsWith("AAA") ? "BBB" : "AAA"}`],
      ["alg none", `Bearer ${Buffer.from('{"alg":"none","typ":"JWT"}').toString("base64url")}.${valid.split(".")[1]}.`],
      ["signed with another secret", `Bearer ${jwt(JSON.stringify(claims), "another-secret")}`],
      ["HS512 header", `Bearer ${jwt(JSON.stringify(claims), world.jwtSecret, '{"alg":"HS512","typ":"JWT"}')}`],
      ["expired", `Bearer ${signed({ iat: now - 7_200, exp: now - 3_600 })}`],
      ["issued in the future", `Bearer ${signed({ iat: now + 3_600 })}`],
      ["sub abc", `Bearer ${signed({ sub: "abc" })}`],
      ["sub -1", `Bearer ${signed({ sub: "-1" })}`],
      ["sub 0", `Bearer ${signed({ sub: "0" })}`],
      ["sub 2^31", `Bearer ${signed({ sub: "2147483648" })}`],
      ["sub of 20 digits", `Bearer ${signed({ sub: "99999999999999999999" })}`],
      ["sub with leading zeros", `Bearer ${signed({ sub: `000${claims.sub}` })}`],
      ["sub as a number", `Bearer ${signed({ sub: Number(claims.sub) })}`],
      ["sub of nobody", `Bearer ${signed({ sub: "999999" })}`],
      ["ver -1", `Bearer ${signed({ ver: -1 })}`],
      ["ver 1e308", `Bearer ${signed({ ver: 1e308 })}`],
      ["jti of 10,000 characters", `Bearer ${signed({ jti: "j".repeat(10_000) })}`],
      ["jti with U+0000", `Bearer ${signed({ jti: "a\u0000b" })}`],
      ["jti empty", `Bearer ${signed({ jti: "" })}`],
      ["exp 1e20", `Bearer ${signed({ exp: 1e20 })}`],
      ["role ADMIN claimed", `Bearer ${signed({ role: "ADMIN", userType: "ADMIN" })}`],
      ["payload is an array", `Bearer ${jwt("[1,2]", world.jwtSecret)}`],
      ["payload is not JSON", `Bearer ${jwt("{not json", world.jwtSecret)}`],
    ] as const);
    draft.as = `${role}, ${label}`;
    draft.authorization = authorization;
    draft.labels.push(`credentials: ${label}`);
  }

  private finish(op: Operation, draft: Draft, rng: Random): FuzzRequest {
    const headers = { ...draft.headers };
    if (draft.authorization !== undefined) headers.authorization = draft.authorization;
    // The webhooks' valid credentials go on every variant but those attacking them, so the payload gets past the check.
    if (!draft.ownCredentials && op.template === "/webhooks/pix/payment") headers["x-webhook-secret"] = this.world.webhookSecret;
    if (!draft.ownCredentials && (op.template === "/payments/webhook" || op.template === "/webhooks/card")) {
      headers[rng.chance(0.5) ? "card-signature" : "stripe-signature"] = signCardEvent(
        draft.body ?? "",
        this.world.webhookSecret,
        Math.floor(Date.now() / 1000),
      );
    }
    const path = op.template.replace(/\{(\w+)\}/g, (_, name: string) => draft.pathValues[name]);
    return {
      operation: op.key,
      label: draft.labels.join("; "),
      as: draft.as,
      method: op.method,
      path: `/api${path}${draft.query ? `?${draft.query}` : ""}`,
      headers,
      body: draft.body,
    };
  }
}
