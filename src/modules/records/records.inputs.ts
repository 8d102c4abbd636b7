import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { filterId } from "../../platform/validation.js";
import { recordKind } from "../executions/execution.dto.js";

const userId = filterId
  .optional()
  .describe("Whose records: the caller's when left out; another user's for administrators and the user's ACTIVE-linked trainer only");

/** A user's current records of an exercise: the caller's unless `userId`. */
export const recordsFilter = z.object({ userId }).describe("Whose current records are read");
export type RecordsFilter = z.infer<typeof recordsFilter>;

/** Every record event of an exercise, of one kind or all: the caller's unless `userId`. */
export const recordHistoryFilter = z
  .object({ userId, kind: recordKind.schema.optional().describe("Only the records of this kind; every kind when left out") })
  .describe("Whose record history is read, and of which kind");
export type RecordHistoryQuery = ListQuery<z.infer<typeof recordHistoryFilter>>;

/** The history reads newest first, the only order it has (a `sort` is refused). */
export const recordHistoryPaging: Paging = { sortable: [], fallbackSort: [{ field: "achievedAt", direction: "desc" }] };
