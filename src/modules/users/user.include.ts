import type { Selection } from "../../graphql/look-ahead.js";
import { embeddedRelations, type EmbeddingContext } from "../../graphql/embedded.js";
import { USER_JSON_KEYS } from "./user.fragments.js";
import type { UserInclude } from "./user.tree.js";

/** What the User type's fields named otherwise than their column read of a userJson object (toUserDto's names). */
const USER_FIELD_KEYS = { height: ["heightCm"], weight: ["weightKg"], subscriptionExpirationDate: ["subscriptionExpiresAt"] };

/**
 * What a selection of User reads of each user in the statement that reads the users: the relations other modules add
 * to User that it selects and their statements embed (its executions), and the keys of the userJson object its fields
 * read (Selection.keysOf: all of them when it selects a relation resolved through a loader, which reads the id).
 */
export function userInclude(selection: Selection, ctx: EmbeddingContext): UserInclude {
  const { embedded, needs } = embeddedRelations(selection, ctx);
  return { embedded, keys: selection.keysOf(USER_JSON_KEYS, { ...USER_FIELD_KEYS, ...needs }) };
}
