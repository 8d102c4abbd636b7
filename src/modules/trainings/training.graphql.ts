import { TrainingResolver } from "./training.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const trainingResolvers = [TrainingResolver] as const;
