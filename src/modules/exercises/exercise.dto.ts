import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import type { CreatorIncluded } from "../users/user.dto.js";
import { DIFFICULTIES, EQUIPMENT, EXERCISE_CATEGORIES } from "../../tables/exercise.table.js";

/** An exercise as REST answers it (GET /exercises/{id}). */
export const exerciseSchema = z
  .object({
    id: int(),
    name: z.string(),
    description: z.string(),
    category: z.enum(EXERCISE_CATEGORIES),
    imageUrl: z.string().nullable(),
    createdBy: int(),
    createdAt: instant,
    updatedAt: instant,
    isPublic: z.boolean(),
    difficulty: z.enum(DIFFICULTIES).nullable(),
    equipment: z.enum(EQUIPMENT).nullable(),
    videoUrl: z.string().nullable(),
    instructions: z.array(z.string()),
    muscleGroups: z.array(z.enum(EXERCISE_CATEGORIES)),
  })
  .meta({ id: "Exercise" });

/** List items leave out videoUrl, instructions and muscleGroups. */
export const exerciseListItemSchema = exerciseSchema.omit({ videoUrl: true, instructions: true, muscleGroups: true }).meta({ id: "ExerciseListItem" });

export type ExerciseDto = z.output<typeof exerciseSchema> & CreatorIncluded;
export type ExerciseListItemDto = z.output<typeof exerciseListItemSchema> & CreatorIncluded;
