import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { loadersByArguments } from "../../graphql/loaders.js";
import { CoachingResolver, InviteRelationsResolver, UserLinksResolver } from "./coaching.resolver.js";
import type { LinkInclude } from "./link.repository.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const coachingResolvers = [CoachingResolver, InviteRelationsResolver, UserLinksResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function coachingLoaders(services: Services, actor: Actor) {
  return {
    /** A user's ACTIVE links as trainer, as a selection reads them (their parties in the links' statement). */
    studentsOf: loadersByArguments((include: LinkInclude, ids: readonly number[]) => services.links.listActiveLinksByUserIds(actor, "personal", ids, include)),
    /** A user's ACTIVE links as student, likewise. */
    personalsOf: loadersByArguments((include: LinkInclude, ids: readonly number[]) => services.links.listActiveLinksByUserIds(actor, "student", ids, include)),
  };
}
