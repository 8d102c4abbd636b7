import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { loadersByArguments } from "../../graphql/loaders.js";
import type { PlanInclude } from "./training-plan.repository.js";
import { PlanAssignmentRelationsResolver, TrainingPlanResolver } from "./training-plan.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const trainingPlanResolvers = [TrainingPlanResolver, PlanAssignmentRelationsResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function trainingPlanLoaders(services: Services, actor: Actor) {
  return {
    trainingPlanById: loadersByArguments((include: PlanInclude, ids: readonly number[]) => services.trainingPlans.findVisibleByIds(actor, ids, include)),
    assignmentsOfPlan: new DataLoader((ids: readonly number[]) => services.planAssignments.listByPlanIds(actor, ids)),
  };
}
