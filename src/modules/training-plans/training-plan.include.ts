import type { Selection } from "../../graphql/look-ahead.js";
import { trainingInclude } from "../trainings/training.include.js";
import { PLAN_TRAINING_JSON_KEYS, type PlanInclude } from "./training-plan.repository.js";

/** What a selection of TrainingPlan reads ahead of its trainings: each one's training, and the keys their fields read. */
export function planInclude(plan: Selection): PlanInclude {
  const trainings = plan.field("trainings");
  return { training: trainingInclude(trainings?.field("training")), keys: trainings?.keysOf(PLAN_TRAINING_JSON_KEYS) };
}
