import { DeveloperResolver } from "./developer.resolver.js";

/** The developer platform's resolvers: src/graphql-schema.ts builds the schema from each module's list. */
export const developerResolvers = [DeveloperResolver] as const;
