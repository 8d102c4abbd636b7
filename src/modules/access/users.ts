import { sql, type SQL } from "drizzle-orm";
import type { BuildAliasTable } from "drizzle-orm/pg-core";
import type { Bound } from "../../platform/db/prepared.js";
import { users } from "../../tables/user.table.js";
import { linkPartnerIds } from "./links.js";
import { shownOr, type LinkedReader } from "./readers.js";

/** The users table, or an alias of it in the enclosing query. */
export type UsersTable = typeof users | BuildAliasTable<typeof users, string>;

/**
 * Who reads users: the caller's id and type (bound values) and whether it is an administrator (the statement's shape),
 * and what the enclosing row may show of its links (LinkedReader).
 */
export interface UserReader extends LinkedReader {
  userType: Bound<string>;
}

/**
 * True (as SQL) when `reader` may read the user row `user` (the users table, or an alias of it, in the enclosing
 * query) in full (contract §3): itself, an administrator, or the other party of an ACTIVE trainer-student link.
 */
export function userReadableBy(reader: UserReader, user: UsersTable = users): SQL {
  if (reader.isAdmin) return sql`true`;
  return sql`(${user.id} = ${reader.id} or (${user.userType} <> ${reader.userType} and (${shownOr(reader)}${user.id} in (${linkPartnerIds(reader.id)}))))`;
}
