import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { filterId } from "../../platform/validation.js";
import { RECORD_KINDS } from "../../tables/records.table.js";

/** A user's current records of an exercise: the caller's unless `userId`. */
export const recordsFilter = z.object({ userId: filterId.optional() });
export type RecordsFilter = z.infer<typeof recordsFilter>;

/** Every record event of an exercise, of one kind or all: the caller's unless `userId`. */
export const recordHistoryFilter = z.object({ userId: filterId.optional(), kind: z.enum(RECORD_KINDS).optional() });
export type RecordHistoryQuery = ListQuery<z.infer<typeof recordHistoryFilter>>;

/** The history reads newest first, the only order it has (a `sort` is refused). */
export const recordHistoryPaging: Paging = { sortable: [], fallbackSort: [{ field: "achievedAt", direction: "desc" }] };
