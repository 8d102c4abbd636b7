import { eq, getTableColumns, sql, type AnyColumn, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { fromJson, jsonArrayText, jsonInstant, jsonNumber, jsonObjectText, objectJson } from "../../platform/db/json.js";
import { userReadableBy, type UserReader, type UsersTable } from "../access/users.js";
import { users, weightHistory } from "../../tables/user.table.js";
import type { CreatorIncluded, UserSummaryDto } from "./user.dto.js";

/*
 * The user shapes other modules' statements embed, as SQL: the JSON objects a tree read in one statement carries (a
 * plan's trainings' exercises' authors, a trainer's students) as the user and author loaders would have answered them,
 * under access's rule of who may read a user in full.
 */

/** The columns of a user a UserDto shows. */
function shownColumns(user: UsersTable) {
  const { passwordHash: _hash, sessionVersion: _version, isAdmin: _admin, ...shown } = getTableColumns(user);
  return shown;
}

/** The keys userJson can write (besides its `extra`): the shown columns'. */
export const USER_JSON_KEYS = Object.keys(shownColumns(users));

/**
 * The enclosing query's user row `user` as a JSON object (what a UserDto shows, and `extra`; of the shown columns only
 * the `keys` named, when given), or null when `reader` may not read it: what the userById loader would have answered.
 * userFromJson (user.dto.ts) reads it back.
 */
export function userJson(reader: UserReader, user: UsersTable = users, extra: Record<string, SQL> = {}, keys?: readonly string[]): SQL {
  const object = objectJson({ ...shownColumns(user), ...extra }, keys && [...keys, ...Object.keys(extra)]);
  return sql`case when ${userReadableBy(reader, user)} then ${object} end`;
}

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

/** The `creator` creatorJson put in a row, decoded (null: a missing author); nothing when it was not read. */
export const creatorFromJson = (row: { creator?: unknown }): CreatorIncluded =>
  row.creator === undefined ? {} : { creator: fromJson(row.creator) as UserSummaryDto | null };

/** creatorFromJson in place, for a row read to be answered from (a listing's): no object made. */
export function decodeCreator(row: { creator?: unknown }): void {
  if (row.creator !== undefined) row.creator = fromJson(row.creator);
}

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
