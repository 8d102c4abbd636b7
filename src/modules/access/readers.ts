import { sql } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";

/*
 * Who reads, as the SQL rules of this module see it. A statement's shape depends on the reader's kind (anonymous,
 * signed in, administrator); its id is a bound value, or a prepared statement's placeholder.
 */

/** Who reads content: a user (its id, bound or a prepared statement's placeholder) or nobody signed in (null). */
export type ContentReader = { id: Bound<number>; isAdmin: boolean } | null;

/** What shapes a statement's visibility condition: the reader's id is bound, its kind is in the text. */
export type ReaderKind = "anonymous" | "user" | "admin";

export const readerKind = (caller: { isAdmin: boolean } | null): ReaderKind => (!caller ? "anonymous" : caller.isAdmin ? "admin" : "user");

/** The reader of a prepared statement of that kind, its id bound to the placeholder `callerId`. */
export const preparedReader = (kind: ReaderKind): ContentReader =>
  kind === "anonymous" ? null : { id: sql.placeholder("callerId"), isAdmin: kind === "admin" };
