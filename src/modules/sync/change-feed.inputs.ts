import { z } from "zod";
import { queryNumber } from "../../platform/validation.js";
import { MAX_CURSOR_LENGTH } from "./change-feed.cursor.js";

export const DEFAULT_FEED_LIMIT = 100;
export const MAX_FEED_LIMIT = 500;

/** How many changes a page holds: a GraphQL Int, or its digits in a query string; 1…500, 100 when not given. */
const limit = queryNumber(z.number().int().min(1).max(MAX_FEED_LIMIT), 4)
  .default(DEFAULT_FEED_LIMIT)
  .describe(`How many changes a page holds: 1 to ${MAX_FEED_LIMIT} (${DEFAULT_FEED_LIMIT} when not given)`);

/** GET /sync/changes and GraphQL `changes`: where to read from (none: an initial sync) and how much. */
export const changeFeedQuery = z.object({
  since: z.string().max(MAX_CURSOR_LENGTH).optional().describe("The `cursor` of the last page read; none: an initial sync of everything the caller sees"),
  limit,
});
export type ChangeFeedQuery = z.output<typeof changeFeedQuery>;
