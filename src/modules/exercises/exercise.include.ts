import type { Selection } from "../../graphql/look-ahead.js";
import { AUTHOR_JSON_KEYS } from "../users/user.fragments.js";
import { EXERCISE_JSON_KEYS, type ExerciseInclude } from "./exercise.fragments.js";

/**
 * The relations a selection of Exercise asks for (its author), read in the statement that reads the exercise, and the
 * keys its fields read (undefined: the exercise itself is not selected).
 */
export const exerciseInclude = (selection: Selection | undefined): ExerciseInclude | undefined =>
  selection && {
    creator: selection.field("creator") !== undefined,
    keys: selection.keysOf(EXERCISE_JSON_KEYS),
    creatorKeys: selection.field("creator")?.keysOf(AUTHOR_JSON_KEYS),
  };
