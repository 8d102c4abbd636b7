import { sql } from "drizzle-orm";
import { boolean, check, date, index, integer, pgTable, serial, text, varchar } from "drizzle-orm/pg-core";
import { createdAt, instant, oneOf, updatedAt } from "../platform/db/columns.js";
import { DIFFICULTIES, type Difficulty } from "./exercise.table.js";
import { trainings } from "./training.table.js";
import { users } from "./user.table.js";

export const GOALS = ["HIPERTROFIA", "EMAGRECIMENTO", "RESISTENCIA", "FORCA", "OUTRO"] as const;
export type Goal = (typeof GOALS)[number];
export const DAYS_OF_WEEK = ["MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY", "SATURDAY", "SUNDAY"] as const;
export type DayOfWeek = (typeof DAYS_OF_WEEK)[number];
export const ASSIGNMENT_STATUSES = ["PENDING", "ACTIVE", "COMPLETED", "CANCELED"] as const;
/** The states in which an assignment gives its student the plan's trainings. */
export const LIVE_ASSIGNMENT_STATUSES = ["PENDING", "ACTIVE"] as const satisfies readonly (typeof ASSIGNMENT_STATUSES)[number][];
/** The states in which an assignment's plan schedules sessions its student is held to (contract §12.2). */
export const SCHEDULING_ASSIGNMENT_STATUSES = ["ACTIVE", "COMPLETED"] as const satisfies readonly (typeof ASSIGNMENT_STATUSES)[number][];
export type AssignmentStatus = (typeof ASSIGNMENT_STATUSES)[number];

export const trainingPlans = pgTable(
  "training_plans",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 120 }).notNull(),
    description: varchar("description", { length: 2000 }).notNull(),
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isPublic: boolean("is_public").notNull().default(false),
    difficulty: text("difficulty").$type<Difficulty>(),
    goal: text("goal").$type<Goal>(),
    durationWeeks: integer("duration_weeks"),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("training_plans_created_by_idx").on(t.createdBy),
    index("training_plans_public_idx").on(t.isPublic),
    check("training_plans_difficulty_check", sql`${t.difficulty} in (${oneOf(DIFFICULTIES)})`),
    check("training_plans_goal_check", sql`${t.goal} in (${oneOf(GOALS)})`),
    check("training_plans_duration_check", sql`${t.durationWeeks} between 1 and 104`),
  ],
);

/** The trainings of a plan's week. */
export const planTrainings = pgTable(
  "plan_trainings",
  {
    id: serial("id").primaryKey(),
    planId: integer("plan_id")
      .notNull()
      .references(() => trainingPlans.id, { onDelete: "cascade" }),
    // A training in a plan cannot be deleted (409).
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id, { onDelete: "restrict" }),
    dayOfWeek: text("day_of_week").$type<DayOfWeek>().notNull(),
    order: integer("order").notNull(),
    position: integer("position").notNull(),
  },
  (t) => [
    index("plan_trainings_plan_idx").on(t.planId, t.position),
    index("plan_trainings_training_idx").on(t.trainingId),
    check("plan_trainings_day_check", sql`${t.dayOfWeek} in (${oneOf(DAYS_OF_WEEK)})`),
  ],
);

export const planAssignments = pgTable(
  "plan_assignments",
  {
    id: serial("id").primaryKey(),
    // A plan with PENDING or ACTIVE assignments cannot be deleted (409, checked by the service); finished
    // assignments go with their plan.
    planId: integer("plan_id")
      .notNull()
      .references(() => trainingPlans.id, { onDelete: "cascade" }),
    studentId: integer("student_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    personalId: integer("personal_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    status: text("status").$type<AssignmentStatus>().notNull().default("PENDING"),
    assignedAt: instant("assigned_at").notNull(),
    startDate: date("start_date", { mode: "string" }).notNull(),
    endDate: date("end_date", { mode: "string" }),
    notes: varchar("notes", { length: 2000 }),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("plan_assignments_student_idx").on(t.studentId, t.status),
    index("plan_assignments_personal_idx").on(t.personalId, t.assignedAt),
    index("plan_assignments_plan_idx").on(t.planId, t.status),
    index("plan_assignments_active_end_idx")
      .on(t.endDate)
      .where(sql`${t.status} = 'ACTIVE'`),
    check("plan_assignments_status_check", sql`${t.status} in (${oneOf(ASSIGNMENT_STATUSES)})`),
  ],
);
