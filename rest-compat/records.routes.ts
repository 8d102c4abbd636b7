import { z } from "zod";
import { recordSchema } from "../src/modules/records/records.dto.js";
import { recordHistoryFilter, recordHistoryPaging, recordsFilter } from "../src/modules/records/records.inputs.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
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
      query: recordsFilter,
      response: z.array(recordSchema),
      tag: TAG,
      summary: "The current record of each kind on an exercise (the caller's unless userId)",
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
      query: recordHistoryFilter,
      paging: recordHistoryPaging,
      response: pageOf(recordSchema),
      tag: TAG,
      summary: "Every record event on an exercise, newest first (the caller's unless userId)",
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
