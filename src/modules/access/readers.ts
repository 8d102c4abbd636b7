import { sql, type SQL } from "drizzle-orm";
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

/**
 * A reader, as the rules embedded in a statement see it: `linkShown`, when given, a condition of the enclosing query's
 * row that shows the reader to be an ACTIVE-linked trainer of the user asked about (isActiveLinkOf, where that user is
 * the row's student); where it is false, the rule looks at the reader's links as ever.
 */
export interface LinkedReader {
  id: Bound<number>;
  isAdmin: boolean;
  linkShown?: SQL;
}

/** `linkShown or ` ahead of a look at the reader's links, when the row may show the link. */
export const shownOr = (reader: Pick<LinkedReader, "linkShown">): SQL => (reader.linkShown ? sql`${reader.linkShown} or ` : sql``);
