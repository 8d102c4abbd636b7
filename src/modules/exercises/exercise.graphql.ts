import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { ExerciseResolver } from "./exercise.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const exerciseResolvers = [ExerciseResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function exerciseLoaders(services: Services, actor: Actor) {
  return {
    exerciseById: new DataLoader((ids: readonly number[]) => services.exercises.findVisibleByIds(actor, ids)),
  };
}
