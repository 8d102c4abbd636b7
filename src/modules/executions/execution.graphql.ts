import type { Actor } from "../../platform/auth/actor.js";
import { loadersByArguments } from "../../graphql/loaders.js";
import type { Services } from "../../graphql/context.js";
import { userExecutionsQuery, type UserExecutionsArguments } from "./execution.include.js";
import { ExecutionResolver, ExerciseProgressResolver, TrainingStatisticsResolver, UserExecutionsResolver } from "./execution.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const executionResolvers = [ExecutionResolver, UserExecutionsResolver, TrainingStatisticsResolver, ExerciseProgressResolver] as const;

/** This module's per-request DataLoaders: a list of N users resolves each relation in one query, not N. */
export function executionLoaders(services: Services, actor: Actor) {
  return {
    /** `User.executions(filter, page)`: the same page of every user of the list, per distinct arguments. */
    executionsOfUser: loadersByArguments((args: UserExecutionsArguments, userIds: readonly number[]) =>
      services.executions.listUserTrainingExecutionsOf(actor, userIds, userExecutionsQuery(args)),
    ),
  };
}
