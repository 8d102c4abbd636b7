import DataLoader from "dataloader";
import type { Actor } from "../platform/auth/actor.js";
import type { Services } from "../services.js";

/** Per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function createLoaders(services: Services, actor: Actor) {
  return {
    userById: new DataLoader((ids: readonly number[]) => services.users.findByIds(ids)),
    studentsOf: new DataLoader((ids: readonly number[]) => services.coaching.activeLinksOf(actor, "personal", ids)),
    personalsOf: new DataLoader((ids: readonly number[]) => services.coaching.activeLinksOf(actor, "student", ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
