import { z } from "zod";
import { attentionReason } from "../adherence/adherence.dto.js";
import { recordKind, recordUnit } from "../executions/execution.dto.js";

/** A record one of a trainer's students set (contract §12.1), as the dashboard lists it. */
export const recentRecordSchema = z
  .object({
    studentId: z.number().int().describe("The student's id"),
    studentName: z.string().describe("The student's name"),
    exerciseId: z.number().int().describe("The exercise's id"),
    exerciseName: z.string().describe("The exercise's name"),
    kind: recordKind.schema.describe("What the record measures"),
    value: z.number().describe("The new best, in its unit"),
    unit: recordUnit.schema.describe("What value counts: reps for MAX_REPS, kg otherwise"),
    achievedAt: z.iso.datetime().describe("When the exercise execution that set it was done"),
  })
  .describe("A record one of the trainer's students set");
export type RecentRecordDto = z.output<typeof recentRecordSchema>;

/** The trainer's dashboard (GET /personal/dashboard, GraphQL trainerDashboard): its answer's shape, read by the OpenAPI document too. */
export const trainerDashboardSchema = z
  .object({
    students: z
      .object({
        active: z.number().int().describe("The trainer's ACTIVE students"),
        limit: z
          .number()
          .int()
          .nullable()
          .describe("How many students the trainer's plan allows (ACTIVE links and PENDING invites together); null = unlimited"),
        pendingInvites: z.number().int().describe("The trainer's PENDING invites not yet expired"),
      })
      .describe("The trainer's seats"),
    assignments: z
      .object({
        pending: z.number().int().describe("Assignments of the trainer's plans still PENDING"),
        active: z.number().int().describe("Assignments of the trainer's plans ACTIVE"),
      })
      .describe("The trainer's assignments by status"),
    adherence30d: z.number().nullable().describe("The mean of the ACTIVE students' 30-day adherence that is not null (0 to 1, 3 decimals); null when none is"),
    sessionsThisWeek: z
      .object({
        scheduled: z.number().int().describe("Sessions the students' plans scheduled"),
        completed: z.number().int().describe("Of them, done"),
      })
      .describe("The ACTIVE students' sessions of this ISO week up to today"),
    needsAttention: z
      .array(
        z
          .object({
            studentId: z.number().int().describe("The student's id"),
            studentName: z.string().describe("The student's name"),
            reasons: z.array(attentionReason.schema).describe("Why, in the order LOW_ADHERENCE, DROPPING, INACTIVE_7_DAYS"),
          })
          .describe("A student who needs attention, and why"),
      )
      .describe("The ACTIVE students needing attention, the lowest 30-day adherence first"),
    recentRecords: z.array(recentRecordSchema).describe("The students' records of the last 7 days, newest first, at most 20"),
    subscription: z
      .object({
        planName: z.string().describe("The plan's name"),
        status: z.string().describe("The subscription's status: ACTIVE, CANCELED (access until endDate) or PENDING"),
        endDate: z.iso.datetime().nullable().describe("When the period paid for ends; null while none is paid (PENDING)"),
      })
      .nullable()
      .describe("The trainer's own subscription giving access, else its latest pending one; null when it has neither"),
  })
  .describe("A trainer's students, assignments, adherence, records and subscription at a glance");
export type TrainerDashboardDto = z.output<typeof trainerDashboardSchema>;
