import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { isoInstantText } from "../../platform/db/json.js";
import { users, weightHistory } from "./user.table.js";

/*
 * The user shapes other modules' statements embed, as SQL: a tree read in one statement (a plan's trainings'
 * exercises' authors) carries each author as the JSON object the author loader would have answered.
 */

const author = alias(users, "author");

/** The author `userId` (a column of the enclosing query) as a UserSummaryDto JSON object, null when missing. */
export function authorJson(userId: AnyColumn): SQL {
  return sql`(select json_build_object('id', ${author.id}, 'name', ${author.name}, 'userType', ${author.userType}, 'profilePicture', ${author.profilePicture})
    from ${users} ${author} where ${eq(author.id, userId)})`;
}

/** The weights `userId` recorded through the profile, oldest first, as the metrics' JSON array of `{date, value}`. */
export function weightHistoryJson(userId: SQL | AnyColumn): SQL {
  const w = weightHistory;
  return sql`(select coalesce(json_agg(json_build_object('date', ${isoInstantText(w.recordedAt)}, 'value', ${w.weightKg}::float8)
    order by ${w.recordedAt}, ${w.id}), '[]') from ${w} where ${w.userId} = ${userId})`;
}
