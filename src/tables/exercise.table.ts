import { sql } from "drizzle-orm";
import { boolean, check, index, integer, jsonb, pgTable, serial, text, varchar } from "drizzle-orm/pg-core";
import { createdAt, oneOf, updatedAt } from "../platform/db/columns.js";
import { users } from "./user.table.js";

/** The ten categories, in the order the API lists them. */
export const EXERCISE_CATEGORIES = ["PEITO", "COSTAS", "OMBRO", "BICEPS", "TRICEPS", "PERNAS", "ABDOMEN", "GLUTEOS", "CARDIO", "OUTRO"] as const;
export type ExerciseCategory = (typeof EXERCISE_CATEGORIES)[number];
export const DIFFICULTIES = ["INICIANTE", "INTERMEDIARIO", "AVANCADO"] as const;
export type Difficulty = (typeof DIFFICULTIES)[number];
export const EQUIPMENT = ["BARRA", "HALTERES", "MAQUINA", "CABO", "PESO_CORPORAL", "OUTRO"] as const;
export type Equipment = (typeof EQUIPMENT)[number];

export const exercises = pgTable(
  "exercises",
  {
    id: serial("id").primaryKey(),
    name: varchar("name", { length: 120 }).notNull(),
    description: varchar("description", { length: 2000 }).notNull(),
    category: text("category").$type<ExerciseCategory>().notNull(),
    imageUrl: text("image_url"),
    /** Bumped each time the image is replaced; the URL carries it as `?v=<n>` so caches refetch. */
    imageVersion: integer("image_version").notNull().default(0),
    createdBy: integer("created_by")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    isPublic: boolean("is_public").notNull().default(false),
    difficulty: text("difficulty").$type<Difficulty>(),
    equipment: text("equipment").$type<Equipment>(),
    videoUrl: varchar("video_url", { length: 2048 }),
    instructions: jsonb("instructions")
      .$type<string[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    muscleGroups: jsonb("muscle_groups")
      .$type<ExerciseCategory[]>()
      .notNull()
      .default(sql`'[]'::jsonb`),
    createdAt: createdAt(),
    updatedAt: updatedAt(),
  },
  (t) => [
    index("exercises_created_by_idx").on(t.createdBy),
    index("exercises_public_category_idx").on(t.isPublic, t.category),
    check("exercises_category_check", sql`${t.category} in (${oneOf(EXERCISE_CATEGORIES)})`),
    check("exercises_difficulty_check", sql`${t.difficulty} in (${oneOf(DIFFICULTIES)})`),
    check("exercises_equipment_check", sql`${t.equipment} in (${oneOf(EQUIPMENT)})`),
  ],
);
