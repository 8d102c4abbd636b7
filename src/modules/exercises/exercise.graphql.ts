import { ExerciseResolver } from "./exercise.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const exerciseResolvers = [ExerciseResolver] as const;
