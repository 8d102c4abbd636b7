import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { enumeration } from "../../platform/enumeration.js";
import { DIFFICULTIES, EQUIPMENT, EXERCISE_CATEGORIES } from "../../tables/exercise.table.js";

export const exerciseCategory = enumeration(EXERCISE_CATEGORIES, {
  name: "ExerciseCategory",
  description: "The body part or kind of work an exercise trains (the names are the Portuguese ones the apps show)",
  meanings: {
    PEITO: "Chest",
    COSTAS: "Back",
    OMBRO: "Shoulders",
    BICEPS: "Biceps",
    TRICEPS: "Triceps",
    PERNAS: "Legs",
    ABDOMEN: "Abdomen (core)",
    GLUTEOS: "Glutes",
    CARDIO: "Cardio (conditioning)",
    OUTRO: "Anything else",
  },
});

export const difficulty = enumeration(DIFFICULTIES, {
  name: "Difficulty",
  description: "How experienced a student should be to do an exercise or follow a plan",
  meanings: { INICIANTE: "Beginner", INTERMEDIARIO: "Intermediate", AVANCADO: "Advanced" },
});

export const equipment = enumeration(EQUIPMENT, {
  name: "Equipment",
  description: "What an exercise is done with",
  meanings: {
    BARRA: "A barbell",
    HALTERES: "Dumbbells",
    MAQUINA: "A machine",
    CABO: "A cable station",
    PESO_CORPORAL: "Body weight only",
    OUTRO: "Anything else",
  },
});

/** An exercise as REST answers it (GET /exercises/{id}). */
export const exerciseSchema = z
  .object({
    id: int().describe("The exercise's id"),
    name: z.string().describe("Its name, unique to its author"),
    description: z.string().describe("How it is done, in the author's words"),
    category: exerciseCategory.schema.describe("The body part it trains most"),
    imageUrl: z.string().nullable().describe("Its picture's address (GET it with no token), or null before one is uploaded"),
    createdBy: int().describe("The id of the trainer who wrote it"),
    createdAt: instant.describe("When it was created"),
    updatedAt: instant.describe("When it was last changed"),
    isPublic: z.boolean().describe("true: every user sees it; false: its author and the author's students only"),
    difficulty: difficulty.schema.nullable().describe("How hard it is, when the author says"),
    equipment: equipment.schema.nullable().describe("What it is done with, when the author says"),
    videoUrl: z.string().nullable().describe("A video showing it (http or https), when the author gives one"),
    instructions: z.array(z.string()).describe("Its steps, in order"),
    muscleGroups: z.array(exerciseCategory.schema).describe("Every body part it works, beyond its category"),
  })
  .meta({ id: "Exercise", description: "An exercise of the library: written by a trainer, public or kept for the trainer's students" });

/** List items leave out videoUrl, instructions and muscleGroups. */
export const exerciseListItemSchema = exerciseSchema
  .omit({ videoUrl: true, instructions: true, muscleGroups: true })
  .meta({ id: "ExerciseListItem", description: "An exercise as listings show it: without its video, instructions and muscle groups" });

export type ExerciseDto = z.output<typeof exerciseSchema> & CreatorIncluded;
export type ExerciseListItemDto = z.output<typeof exerciseListItemSchema> & CreatorIncluded;
