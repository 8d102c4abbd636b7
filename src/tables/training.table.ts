import { sql } from "drizzle-orm";
import { boolean, check, index, integer, numeric, pgTable, serial, varchar } from "drizzle-orm/pg-core";
import { createdAt, updatedAt } from "../platform/db/columns.js";
import { exercises } from "./exercise.table.js";
import { users } from "./user.table.js";

export const trainings = pgTable(
  "trainings",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 120 }).notNull(),
    description: varchar("description", { length: 2000 }),
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isPublic: boolean("is_public").notNull().default(false),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [index("trainings_created_by_idx").on(t.createdBy), index("trainings_public_idx").on(t.isPublic)],
);

/** The exercises of a training, in the order they were sent. */
export const trainingExercises = pgTable(
  "training_exercises",
  {
    id: serial("id").primaryKey(),
    trainingId: integer("training_id")
      .notNull()
      .references(() => trainings.id, { onDelete: "cascade" }),
    // An exercise in use cannot be deleted (409), so no cascade here.
    exerciseId: integer("exercise_id")
      .notNull()
      .references(() => exercises.id, { onDelete: "restrict" }),
    position: integer("position").notNull(),
    sets: integer("sets").notNull(),
    repetitions: integer("repetitions"),
    weightKg: numeric("weight_kg", { precision: 6, scale: 2, mode: "number" }),
    restSeconds: integer("rest_seconds"),
    order: integer("order"),
    notes: varchar("notes", { length: 2000 }),
  },
  (t) => [
    index("training_exercises_training_idx").on(t.trainingId, t.position),
    index("training_exercises_exercise_idx").on(t.exerciseId),
    check("training_exercises_sets_check", sql`${t.sets} between 1 and 50`),
  ],
);
