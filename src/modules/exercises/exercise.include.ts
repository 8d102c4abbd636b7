import type { Selection } from "../../graphql/look-ahead.js";
import type { ExerciseInclude } from "./exercise.fragments.js";

/** The relations a selection of Exercise asks for, read ahead with it (undefined: the exercise itself is not selected). */
export const exerciseInclude = (selection: Selection | undefined): ExerciseInclude | undefined =>
  selection && { creator: selection.field("creator") !== undefined };
