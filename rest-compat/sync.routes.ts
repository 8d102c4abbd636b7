import { changeFeedSchema } from "../src/modules/sync/change-feed.dto.js";
import { changeFeedQuery } from "../src/modules/sync/change-feed.inputs.js";
import type { Services } from "../src/services.js";
import { queryReader, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

/** Offline sync (contract §13.3): the change feed. */
export function addSyncRoutes(routes: DocumentedRouter, services: Services): void {
  routes.add(
    {
      method: "get",
      path: "/sync/changes",
      operationId: "listChanges",
      query: changeFeedQuery,
      tag: "Sync",
      summary:
        "What changed for the caller since a cursor (each change once, in commit order, a lost sight as DELETE), or without `since` every entity the caller sees, then a cursor",
      description:
        "The offline-safe sync of contract §13.3: start without `since` for every entity the caller sees, keep the `cursor`, and ask again with it while `hasMore`; each change is an UPSERT with the entity as its REST GET answers it, or a DELETE (gone, or no longer visible). A cursor too old to resume answers 410: sync again from scratch.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      response: changeFeedSchema,
      errors: [400, 410],
    },
    async (req, res) => {
      res.json(await services.changeFeed.changes(await userOf(services, req), queryReader(req, changeFeedQuery)));
    },
  );
}
