import type { Actor } from "../../platform/auth/actor.js";
import { listReader } from "../../graphql/arguments.js";
import { loadersByArguments } from "../../graphql/loaders.js";
import type { Services } from "../../graphql/context.js";
import type { PageInput } from "../../graphql/page.js";
import { trainingExecutionPaging, userTrainingExecutionFilter } from "./execution.inputs.js";
import { ExecutionResolver, ExerciseProgressResolver, TrainingStatisticsResolver, UserExecutionsResolver } from "./execution.resolver.js";
import type { ExecutionFilter } from "./execution.types.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const executionResolvers = [ExecutionResolver, UserExecutionsResolver, TrainingStatisticsResolver, ExerciseProgressResolver] as const;

/** The arguments of `User.executions`. */
interface UserExecutionsArguments {
  filter?: ExecutionFilter | null;
  page?: PageInput | null;
}

/** `User.executions`'s arguments as its listing reads them (the same refusals). */
const userExecutionsQuery = (args: UserExecutionsArguments) => listReader(trainingExecutionPaging, userTrainingExecutionFilter, args.filter, args.page);

/** This module's per-request DataLoaders: a list of N users resolves each relation in one query, not N. */
export function executionLoaders(services: Services, actor: Actor) {
  return {
    /** `User.executions(filter, page)`: the same page of every user of the list, per distinct arguments. */
    executionsOfUser: loadersByArguments((args: UserExecutionsArguments, userIds: readonly number[]) =>
      services.executions.listUserTrainingExecutionsOf(actor, userIds, userExecutionsQuery(args)),
    ),
  };
}
