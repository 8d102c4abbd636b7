import "reflect-metadata";
import type { GraphQLSchema } from "graphql";
import { buildSchemaSync } from "type-graphql";
import { BillingResolver, UserSubscriptionResolver } from "../modules/billing/billing.resolver.js";
import { CoachingResolver, InviteRelationsResolver, LinkRelationsResolver, UserLinksResolver } from "../modules/coaching/coaching.resolver.js";
import { ExecutionResolver, ExerciseProgressResolver, TrainingStatisticsResolver, UserExecutionsResolver } from "../modules/executions/execution.resolver.js";
import { ExerciseResolver } from "../modules/exercises/exercise.resolver.js";
import { PlanAssignmentRelationsResolver, PlanTrainingRelationsResolver, TrainingPlanResolver } from "../modules/training-plans/training-plan.resolver.js";
import { TrainingExerciseRelationsResolver, TrainingResolver } from "../modules/trainings/training.resolver.js";
import { UserResolver } from "../modules/users/user.resolver.js";

let schema: GraphQLSchema | undefined;

/** The GraphQL schema, built once from every module's resolvers (validation is the services' job). */
export function buildGraphqlSchema(): GraphQLSchema {
  schema ??= buildSchemaSync({
    resolvers: [
      UserResolver,
      BillingResolver,
      UserSubscriptionResolver,
      CoachingResolver,
      LinkRelationsResolver,
      InviteRelationsResolver,
      UserLinksResolver,
      ExerciseResolver,
      TrainingResolver,
      TrainingExerciseRelationsResolver,
      TrainingPlanResolver,
      PlanTrainingRelationsResolver,
      PlanAssignmentRelationsResolver,
      ExecutionResolver,
      UserExecutionsResolver,
      TrainingStatisticsResolver,
      ExerciseProgressResolver,
    ],
    validate: false,
    emitSchemaFile: false,
  });
  return schema;
}
