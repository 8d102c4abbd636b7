import { LiveUpdatesResolver } from "./live-updates.resolver.js";

/** Live updates' resolvers: src/graphql-schema.ts builds the schema from each module's list. */
export const liveUpdatesResolvers = [LiveUpdatesResolver] as const;
