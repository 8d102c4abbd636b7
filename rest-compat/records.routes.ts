import { z } from "zod";
import { recordSchema } from "../src/modules/records/records.dto.js";
import { recordHistoryFilter, recordHistoryPaging, recordsFilter } from "../src/modules/records/records.inputs.js";
import { queryId } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

const TAG = "Records";

/** A user's records of an exercise, current and past (contract §12.1). */
export function addRecordRoutes(routes: DocumentedRouter, services: Services): void {
  const { records } = services;

  routes.add(
    {
      method: "get",
      path: "/exercises/:id/records",
      operationId: "listRecords",
      pathParams: { id: queryId.describe("The exercise's id") },
      query: recordsFilter,
      response: z.array(recordSchema),
      tag: TAG,
      summary: "The current record of each kind on an exercise (the caller's unless userId)",
      description:
        "The best now of each kind the user has on the exercise, in the kinds' order (a kind no set qualified for is absent). The caller's, or `userId`'s for administrators and that user's ACTIVE-linked trainer (403 for anyone else).",
      auth: "required",
      scope: "activity:read",
      success: 200,
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
      operationId: "listRecordHistory",
      pathParams: { id: queryId.describe("The exercise's id") },
      query: recordHistoryFilter,
      paging: recordHistoryPaging,
      response: pageOf(recordSchema),
      tag: TAG,
      summary: "Every record event on an exercise, newest first (the caller's unless userId)",
      description:
        "Every record the user set on the exercise, beaten since or not, newest first (the only order: a `sort` is refused); `kind` keeps one kind. The caller's, or `userId`'s for administrators and that user's ACTIVE-linked trainer (403 for anyone else).",
      auth: "required",
      scope: "activity:read",
      success: 200,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await records.listHistory(actor, idParam(req), listReader(req, recordHistoryPaging, recordHistoryFilter)));
    },
  );
}
