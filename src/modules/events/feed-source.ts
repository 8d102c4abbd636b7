import type { UserActor } from "../../platform/auth/actor.js";

/**
 * What the module owning an entity kind offers the consumers that read its entities back for a reader (the change
 * feed, contract §13.3: each module implements the feed's rule, with no access check beyond it). Declared here, below
 * the domain modules, so that they implement it without importing their consumer.
 */
export interface FeedSource<Dto = unknown> {
  /** Those of `ids` in the reader's feed now, each as the REST DTO the reader gets it in; the others are left out. */
  load(reader: UserActor, ids: readonly number[]): Promise<Map<number, Dto>>;
  /** Up to `limit` ids of entities in the reader's feed now, above `afterId`, ascending (an initial sync's listing). */
  idsAfter(reader: UserActor, afterId: number, limit: number): Promise<number[]>;
}
