import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { queryNumber } from "../../platform/validation.js";
import { STUDENT_ADHERENCE_SORTS } from "./adherence.repository.js";

/** The windows adherence is read over, in days ending today (contract §12.2). */
export const ADHERENCE_WINDOWS = [7, 30, 90] as const;
/** The ISO weeks the longest window touches: 90 days span 13 weeks and 6 days, so 14 weeks at most. */
export const MAX_ADHERENCE_WEEKS = Math.ceil(Math.max(...ADHERENCE_WINDOWS) / 7) + 1;
export const DEFAULT_ADHERENCE_WINDOW = 30;

/** A window: a GraphQL Int, or its text in a query string; 30 days when not given. */
const windowDays = queryNumber(z.union(ADHERENCE_WINDOWS.map((days) => z.literal(days))), 3)
  .default(DEFAULT_ADHERENCE_WINDOW)
  .describe("The window's length in days, ending today (UTC): 7, 30 or 90; 30 when left out");

/** What a reading of adherence is asked with. */
export const adherenceQuery = z.object({ window: windowDays }).describe("Over which window adherence is read");
export type AdherenceQuery = z.output<typeof adherenceQuery>;

/** A trainer's students by adherence, the lowest first (those who need attention), unless another order is asked. */
export const studentAdherencePaging: Paging = { sortable: Object.keys(STUDENT_ADHERENCE_SORTS), fallbackSort: [{ field: "adherence", direction: "asc" }] };
export type StudentAdherenceListQuery = ListQuery<AdherenceQuery>;
