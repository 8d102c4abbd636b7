import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import type { AdherenceRequest } from "./adherence.service.js";
import { AdherenceResolver, UserAdherenceResolver } from "./adherence.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const adherenceResolvers = [AdherenceResolver, UserAdherenceResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function adherenceLoaders(services: Services, actor: Actor) {
  return {
    /** A user's adherence over the window its field asks (a 403 or 400 error in place); readings are not cached, as their arguments are read only in the batch. */
    adherenceOfUser: new DataLoader((requests: readonly AdherenceRequest[]) => services.adherence.ofUsers(actor, requests), { cache: false }),
  };
}
