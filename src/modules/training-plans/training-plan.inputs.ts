import { z } from "zod";
import type { ListQuery, Paging } from "../../platform/paging.js";
import { entityId, filterId, isoDate, optionalFlag, optionalText, queryBoolean, requiredText } from "../../platform/validation.js";
import { difficulty } from "../exercises/exercise.dto.js";
import { ASSIGNMENT_SORTS, PLAN_SORTS } from "./training-plan.repository.js";
import { assignmentStatus, dayOfWeek, goal } from "./training-plan.dto.js";

/** A training a plan schedules, as its trainer writes it. */
export const planTrainingInput = z
  .object({
    trainingId: entityId.describe("The training to schedule: one the caller may see, else 404"),
    dayOfWeek: dayOfWeek.schema.describe("The day of the week it is done on"),
    order: z.number().int().min(0).max(1000).describe("Its order within the day (0 to 1000)"),
  })
  .describe("A training the plan schedules on a day of the week");

/** A weekly plan as its trainer creates or replaces it. */
export const planInput = z
  .object({
    name: requiredText(120).describe("Its name (1 to 120 characters)"),
    description: requiredText(2000).describe("What it is about (1 to 2000 characters)"),
    trainings: z
      .array(planTrainingInput)
      .min(1, "Informe ao menos um treino")
      .max(100)
      .describe("The trainings of its week: 1 to 100, kept in the order given"),
    isPublic: optionalFlag.describe("true: every signed-in user sees it; false (the default): its author, administrators and the students it is assigned to"),
    difficulty: difficulty.schema.nullish().describe("How experienced its student should be"),
    goal: goal.schema.nullish().describe("What it is meant to achieve"),
    duration: z.number().int().min(1).max(104).nullish().describe("How many weeks it runs (1 to 104); left out, its assignments have no endDate"),
  })
  .describe("A weekly plan as its trainer writes it; a replacement (PUT) gives every field, what it leaves out is cleared");
export type PlanInput = z.output<typeof planInput>;

/** A plan's assignment to a student: from which day, with what notes. */
export const assignInput = z
  .object({
    studentId: entityId.describe("The student to assign it to: a student (ALUNO) with an ACTIVE link to the caller"),
    // Null as well as absent means today (GraphQL declares the argument nullable).
    startDate: isoDate.nullish().describe("The plan's first day (YYYY-MM-DD); today (UTC) when left out"),
    notes: optionalText(2000).describe("Notes for the student (at most 2000 characters)"),
  })
  .describe("Whom a plan is assigned to, from which day, with what notes");
export type AssignInput = z.output<typeof assignInput>;

/** Plan listings, newest first unless another order is asked. */
export const planPaging: Paging = { sortable: Object.keys(PLAN_SORTS), fallbackSort: [{ field: "createdAt", direction: "desc" }] };

/** What a listing of the plans visible to a user is narrowed by. */
export const planFilter = z
  .object({
    name: z.string().trim().max(120).optional().describe("Only names holding this text (case-insensitive)"),
    createdBy: filterId.optional().describe("Only this author's"),
    isPublic: queryBoolean.optional().describe("Only public (true) or only private (false) ones"),
    difficulty: difficulty.schema.optional().describe("Only this difficulty"),
    goal: goal.schema.optional().describe("Only this goal"),
  })
  .describe("What narrows a listing of the plans the caller sees; fields left out do not narrow it");
export type PlanListQuery = ListQuery<z.output<typeof planFilter>>;

/** Assignment listings, latest assigned first unless another order is asked. */
export const assignmentPaging: Paging = { sortable: Object.keys(ASSIGNMENT_SORTS), fallbackSort: [{ field: "assignedAt", direction: "desc" }] };

/** What a listing of assignments is narrowed by (within what the caller may see). */
export const assignmentFilter = z
  .object({
    studentId: filterId.optional().describe("Only this student's (a student asking for another's gets none)"),
    planId: filterId.optional().describe("Only the assignments of this plan"),
    status: assignmentStatus.schema.optional().describe("Only those in this status"),
    startDate: isoDate.optional().describe("Only those not ended before this day (YYYY-MM-DD): endDate on or after it, or none"),
    endDate: isoDate.optional().describe("Only those starting on or before this day (YYYY-MM-DD)"),
  })
  .describe(
    "What narrows a listing of the assignments the caller sees (a trainer's own, a student's own, all for administrators); fields left out do not narrow it",
  );
export type AssignmentListQuery = ListQuery<z.output<typeof assignmentFilter>>;
