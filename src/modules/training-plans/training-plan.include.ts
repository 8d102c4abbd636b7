import type { Selection } from "../../graphql/look-ahead.js";
import { trainingInclude } from "../trainings/training.include.js";
import { authorInclude } from "../users/author.include.js";
import { PLAN_TRAINING_JSON_KEYS, type PlanInclude } from "./training-plan.repository.js";

/**
 * What a selection of TrainingPlan reads in the statement that reads the plan: its author, and of its trainings each
 * one's training and the keys their fields read (nothing when the plan itself is not selected).
 */
export function planInclude(plan: Selection | undefined): PlanInclude {
  if (!plan) return {};
  const trainings = plan.field("trainings");
  return { ...authorInclude(plan), training: trainingInclude(trainings?.field("training")), keys: trainings?.keysOf(PLAN_TRAINING_JSON_KEYS) };
}
