import { eq, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { jsonArrayText, jsonInstant, jsonNumber, jsonObjectText, objectJson } from "../../platform/db/json.js";
import { users, weightHistory } from "../../tables/user.table.js";

/*
 * The user shapes other modules' statements embed, as SQL: a tree read in one statement (a plan's trainings'
 * exercises' authors) carries each author as the JSON object the author loader would have answered.
 */

const author = alias(users, "author");

const authorFields = { id: author.id, name: author.name, userType: author.userType, profilePicture: author.profilePicture };

/** The keys authorJson can write (a UserSummary's fields). */
export const AUTHOR_JSON_KEYS = Object.keys(authorFields);

/**
 * The author `userId` (a column of the enclosing query) as a UserSummaryDto JSON object (only the `keys` named, when
 * given), null when missing.
 */
export function authorJson(userId: AnyColumn, keys?: readonly string[]): SQL {
  return sql`(select ${objectJson(authorFields, keys)} from ${users} ${author} where ${eq(author.id, userId)})`;
}

/** Whether a content object is read with its author (`creator`), and the keys of the author read (all when not said). */
export interface AuthorInclude {
  creator?: boolean;
  creatorKeys?: string[];
}

/** The `creator` of a content object whose author is the column `createdBy`, as a JSON object, when `include` names it. */
export const creatorJson = (createdBy: AnyColumn, include: AuthorInclude): Record<string, SQL> =>
  include.creator ? { creator: authorJson(createdBy, include.creatorKeys) } : {};

/** The weights the metrics list: the newest, as many as a page holds at most (a list without paging is capped). */
export const WEIGHT_HISTORY_LISTED = 100;

/**
 * The newest WEIGHT_HISTORY_LISTED weights `userId` recorded through the profile, oldest first, as the text of the
 * metrics' JSON array of `{date, value}`: read backwards from the (user, recorded_at) index and stopped there, however
 * long the history.
 */
export function weightHistoryText(userId: SQL | AnyColumn): SQL<string> {
  const w = weightHistory;
  return jsonArrayText(
    jsonObjectText({ date: jsonInstant(sql`newest.recorded_at`), value: jsonNumber(sql`newest.weight_kg`) }),
    sql`from (select ${w.recordedAt}, ${w.weightKg}, ${w.id} from ${w} where ${w.userId} = ${userId}
      order by ${w.recordedAt} desc, ${w.id} desc limit ${sql.raw(String(WEIGHT_HISTORY_LISTED))}) newest`,
    sql`newest.recorded_at, newest.id`,
  );
}
