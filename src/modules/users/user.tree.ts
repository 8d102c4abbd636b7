import { sql, type SQL } from "drizzle-orm";
import { embeddedPlaceholder, embeddedValues, type EmbeddedRead } from "../../platform/db/embedded-read.js";
import { fromJson } from "../../platform/db/json.js";
import type { UserActor } from "../../platform/auth/actor.js";
import type { UsersTable } from "../access/users.js";
import { users } from "../../tables/user.table.js";
import { userFromJson, type UserDto } from "./user.dto.js";
import { userJson } from "./user.fragments.js";

/*
 * A user as a GraphQL selection reads it, in the statement that reads the user: the user's own keys, and the reads
 * other modules embed in it (its executions), each under its name. Every statement that answers a User (the users
 * module's own by id, a page of links' students and trainers) builds it here, so a relation other modules add to User
 * is read one way wherever a user is.
 */

/** What a selection of User reads of each user: the keys of its JSON object (all when undefined), and the reads embedded in it. */
export interface UserInclude {
  embedded: Record<string, EmbeddedRead<unknown>>;
  keys?: string[];
}

/** A user read as a tree: its DTO's fields read, and the answer of each read embedded in it, under its name. */
export type UserTree = UserDto & Record<string, unknown>;

/** What shapes a user tree's SQL (the statement keeps one prepared text per key); the reader's id and type are bound. */
export const userTreeKey = (include: UserInclude, reader: Pick<UserActor, "isAdmin">): string =>
  `${reader.isAdmin} ${Object.entries(include.embedded)
    .map(([name, read]) => `${name}(${read.key})`)
    .join(" ")} ${include.keys?.join(",") ?? "*"}`;

/** The placeholders of a tree's embedded read `name` are named `<prefix><name>_…`, apart from the statement's own. */
const readPrefix = (prefix: string, name: string) => `${prefix}${name}_`;

/**
 * The enclosing query's user row `user` as its tree's JSON object (null when the reader may not read it): the reader's
 * id and type bound to the placeholders `<prefix>callerId` and `<prefix>callerType`; `linkShown`, what the enclosing
 * row shows of the reader's link to the user (access's LinkedReader).
 */
export function userTreeJson(include: UserInclude, reader: Pick<UserActor, "isAdmin">, prefix = "", user: UsersTable = users, linkShown?: SQL): SQL {
  const bound = { id: sql.placeholder(`${prefix}callerId`), userType: sql.placeholder(`${prefix}callerType`), isAdmin: reader.isAdmin, linkShown };
  const reads = Object.entries(include.embedded).map(([name, read]) => [name, read.sql(user.id, embeddedPlaceholder(readPrefix(prefix, name)), linkShown)]);
  return userJson(bound, user, Object.fromEntries(reads), include.keys);
}

/** The values userTreeJson's placeholders bind, by name. */
export function userTreeValues(include: UserInclude, reader: Pick<UserActor, "id" | "userType">, prefix = ""): Record<string, unknown> {
  return Object.assign(
    { [`${prefix}callerId`]: reader.id, [`${prefix}callerType`]: reader.userType },
    ...Object.entries(include.embedded).map(([name, read]) => embeddedValues(readPrefix(prefix, name), read)),
  );
}

/** A user tree as userTreeJson wrote it: null when the reader may not read the user. */
export function userTreeFromJson(json: unknown, include: UserInclude): UserTree | null {
  if (json === null || json === undefined) return null;
  const user = fromJson(json) as Record<string, unknown>;
  return Object.assign(userFromJson(user), ...Object.entries(include.embedded).map(([name, read]) => ({ [name]: read.answer(user[name]) })));
}

/** `user` with each read `include` embeds answered from nothing: a reader refused them all, so no statement read them. */
export const userTreeWithoutStatement = (user: UserDto, include: UserInclude): UserTree =>
  Object.assign({ ...user }, ...Object.entries(include.embedded).map(([name, read]) => ({ [name]: read.answer(null) })));
