import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { TrainingExerciseRelationsResolver, TrainingResolver } from "./training.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const trainingResolvers = [TrainingResolver, TrainingExerciseRelationsResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function trainingLoaders(services: Services, actor: Actor) {
  return {
    trainingById: new DataLoader((ids: readonly number[]) => services.trainings.findVisibleByIds(actor, ids)),
  };
}
