import { z } from "zod";
import { invalidParameter, validationError, type FieldError } from "./errors.js";

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
  const result = schema.safeParse(input ?? {});
  const errors = result.success ? [] : toFieldErrors(result.error);
  // PostgreSQL text cannot hold U+0000: refused here as a field error rather than failing the query (a 500).
  for (const field of nulCharacterFields(input)) {
    if (!errors.some((error) => error.field === field)) errors.push({ field, message: "Caractere inválido" });
  }
  if (!result.success || errors.length > 0) throw validationError(errors, message);
  return result.data;
}

function nulCharacterFields(value: unknown, path: PropertyKey[] = [], out: string[] = []): string[] {
  if (typeof value === "string") {
    if (value.includes("\u0000")) out.push(jsonPath(path));
  } else if (Array.isArray(value)) {
    value.forEach((item, index) => nulCharacterFields(item, [...path, index], out));
  } else if (value !== null && typeof value === "object") {
    for (const [key, item] of Object.entries(value)) nulCharacterFields(item, [...path, key], out);
  }
  return out;
}

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
export const isoDate = z.iso.date("Data inválida (use AAAA-MM-DD)");

/**
 * Parses query-string filters: a bad value gives 400 `Parâmetro inválido: <param>` (contract §2), naming the
 * first offending parameter.
 */
export function parseQuery<S extends z.ZodType>(schema: S, query: unknown): z.output<S> {
  const result = schema.safeParse(query ?? {});
  if (!result.success) throw invalidParameter(String(result.error.issues[0]?.path[0] ?? "query"));
  const [nul] = nulCharacterFields(query);
  if (nul !== undefined) throw invalidParameter(nul.split(/[.[]/)[0]);
  return result.data;
}

/** A query-string boolean: exactly `true` or `false`. */
export const queryBoolean = z.enum(["true", "false"]).transform((value) => value === "true");

/** An optional boolean where null means "not given" (GraphQL inputs declare such fields nullable): false by default. */
export const optionalFlag = z
  .boolean()
  .nullish()
  .transform((value) => value ?? false);

const MAX_ID = 2_147_483_647;

/** An id in a JSON body: a positive integer the database's integer columns can hold. */
export const entityId = z.number().int().positive().max(MAX_ID);

/** An id in a query string (`?createdBy=12`): digits only, 1…2147483647, as a number. */
export const queryId = z
  .string()
  .regex(/^\d{1,10}$/)
  .transform(Number)
  .pipe(z.number().int().min(1).max(MAX_ID));
