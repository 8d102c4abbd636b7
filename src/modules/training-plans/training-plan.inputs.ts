import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, isoDate, optionalFlag, optionalText, queryBoolean, requiredText } from "../../platform/validation.js";
import { DIFFICULTIES } from "../../tables/exercise.table.js";
import { ASSIGNMENT_SORTS, PLAN_SORTS } from "./training-plan.repository.js";
import { ASSIGNMENT_STATUSES, DAYS_OF_WEEK, GOALS } from "../../tables/training-plan.table.js";

/** A weekly plan as its trainer creates or replaces it. */
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
export type PlanInput = z.output<typeof planInput>;

/** A plan's assignment to a student: from which day, with what notes. */
export const assignInput = z.object({
  studentId: entityId,
  // Null as well as absent means today (GraphQL declares the argument nullable).
  startDate: isoDate.nullish(),
  notes: optionalText(2000),
});
export type AssignInput = z.output<typeof assignInput>;

/** Plan listings, newest first unless another order is asked. */
export const planPaging: Paging = { sortable: Object.keys(PLAN_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };

/** What a listing of the plans visible to a user is narrowed by. */
export const planFilter = z.object({
  name: z.string().trim().max(120).optional(),
  createdBy: filterId.optional(),
  isPublic: queryBoolean.optional(),
  difficulty: z.enum(DIFFICULTIES).optional(),
  goal: z.enum(GOALS).optional(),
});
export type PlanListQuery = ListQuery<z.output<typeof planFilter>>;

/** Assignment listings, latest assigned first unless another order is asked. */
export const assignmentPaging: Paging = { sortable: Object.keys(ASSIGNMENT_SORTS), fallbackSort: [{ field: "assignedAt", direction: "desc" }] };

/** What a listing of assignments is narrowed by (within what the caller may see). */
export const assignmentFilter = z.object({
  studentId: filterId.optional(),
  planId: filterId.optional(),
  status: z.enum(ASSIGNMENT_STATUSES).optional(),
  startDate: isoDate.optional(),
  endDate: isoDate.optional(),
});
export type AssignmentListQuery = ListQuery<z.output<typeof assignmentFilter>>;
