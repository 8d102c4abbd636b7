import DataLoader from "dataloader";
import type { Services } from "../services.js";

/** Per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function createLoaders(services: Services) {
  return {
    userById: new DataLoader((ids: readonly number[]) => services.users.findByIds(ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
