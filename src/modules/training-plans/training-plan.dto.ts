import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { DIFFICULTIES } from "../../tables/exercise.table.js";
import type { TrainingDto } from "../trainings/training.dto.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { ASSIGNMENT_STATUSES, DAYS_OF_WEEK, GOALS } from "../../tables/training-plan.table.js";

/** A training a plan schedules on a day of the week. */
export const planTrainingSchema = z
  .object({ id: int(), trainingId: int(), trainingName: z.string(), dayOfWeek: z.enum(DAYS_OF_WEEK), order: int() })
  .meta({ id: "PlanTraining" });

/** A weekly plan as REST answers it (GET /training-plans/{id}). */
export const trainingPlanSchema = z
  .object({
    id: int(),
    name: z.string(),
    description: z.string(),
    createdBy: int(),
    createdAt: instant,
    updatedAt: instant,
    trainings: z.array(planTrainingSchema),
    isPublic: z.boolean(),
    difficulty: z.enum(DIFFICULTIES).nullable(),
    goal: z.enum(GOALS).nullable(),
    duration: int().nullable().describe("weeks"),
  })
  .meta({ id: "TrainingPlan" });

/** A plan assigned to a student (contract §5). */
export const planAssignmentSchema = z
  .object({
    id: int(),
    planId: int(),
    planName: z.string(),
    studentId: int(),
    studentName: z.string(),
    personalId: int(),
    personalName: z.string(),
    assignedAt: instant,
    startDate: day,
    endDate: day.nullable(),
    status: z.enum(ASSIGNMENT_STATUSES),
    notes: z.string().nullable(),
  })
  .meta({ id: "PlanAssignment" });

export type PlanTrainingDto = z.output<typeof planTrainingSchema> & {
  /** Read with the plan when a GraphQL selection asks for it (PlanInclude); null when not visible, absent otherwise (and in REST). */
  training?: TrainingDto | null;
};
export type TrainingPlanDto = Omit<z.output<typeof trainingPlanSchema>, "trainings"> & { trainings: PlanTrainingDto[] } & CreatorIncluded;
export type PlanAssignmentDto = z.output<typeof planAssignmentSchema>;
