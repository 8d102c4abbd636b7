import { recordHistoryFilter, recordHistoryPaging, recordsFilter } from "../src/modules/records/records.inputs.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, queryReader, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

const TAG = "Records";
const KINDS = "MAX_WEIGHT | ESTIMATED_1RM | BEST_SET_VOLUME | BEST_SESSION_VOLUME | MAX_REPS | REP_MAX_3 | REP_MAX_5 | REP_MAX_10";

/** A user's records of an exercise, current and past (contract §12.1). */
export function addRecordRoutes(routes: DocumentedRouter, services: Services): void {
  const { records } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/:id/records",
      tag: TAG,
      summary: "The current record of each kind on an exercise (the caller's unless userId)",
      auth: "required",
      success: 200,
      query: { userId: "user id" },
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await records.listCurrent(actor, idParam(req), queryReader(req, recordsFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/exercises/:id/records/history",
      tag: TAG,
      summary: "Every record event on an exercise, newest first (the caller's unless userId)",
      auth: "required",
      success: 200,
      query: { kind: KINDS, userId: "user id", page: "page number (0)", size: "page size (20, at most 100)" },
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await records.listHistory(actor, idParam(req), listReader(req, recordHistoryPaging, recordHistoryFilter)));
    },
  );
}
