import { z } from "zod";
import { isoDate, optionalFlag, optionalText, queryBoolean, requiredText } from "../../platform/validation.js";
import { DIFFICULTIES } from "../exercises/exercise.table.js";
import { ASSIGNMENT_STATUSES, DAYS_OF_WEEK, GOALS } from "./training-plan.table.js";

const id = z.number().int().positive().max(2_147_483_647);
const idParam = z.string().regex(/^\d{1,10}$/).transform(Number);

/** POST and PUT /training-plans. */
export const planInput = z.object({
  name: requiredText(120),
  description: requiredText(2000),
  trainings: z
    .array(
      z.object({
        trainingId: id,
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
  studentId: id,
  startDate: isoDate.optional(),
  notes: optionalText(2000),
});

export const planFilter = z.object({
  name: z.string().trim().max(120).optional(),
  createdBy: idParam.optional(),
  isPublic: queryBoolean.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  goal: z.enum(GOALS).optional(),
});

export const assignmentFilter = z.object({
  studentId: idParam.optional(),
  planId: idParam.optional(),
  status: z.enum(ASSIGNMENT_STATUSES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
});
