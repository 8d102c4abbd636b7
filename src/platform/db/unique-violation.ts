/** True when `error` (from either driver, possibly wrapped by Drizzle) is a unique violation of `constraint`. */
export function isUniqueViolation(error: unknown, constraint?: string): boolean {
  for (let e = error as { code?: string; constraint?: string; constraint_name?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) {
    if (e.code === "23505") {
      return !constraint || e.constraint === constraint || e.constraint_name === constraint;
    }
  }
  return false;
}
