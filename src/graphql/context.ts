import type { Actor, RequestMeta } from "../platform/auth/actor.js";
import type { ListItemsBudget } from "./list-bounds.js";
import type { CostState } from "./cost-budget.js";

/*
 * The services and the loaders are declared empty here and filled by the GraphQL assembly (src/graphql-api.ts,
 * declaration merging) with the composition root's services and every module's loaders: a module's resolvers type
 * their context with all of them without importing the assembly or the root, which import every module.
 */

/** Every domain service, as src/services.ts composes them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Services {}

/** Every module's per-request DataLoaders, as src/graphql-api.ts creates them. */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface Loaders {}

/** What every resolver gets: the services, the caller, per-request loaders and the request's origin. */
export interface Context {
  services: Services;
  actor: Actor;
  loaders: Loaders;
  meta: RequestMeta;
  /**
   * What the request's capped lists may still hold (list-bounds.ts); none for a subscription, whose context serves
   * each of its events (one entity each) for as long as it lasts.
   */
  listItems?: ListItemsBudget;
  /** A budgeted caller's points for this operation (cost-budget.ts), once taken. */
  cost?: CostState;
}
