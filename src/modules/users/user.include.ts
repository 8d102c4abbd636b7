import type { Selection } from "../../graphql/look-ahead.js";
import { USER_JSON_KEYS } from "./user.fragments.js";

/** What the User type's fields named otherwise than their column read of a userJson object (toUserDto's names). */
const USER_FIELD_KEYS = { height: ["heightCm"], weight: ["weightKg"], subscriptionExpirationDate: ["subscriptionExpiresAt"] };

/**
 * The keys of a userJson object a selection of User reads (Selection.keysOf), `needs` saying what the fields resolved
 * by other modules read of it.
 */
export const userKeys = (selection: Selection, needs: Record<string, readonly string[]> = {}): string[] | undefined =>
  selection.keysOf(USER_JSON_KEYS, { ...USER_FIELD_KEYS, ...needs });
