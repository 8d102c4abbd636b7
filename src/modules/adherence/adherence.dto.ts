import { z } from "zod";

/** Why a student needs its trainer's attention (contract §12.2), in the order they are listed. */
export const ATTENTION_REASONS = ["LOW_ADHERENCE", "DROPPING", "INACTIVE_7_DAYS"] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

const day = z.iso.date();
const share = z.number().min(0).max(1).nullable().describe("completed / scheduled, 3 decimals; null when nothing is scheduled");

/*
 * The answers' shapes, as zod schemas: the DTO types are read from them and the OpenAPI document describes them, so
 * the two cannot drift apart.
 */

const summaryFields = {
  userId: z.number().int(),
  window: z.number().int().describe("days: 7, 30 or 90"),
  from: day.describe("first day of the window (UTC)"),
  to: day.describe("last day of the window: today (UTC)"),
  scheduled: z.number().int().describe("sessions the plans scheduled in the window"),
  completed: z.number().int().describe("of them, done: per ISO week and training, at most the completed executions of that week"),
  adherence: share,
  previousAdherence: share.describe("the same over the window before"),
  lastTrainingAt: z.iso.datetime().nullable().describe("start of the latest completed training execution"),
  needsAttention: z.boolean().describe("a student with an ACTIVE assignment for whom some reason applies"),
  reasons: z.array(z.enum(ATTENTION_REASONS)),
};

/** A student's adherence with its weeks and assignments (GET /users/{id}/adherence, GraphQL User.adherence). */
export const adherenceSchema = z.object({
  ...summaryFields,
  weeks: z
    .array(z.object({ weekStart: day.describe("Monday"), scheduled: z.number().int(), completed: z.number().int() }))
    .describe("the ISO weeks the window touches, oldest first"),
  assignments: z
    .array(
      z.object({
        assignmentId: z.number().int(),
        planId: z.number().int(),
        planName: z.string(),
        scheduled: z.number().int(),
        completed: z.number().int(),
        adherence: share,
      }),
    )
    .describe(
      "the ACTIVE and COMPLETED assignments scheduling days of the window, the earliest started first; a week's done sessions of a training go to them in that order",
    ),
});
export type AdherenceDto = z.output<typeof adherenceSchema>;

/** One of a trainer's students in its page of adherence (GET /personal/students/adherence). */
export const studentAdherenceSchema = z.object({ ...summaryFields, studentName: z.string() });
export type StudentAdherenceDto = z.output<typeof studentAdherenceSchema>;

/** What a trainer's dashboard reads of its students' adherence (contract §12.3). */
export interface TrainerAdherenceOverview {
  /** Every ACTIVE student's 30-day figures, the lowest adherence first. */
  students: StudentAdherenceDto[];
  /** The mean of those adherences that are not null (3 decimals); null when none is. */
  meanAdherence: number | null;
  /** The sessions of today's ISO week so far, and of them done. */
  sessionsThisWeek: { scheduled: number; completed: number };
}
