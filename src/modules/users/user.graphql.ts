import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { loadersByArguments } from "../../graphql/loaders.js";
import { AuthPayloadResolver, UserResolver } from "./user.resolver.js";
import type { UserInclude } from "./user.tree.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const userResolvers = [UserResolver, AuthPayloadResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function userLoaders(services: Services, actor: Actor) {
  return {
    /** Full users the caller may read (self, administrators, linked parties), as a selection reads them; null otherwise. */
    userById: loadersByArguments((include: UserInclude, ids: readonly number[]) => services.users.findTreesByIds(actor, ids, include)),
    /** Public author summaries. */
    authorById: new DataLoader((ids: readonly number[]) => services.users.findSummariesByIds(ids)),
  };
}
