import DataLoader from "dataloader";
import type { Actor } from "../../platform/auth/actor.js";
import type { Services } from "../../graphql/context.js";
import { BillingResolver, UserSubscriptionResolver } from "./billing.resolver.js";

/** Every resolver of this module: src/graphql-schema.ts builds the schema from each module's list. */
export const billingResolvers = [BillingResolver, UserSubscriptionResolver] as const;

/** This module's per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function billingLoaders(services: Services, actor: Actor) {
  return {
    /** The subscription giving each user access (self and administrators; a 403 error for anyone else). */
    subscriptionOfUser: new DataLoader((ids: readonly number[]) => services.subscriptions.currentOfUsers(actor, ids)),
  };
}
