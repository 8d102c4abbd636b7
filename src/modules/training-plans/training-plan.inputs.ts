import { z } from "zod";
import { entityId, isoDate, optionalFlag, optionalText, queryBoolean, queryId, requiredText } from "../../platform/validation.js";
import { DIFFICULTIES } from "../exercises/exercise.table.js";
import { ASSIGNMENT_STATUSES, DAYS_OF_WEEK, GOALS } from "./training-plan.table.js";


/** POST and PUT /training-plans. */
export const planInput = z.object({
  name: requiredText(120),
  description: requiredText(2000),
  trainings: z
    .array(
      z.object({
        trainingId: entityId,
        dayOfWeek: z.enum(DAYS_OF_WEEK),
        order: z.number().int().min(0).max(1000),
      }),
    )
    .min(1, "Informe ao menos um treino")
    .max(100),
  isPublic: optionalFlag,
  difficulty: z.enum(DIFFICULTIES).nullish(),
  goal: z.enum(GOALS).nullish(),
  duration: z.number().int().min(1).max(104).nullish(),
});
export type PlanInput = z.infer<typeof planInput>;

export const assignInput = z.object({
  studentId: entityId,
  // Null as well as absent means today (GraphQL declares the argument nullable).
  startDate: isoDate.nullish(),
  notes: optionalText(2000),
});

export const planFilter = z.object({
  name: z.string().trim().max(120).optional(),
  createdBy: queryId.optional(),
  isPublic: queryBoolean.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  goal: z.enum(GOALS).optional(),
});

export const assignmentFilter = z.object({
  studentId: queryId.optional(),
  planId: queryId.optional(),
  status: z.enum(ASSIGNMENT_STATUSES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
});
