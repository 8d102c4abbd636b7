import { ExecutionResolver, ExerciseProgressResolver, TrainingStatisticsResolver, UserExecutionsResolver } from "./execution.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const executionResolvers = [ExecutionResolver, UserExecutionsResolver, TrainingStatisticsResolver, ExerciseProgressResolver] as const;
