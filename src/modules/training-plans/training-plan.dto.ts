import { z } from "zod";
import { day, instant, int } from "../../platform/answer-fields.js";
import { enumeration } from "../../platform/enumeration.js";
import { difficulty } from "../exercises/exercise.dto.js";
import type { TrainingDto } from "../trainings/training.dto.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { ASSIGNMENT_STATUSES, DAYS_OF_WEEK, GOALS } from "../../tables/training-plan.table.js";

export const goal = enumeration(GOALS, {
  name: "Goal",
  description: "What a training plan is meant to achieve",
  meanings: {
    HIPERTROFIA: "Muscle growth (hypertrophy)",
    EMAGRECIMENTO: "Weight loss",
    RESISTENCIA: "Endurance",
    FORCA: "Strength",
    OUTRO: "Anything else",
  },
});

export const dayOfWeek = enumeration(DAYS_OF_WEEK, {
  name: "DayOfWeek",
  description: "A day of the week a plan schedules a training on",
  meanings: {
    MONDAY: "Monday",
    TUESDAY: "Tuesday",
    WEDNESDAY: "Wednesday",
    THURSDAY: "Thursday",
    FRIDAY: "Friday",
    SATURDAY: "Saturday",
    SUNDAY: "Sunday",
  },
});

export const assignmentStatus = enumeration(ASSIGNMENT_STATUSES, {
  name: "AssignmentStatus",
  description: "Where a plan assignment stands: PENDING → ACTIVE → COMPLETED, or CANCELED from PENDING or ACTIVE",
  meanings: {
    PENDING: "Assigned, waiting for the student to accept; the student already sees and may execute the plan's trainings",
    ACTIVE: "Accepted by the student: the plan runs and its sessions count for adherence",
    COMPLETED: "Finished: completed by its trainer, or by the daily job once its endDate has passed",
    CANCELED: "Canceled by its trainer or its student before it finished",
  },
});

/** A training a plan schedules on a day of the week. */
export const planTrainingSchema = z
  .object({
    id: int().describe("The id of this entry of the plan"),
    trainingId: int().describe("The id of the training scheduled"),
    trainingName: z.string().describe("The training's name"),
    dayOfWeek: dayOfWeek.schema.describe("The day of the week it is done on"),
    order: int().describe("Its order within the day, as the author numbered it (0 to 1000)"),
  })
  .meta({ id: "PlanTraining", description: "A training a plan schedules on a day of the week" });

/** A weekly plan as REST answers it (GET /training-plans/{id}). */
export const trainingPlanSchema = z
  .object({
    id: int().describe("The plan's id"),
    name: z.string().describe("Its name"),
    description: z.string().describe("What it is about, in the author's words"),
    createdBy: int().describe("The id of the trainer who wrote it"),
    createdAt: instant.describe("When it was created"),
    updatedAt: instant.describe("When it was last changed"),
    trainings: z.array(planTrainingSchema).describe("The trainings of its week, in the order the author gave them"),
    isPublic: z.boolean().describe("true: every signed-in user sees it; false: its author, administrators and the students it was assigned to only"),
    difficulty: difficulty.schema.nullable().describe("How experienced its student should be, when the author says"),
    goal: goal.schema.nullable().describe("What it is meant to achieve, when the author says"),
    duration: int().nullable().describe("How many weeks it runs (1 to 104), or null when open-ended: an assignment's endDate follows from it"),
  })
  .meta({
    id: "TrainingPlan",
    description: "A weekly training plan: trainings a trainer schedules on days of the week, to assign to students",
    examples: [
      {
        id: 7,
        name: "Hipertrofia 4x",
        description: "Quatro treinos por semana, divisão ABCD",
        createdBy: 3,
        createdAt: "2025-03-01T12:00:00.000Z",
        updatedAt: "2025-03-02T09:30:00.000Z",
        trainings: [
          { id: 21, trainingId: 11, trainingName: "Treino A: peito e tríceps", dayOfWeek: "MONDAY", order: 0 },
          { id: 22, trainingId: 12, trainingName: "Treino B: costas e bíceps", dayOfWeek: "TUESDAY", order: 0 },
        ],
        isPublic: false,
        difficulty: "INTERMEDIARIO",
        goal: "HIPERTROFIA",
        duration: 8,
      },
    ],
  });

/** A plan assigned to a student (contract §5). */
export const planAssignmentSchema = z
  .object({
    id: int().describe("The assignment's id"),
    planId: int().describe("The id of the plan assigned: the assigning trainer's own (another trainer's plan is assigned as a private copy)"),
    planName: z.string().describe("The plan's name"),
    studentId: int().describe("The id of the student it was assigned to"),
    studentName: z.string().describe("The student's name"),
    personalId: int().describe("The id of the trainer who assigned it"),
    personalName: z.string().describe("The trainer's name"),
    assignedAt: instant.describe("When it was assigned"),
    startDate: day.describe("The first day of the plan (YYYY-MM-DD): the day the trainer gave, or the day (UTC) it was assigned"),
    endDate: day
      .nullable()
      .describe("Its last day (YYYY-MM-DD): startDate plus the plan's duration in weeks, less one day; null when the plan has no duration"),
    status: assignmentStatus.schema.describe("Where it stands"),
    notes: z.string().nullable().describe("The trainer's notes for the student, or null"),
  })
  .meta({ id: "PlanAssignment", description: "A training plan a trainer assigned to a linked student, and where it stands" });

export type PlanTrainingDto = z.output<typeof planTrainingSchema> & {
  /** Read with the plan when a GraphQL selection asks for it (PlanInclude); null when not visible, absent otherwise (and in REST). */
  training?: TrainingDto | null;
};
export type TrainingPlanDto = Omit<z.output<typeof trainingPlanSchema>, "trainings"> & { trainings: PlanTrainingDto[] } & CreatorIncluded;
export type PlanAssignmentDto = z.output<typeof planAssignmentSchema>;
