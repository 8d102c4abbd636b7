import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { CoachingResolver, InviteRelationsResolver, LinkRelationsResolver, UserLinksResolver } from "./coaching.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const coachingResolvers = [CoachingResolver, LinkRelationsResolver, InviteRelationsResolver, UserLinksResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function coachingLoaders(services: Services, actor: Actor) {
  return {
    studentsOf: new DataLoader((ids: readonly number[]) => services.links.listActiveLinksByUserIds(actor, "personal", ids)),
    personalsOf: new DataLoader((ids: readonly number[]) => services.links.listActiveLinksByUserIds(actor, "student", ids)),
  };
}
