import type { Selection } from "../../graphql/look-ahead.js";
import { authorInclude } from "../users/author.include.js";
import { EXERCISE_JSON_KEYS, type ExerciseInclude } from "./exercise.fragments.js";

/**
 * The relations a selection of Exercise asks for (its author), read in the statement that reads the exercise, and the
 * keys its fields read (undefined: the exercise itself is not selected).
 */
export const exerciseInclude = (selection: Selection | undefined): ExerciseInclude | undefined =>
  selection && { ...authorInclude(selection), keys: selection.keysOf(EXERCISE_JSON_KEYS) };
