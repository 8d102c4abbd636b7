import { sql, type SQL } from "drizzle-orm";
import type { Bound } from "../../platform/db/prepared.js";
import { users } from "../../tables/user.table.js";
import { linkPartnerIds } from "./links.js";

/** Who reads users: the caller's id and type (bound values) and whether it is an administrator (the statement's shape). */
export interface UserReader {
  id: Bound<number>;
  userType: Bound<string>;
  isAdmin: boolean;
}

/**
 * True (as SQL) when `reader` may read the enclosing query's user row in full (contract §3): itself, an administrator,
 * or the other party of an ACTIVE trainer-student link.
 */
export function userReadableBy(reader: UserReader): SQL {
  if (reader.isAdmin) return sql`true`;
  return sql`(${users.id} = ${reader.id} or (${users.userType} <> ${reader.userType} and ${users.id} in (${linkPartnerIds(reader.id)})))`;
}
