import { ChangeFeedResolver } from "./change-feed.resolver.js";

/** The change feed's resolvers: src/graphql-schema.ts builds the schema from each module's list. */
export const changeFeedResolvers = [ChangeFeedResolver] as const;
