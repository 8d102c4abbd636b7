export type PgError = { code?: string; constraint?: string; constraint_name?: string; cause?: unknown };

/** The driver's error behind `error` (either driver, possibly wrapped by Drizzle) that `matches`. */
export function pgErrorWhere(error: unknown, matches: (e: PgError) => boolean): PgError | null {
  for (let e = error as PgError | undefined; e; e = e.cause as PgError | undefined) {
    if (matches(e)) return e;
  }
  return null;
}

/** The PostgreSQL error behind `error` when its code is `code`. */
const pgErrorWithCode = (error: unknown, code: string): PgError | null => pgErrorWhere(error, (e) => e.code === code);

/** True when `error` is a unique violation (of `constraint`, when named). */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  const e = pgErrorWithCode(error, "23505");
  return Boolean(e) && (!constraint || e!.constraint === constraint || e!.constraint_name === constraint);
}

/** True when `error` is a foreign-key violation (a row still referenced, or a reference to nothing). */
export function isForeignKeyViolation(error: unknown): boolean {
  return pgErrorWithCode(error, "23503") !== null;
}

/**
 * Runs a write checked beforehand against rows it references or is referenced by; when one of those changed in
 * between (a concurrent delete, or a row taken up by a new reference), the foreign key refuses it, and that becomes
 * the same 4xx the check gives (`refused()`), not a 500.
 */
export async function unlessForeignKeyRefuses<T>(write: () => Promise<T>, refused: () => Error): Promise<T> {
  try {
    return await write();
  } catch (error) {
    if (isForeignKeyViolation(error)) throw refused();
    throw error;
  }
}
