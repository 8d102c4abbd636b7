import { z } from "zod";
import { ATTENTION_REASONS } from "../adherence/adherence.dto.js";
import { RECORD_KINDS } from "../../tables/records.table.js";

/** A record one of a trainer's students set (contract §12.1), as the dashboard lists it. */
export const recentRecordSchema = z.object({
  studentId: z.number().int(),
  studentName: z.string(),
  exerciseId: z.number().int(),
  exerciseName: z.string(),
  kind: z.enum(RECORD_KINDS),
  value: z.number(),
  unit: z.enum(["kg", "reps"]),
  achievedAt: z.iso.datetime(),
});
export type RecentRecordDto = z.output<typeof recentRecordSchema>;

/** The trainer's dashboard (GET /personal/dashboard, GraphQL trainerDashboard): its answer's shape, read by the OpenAPI document too. */
export const trainerDashboardSchema = z.object({
  students: z.object({
    active: z.number().int().describe("ACTIVE students"),
    limit: z.number().int().nullable().describe("the seat limit of the trainer's plan; null = unlimited"),
    pendingInvites: z.number().int().describe("PENDING invites not yet expired"),
  }),
  assignments: z.object({ pending: z.number().int(), active: z.number().int() }).describe("the trainer's assignments by status"),
  adherence30d: z.number().nullable().describe("the mean of the ACTIVE students' 30-day adherence that is not null (3 decimals); null when none is"),
  sessionsThisWeek: z
    .object({ scheduled: z.number().int(), completed: z.number().int() })
    .describe("the ACTIVE students' sessions of this ISO week up to today"),
  needsAttention: z
    .array(z.object({ studentId: z.number().int(), studentName: z.string(), reasons: z.array(z.enum(ATTENTION_REASONS)) }))
    .describe("the ACTIVE students needing attention, the lowest 30-day adherence first"),
  recentRecords: z.array(recentRecordSchema).describe("the students' records of the last 7 days, newest first, at most 20"),
  subscription: z
    .object({ planName: z.string(), status: z.string(), endDate: z.iso.datetime().nullable() })
    .nullable()
    .describe("the trainer's own subscription giving access, else its latest pending one"),
});
export type TrainerDashboardDto = z.output<typeof trainerDashboardSchema>;
