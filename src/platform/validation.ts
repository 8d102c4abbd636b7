import { z } from "zod";
import { AppError, invalidParameter, validationError, type FieldError } from "./errors.js";
import { DAY_MS } from "./dates.js";

// Messages of the validation list are in Portuguese, like every other text of the API.
z.config(z.locales.pt());

/** `["sets", 0, "repetitions"]` → `sets[0].repetitions` (contract §2). */
export function jsonPath(path: readonly PropertyKey[]): string {
  let out = "";
  for (const part of path) {
    if (typeof part === "number") out += `[${part}]`;
    else out += out === "" ? String(part) : `.${String(part)}`;
  }
  return out;
}

export function toFieldErrors(error: z.ZodError): FieldError[] {
  return error.issues.map((issue) => ({ field: jsonPath(issue.path), message: issue.message }));
}

/**
 * Parses `input` with `schema`; every problem of the body is reported together as a 400.
 * `message` replaces the top-level "Validation failed" where api-spec.md keeps its own text.
 */
export function parseInput<S extends z.ZodType>(schema: S, input: unknown, message?: string): z.output<S> {
  // Text PostgreSQL cannot hold is refused here as a field error rather than failing the query (a 500).
  // Walked first, so a body nested too deep is refused before the schema looks at it.
  const nulFields = unstorableTextFields(input);
  const result = schema.safeParse(input ?? {});
  const errors = result.success ? [] : toFieldErrors(result.error);
  for (const field of nulFields) {
    if (!errors.some((error) => error.field === field)) errors.push({ field, message: "Caractere inválido" });
  }
  if (!result.success || errors.length > 0) throw validationError(errors, message);
  return result.data;
}

/**
 * How deep arrays and objects may nest in a request. The deepest body the API takes, a GraphQL request creating a
 * training plan (`{variables:{input:{trainings:[{…}]}}}`), has 5 levels; 32 leaves every client ample room and
 * keeps the work a hostile body can cause small.
 */
export const MAX_JSON_NESTING = 32;
export const TOO_DEEPLY_NESTED = "Corpo da requisição muito aninhado";
const tooDeeplyNested = () => new AppError(400, TOO_DEEPLY_NESTED);

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACKET = 0x5b;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACKET = 0x5d;
const CLOSE_BRACE = 0x7d;

/**
 * Refuses (400) JSON text whose arrays and objects nest deeper than MAX_JSON_NESTING, in one pass over the text and
 * before anything is built; a malformed text is left for the JSON parser to refuse. UTF-8 bytes may be given read as
 * latin1: every byte of a multi-byte character is ≥ 0x80, never a quote, backslash or bracket.
 */
export function ensureJsonNesting(text: string): void {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACKET || c === OPEN_BRACE) {
      if (++depth > MAX_JSON_NESTING) throw tooDeeplyNested();
    } else if (c === CLOSE_BRACKET || c === CLOSE_BRACE) depth--;
  }
}

/** Refuses (400) a value whose arrays and objects nest deeper than MAX_JSON_NESTING (a body parsed by a library). */
export function ensureNesting(value: unknown): void {
  walkStrings(value, () => undefined);
}

/** An array or object being walked: the next of its entries to visit, and where it sits (its key in its parent). */
interface Frame {
  container: object;
  /** The object's keys; null for an array. */
  keys: string[] | null;
  next: number;
  key: PropertyKey | undefined;
  parent: Frame | undefined;
  depth: number;
}

/**
 * Calls `onString` on every string of `value`, in order, with where it sits; refuses nesting past MAX_JSON_NESTING.
 * Iterative and linear: no call stack to overflow, no path built unless asked for (`pathOf`).
 */
function walkStrings(value: unknown, onString: (text: string, parent: Frame | undefined, key: PropertyKey | undefined) => void): void {
  const frameOf = (container: object, key: PropertyKey | undefined, parent: Frame | undefined): Frame => {
    const depth = (parent?.depth ?? 0) + 1;
    if (depth > MAX_JSON_NESTING) throw tooDeeplyNested();
    return { container, keys: Array.isArray(container) ? null : Object.keys(container), next: 0, key, parent, depth };
  };
  if (typeof value === "string") onString(value, undefined, undefined);
  if (value === null || typeof value !== "object") return;
  const stack = [frameOf(value, undefined, undefined)];
  while (stack.length > 0) {
    const frame = stack[stack.length - 1];
    const size = frame.keys === null ? (frame.container as unknown[]).length : frame.keys.length;
    if (frame.next === size) {
      stack.pop();
      continue;
    }
    const key = frame.keys === null ? frame.next : frame.keys[frame.next];
    frame.next += 1;
    const item: unknown = (frame.container as Record<PropertyKey, unknown>)[key];
    if (typeof item === "string") onString(item, frame, key);
    else if (item !== null && typeof item === "object") stack.push(frameOf(item, key, frame));
  }
}

/** The path of the entry `key` of `parent`, from the walked value's root. */
function pathOf(parent: Frame | undefined, key: PropertyKey | undefined): PropertyKey[] {
  const path: PropertyKey[] = key === undefined ? [] : [key];
  for (let at = parent; at?.key !== undefined; at = at.parent) path.push(at.key);
  return path.reverse();
}

/** Half of a UTF-16 surrogate pair standing alone: no character, and invalid in a PostgreSQL `json` value. */
const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/**
 * Text PostgreSQL cannot store as sent: U+0000 (refused by `text`) and lone surrogates (refused by `json`, and
 * silently turned into U+FFFD in `text`).
 */
export const isStorableText = (text: string) => !text.includes("\u0000") && !LONE_SURROGATE.test(text);

function unstorableTextFields(value: unknown): string[] {
  const fields: string[] = [];
  walkStrings(value, (text, parent, key) => {
    if (!isStorableText(text)) fields.push(jsonPath(pathOf(parent, key)));
  });
  return fields;
}

/**
 * An id another system gives as text (a gateway's event or transaction id): 1…`max` characters of text PostgreSQL can
 * store, so a query with it cannot fail.
 */
export const textId = (max: number) => z.string().min(1).max(max).refine(isStorableText, "Caractere inválido");

/** A required string: trimmed, blank refused, at most `max` characters. */
export const requiredText = (max: number) => z.string().trim().min(1, "Campo obrigatório").max(max);
/** An optional string: trimmed; blank becomes null. */
export const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .transform((value) => (value === "" ? null : value))
    .nullish();

export const emailField = z
  .string()
  .trim()
  .max(254)
  .pipe(z.email("Email inválido"))
  .transform((value) => value.toLowerCase());

/** bcrypt ignores bytes past 72, so longer passwords are refused rather than silently cut (contract §2). */
export const passwordField = z
  .string()
  .min(6, "A senha deve ter pelo menos 6 caracteres")
  .refine((value) => Buffer.byteLength(value) <= 72, "A senha deve ter no máximo 72 bytes");

/** YYYY-MM-DD that is a real calendar day. */
/**
 * The span of days and instants the service takes: 1900-01-01 … 2999-12-31 (UTC). Dates beyond are typos, and at the
 * far ends they break: PostgreSQL refuses year 0, JavaScript writes years past 9999 in a form PostgreSQL cannot read,
 * and the driver reads years before 100 back as 20xx.
 */
const FIRST_DAY = "1900-01-01";
const LAST_DAY = "2999-12-31";
const OUT_OF_SPAN = `Data fora do intervalo aceito (${FIRST_DAY} a ${LAST_DAY})`;
const FIRST_INSTANT_MS = Date.parse(`${FIRST_DAY}T00:00:00.000Z`);
const AFTER_LAST_INSTANT_MS = Date.parse(`${LAST_DAY}T00:00:00.000Z`) + DAY_MS;

/** A YYYY-MM-DD day within the service's span. */
export const isoDate = z.iso
  .date("Data inválida (use AAAA-MM-DD)")
  // A malformed text is refused above and reported once.
  .refine((day) => !/^\d{4}-\d{2}-\d{2}$/.test(day) || (day >= FIRST_DAY && day <= LAST_DAY), OUT_OF_SPAN);

/** An ISO 8601 date-time with an offset, within the service's span (a malformed text is reported once). */
export const isoInstant = z.iso
  .datetime({ offset: true, error: "Data e hora inválidas (ISO 8601)" })
  .refine((value) => !(Date.parse(value) < FIRST_INSTANT_MS || Date.parse(value) >= AFTER_LAST_INSTANT_MS), OUT_OF_SPAN);

/**
 * A request's input, parsed from its transport's wire format (a query string, a JSON body, a multipart part, GraphQL
 * arguments and input objects) when the service reads it: after the service's access checks, so a caller who may not
 * ask learns that (401, 403) before anything about what they sent (400).
 */
export type InputReader<T> = () => T;

/**
 * An input whose rules depend on the moment it is read (a card's expiry), read as of the `now` the service gives: its
 * clock's, after its access checks like any InputReader.
 */
export type DatedInputReader<T> = (now: Date) => T;

/** The schema of an input whose rules depend on the moment it is read, as of `now`. */
export type DatedSchema<S extends z.ZodType> = (now: Date) => S;

/**
 * The top-level text api-spec.md keeps for some bodies it refuses, chosen by what was sent; undefined leaves
 * "Validation failed".
 */
export type RefusalMessage = (input: unknown) => string | undefined;

/**
 * Reads `input` (a JSON body, a GraphQL input object) with `schema`, or with a dated schema as of the `now` given;
 * `message` picks the refusal's top-level text. What each transport's body reader is built on.
 */
export function readerOf<S extends z.ZodType>(schema: S | DatedSchema<S>, input: unknown, message?: RefusalMessage): (now?: Date) => z.output<S> {
  return (now) => parseInput(typeof schema === "function" ? schema(now!) : schema, input, message?.(input));
}

/**
 * Parses a query string's parameters (or GraphQL arguments standing for them): a bad value gives 400
 * `Parâmetro inválido: <param>` (contract §2), naming the first offending parameter.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw invalidParameter(String(result.error.issues[0]?.path[0] ?? "query"));
  const [nul] = unstorableTextFields(query);
  if (nul !== undefined) throw invalidParameter(nul.split(/[.[]/)[0]);
  return result.data;
}

/** A filter's boolean: a GraphQL Boolean, or exactly `true` or `false` in a query string. */
export const queryBoolean = z.union([z.boolean(), z.enum(["true", "false"]).transform((value) => value === "true")]);

/** An optional boolean where null means "not given" (GraphQL inputs declare such fields nullable): false by default. */
export const optionalFlag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer the database's integer columns can hold. */
export const entityId = z.number().int().positive().max(MAX_ID);

/**
 * An id in a query string (`?createdBy=12`) or a REST path (`/users/12`): digits only, 1…2147483647, as a number,
 * written as the API writes it (`00012` is not an id, so one resource is not reachable under many names).
 */
export const queryId = z
  .string()
  .regex(/^[1-9]\d{0,9}$/)
  .transform(Number)
  .pipe(entityId);

/**
 * A number GraphQL gives as an Int and a query string as its digits (at most `digits`): `typed` either way. The
 * OpenAPI document declares it `typed`, what a client sends.
 */
export const queryNumber = <T extends z.ZodType<number, number>>(typed: T, digits: number) =>
  z.union([
    typed,
    z
      .string()
      .regex(new RegExp(`^\\d{1,${digits}}$`))
      .transform(Number)
      .pipe(typed),
  ]);

/** An id a listing is filtered by: a GraphQL Int, or its text in a query string (queryId); 1…2147483647 either way. */
export const filterId = z.union([entityId, queryId]);
