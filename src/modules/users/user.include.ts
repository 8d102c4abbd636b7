import type { Selection } from "../../graphql/look-ahead.js";
import { embeddedRelations, type ReadAheadContext } from "../../graphql/read-ahead.js";
import { USER_JSON_KEYS } from "./user.fragments.js";

/** What the User type's fields named otherwise than their column read of a userJson object (toUserDto's names). */
const USER_FIELD_KEYS = { height: ["heightCm"], weight: ["weightKg"], subscriptionExpirationDate: ["subscriptionExpiresAt"] };

/**
 * What a selection of User reads ahead in the statement that reads the users: the reads of the relations other
 * modules add to User that it selects (their executions), embedded under their names, and the keys of the userJson
 * object its fields, those relations' resolvers included, read (Selection.keysOf).
 */
export function userInclude(selection: Selection, ctx: ReadAheadContext) {
  const { embedded, needs } = embeddedRelations(selection, ctx);
  return { embedded, keys: selection.keysOf(USER_JSON_KEYS, { ...USER_FIELD_KEYS, ...needs }) };
}
