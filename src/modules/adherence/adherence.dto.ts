import { z } from "zod";
import { enumeration } from "../../platform/enumeration.js";

/** Why a student needs its trainer's attention (contract §12.2), in the order they are listed. */
export const ATTENTION_REASONS = ["LOW_ADHERENCE", "DROPPING", "INACTIVE_7_DAYS"] as const;
export type AttentionReason = (typeof ATTENTION_REASONS)[number];

export const attentionReason = enumeration(ATTENTION_REASONS, {
  name: "AttentionReason",
  description: "Why a student needs its trainer's attention; given only for a student with an ACTIVE assignment",
  meanings: {
    LOW_ADHERENCE: "Adherence over the window below 0.5",
    DROPPING: "Adherence at least 0.2 below the previous window's",
    INACTIVE_7_DAYS: "No completed training execution started in the last 7 days (today and the 6 days before, UTC)",
  },
});

const day = z.iso.date();
const share = z
  .number()
  .min(0)
  .max(1)
  .nullable()
  .describe("The share of the scheduled sessions done (completed / scheduled), 0 to 1 with 3 decimals; null when nothing is scheduled");

/*
 * The answers' shapes, as zod schemas: the DTO types are read from them and the OpenAPI document describes them, so
 * the two cannot drift apart.
 */

const summaryFields = {
  userId: z.number().int().describe("The student's user id"),
  window: z.number().int().describe("The window's length in days: 7, 30 or 90"),
  from: day.describe("The window's first day (UTC)"),
  to: day.describe("The window's last day: today (UTC)"),
  scheduled: z.number().int().describe("Sessions the student's plans (ACTIVE and COMPLETED assignments) scheduled in the window"),
  completed: z.number().int().describe("Of them, done: per ISO week and training, at most the completed executions of that training started that week"),
  adherence: share,
  previousAdherence: share.describe("The same over the window before, of the same length; null when nothing was scheduled then"),
  lastTrainingAt: z.iso.datetime().nullable().describe("When the student's latest completed training execution started; null when there is none"),
  needsAttention: z.boolean().describe("Whether the trainer should look: true for a student with an ACTIVE assignment for whom some reason applies"),
  reasons: z.array(attentionReason.schema).describe("Why it needs attention, in the order LOW_ADHERENCE, DROPPING, INACTIVE_7_DAYS; empty when it does not"),
};

/** An ISO week of an adherence window. */
export const adherenceWeekSchema = z
  .object({
    weekStart: day.describe("The week's Monday"),
    scheduled: z.number().int().describe("Sessions scheduled on the window's days of that week"),
    completed: z.number().int().describe("Of them, done"),
  })
  .describe("An ISO week (Monday to Sunday, UTC) of an adherence window");

/** An assignment's share of a student's adherence. */
export const assignmentAdherenceSchema = z
  .object({
    assignmentId: z.number().int().describe("The plan assignment's id"),
    planId: z.number().int().describe("The plan's id"),
    planName: z.string().describe("The plan's name"),
    scheduled: z.number().int().describe("Sessions it scheduled in the window"),
    completed: z.number().int().describe("Of them, done"),
    adherence: share,
  })
  .describe("An assignment's share of a student's adherence: a week's done sessions of a training go to the earliest started assignment first");

/** A student's adherence with its weeks and assignments (GET /users/{id}/adherence, GraphQL User.adherence). */
export const adherenceSchema = z
  .object({
    ...summaryFields,
    weeks: z.array(adherenceWeekSchema).describe("The ISO weeks the window touches, oldest first"),
    assignments: z
      .array(assignmentAdherenceSchema)
      .describe("The ACTIVE and COMPLETED assignments scheduling days of the window, the earliest started first; they add up to the student's figures"),
  })
  .meta({
    description: "The sessions a student's weekly plans scheduled over a window of days ending today, and how many were done",
    examples: [
      {
        userId: 42,
        window: 30,
        from: "2025-02-06",
        to: "2025-03-07",
        scheduled: 13,
        completed: 10,
        adherence: 0.769,
        previousAdherence: 1,
        lastTrainingAt: "2025-03-06T21:30:00.000Z",
        needsAttention: true,
        reasons: ["DROPPING"],
        weeks: [
          { weekStart: "2025-02-03", scheduled: 1, completed: 1 },
          { weekStart: "2025-02-10", scheduled: 3, completed: 3 },
          { weekStart: "2025-02-17", scheduled: 3, completed: 2 },
          { weekStart: "2025-02-24", scheduled: 3, completed: 2 },
          { weekStart: "2025-03-03", scheduled: 3, completed: 2 },
        ],
        assignments: [{ assignmentId: 5, planId: 3, planName: "Hipertrofia ABC", scheduled: 13, completed: 10, adherence: 0.769 }],
      },
    ],
  });
export type AdherenceDto = z.output<typeof adherenceSchema>;

/** One of a trainer's students in its page of adherence (GET /personal/students/adherence). */
export const studentAdherenceSchema = z
  .object({ ...summaryFields, studentName: z.string().describe("The student's name") })
  .describe("One of a trainer's ACTIVE students and its adherence over the window (without its weeks and assignments)");
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
