import { ilike, type AnyColumn, type SQL } from "drizzle-orm";

/** `column` contains `text`, ignoring case; `%`, `_` and `\` in the text are literal, not patterns. */
export function containsText(column: AnyColumn, text: string): SQL {
  return ilike(column, containsPattern(text));
}

/** The ILIKE pattern of `containsText`, for a prepared statement to bind. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}
