import type { Selection } from "../../graphql/look-ahead.js";
import { exerciseInclude } from "../exercises/exercise.include.js";
import { authorInclude } from "../users/author.include.js";
import { LINE_JSON_KEYS, TRAINING_JSON_KEYS, type TrainingInclude } from "./training.fragments.js";

/** What Training's fields other than its columns read of its JSON object (a tree's training has no exerciseCount). */
const TRAINING_NEEDS = { exercises: ["lines"], exerciseCount: [] };

/**
 * The relations a selection of Training asks for (its author, its lines' exercises), read in the statement that reads the training,
 * and the keys its fields and its lines' read
 * (undefined: the training itself is not selected).
 */
export const trainingInclude = (selection: Selection | undefined): TrainingInclude | undefined =>
  selection && {
    ...authorInclude(selection),
    exercise: exerciseInclude(selection.path("exercises", "exercise")),
    keys: selection.keysOf(TRAINING_JSON_KEYS, TRAINING_NEEDS),
    lineKeys: selection.field("exercises")?.keysOf(LINE_JSON_KEYS),
  };
