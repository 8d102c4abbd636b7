import type { Selection } from "../../graphql/look-ahead.js";
import { exerciseInclude } from "../exercises/exercise.include.js";
import type { TrainingInclude } from "./training.fragments.js";

/** The relations a selection of Training asks for, read ahead with it (undefined: the training itself is not selected). */
export const trainingInclude = (selection: Selection | undefined): TrainingInclude | undefined =>
  selection && { exercise: exerciseInclude(selection.path("exercises", "exercise")) };
