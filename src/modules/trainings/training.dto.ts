import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import type { ExerciseDto } from "../exercises/exercise.dto.js";
import type { CreatorIncluded } from "../users/user.dto.js";

/** One exercise line of a training. */
export const trainingExerciseSchema = z
  .object({
    id: int(),
    exerciseId: int(),
    exerciseName: z.string(),
    sets: int(),
    repetitions: int().nullable(),
    weight: z.number().nullable(),
    restSeconds: int().nullable(),
    order: int().nullable(),
    notes: z.string().nullable(),
  })
  .meta({ id: "TrainingExercise" });

/** A training as REST answers it (GET /trainings/{id}). */
export const trainingSchema = z
  .object({
    id: int(),
    name: z.string(),
    description: z.string().nullable(),
    createdBy: int(),
    isPublic: z.boolean(),
    exercises: z.array(trainingExerciseSchema),
    createdAt: instant,
    updatedAt: instant,
  })
  .meta({ id: "Training" });

/** List items carry the number of exercise lines instead of the lines. */
export const trainingListItemSchema = trainingSchema.omit({ exercises: true }).extend({ exerciseCount: int() }).meta({ id: "TrainingListItem" });

export type TrainingExerciseDto = z.output<typeof trainingExerciseSchema> & {
  /** Read with the training when a GraphQL selection asks for it (TrainingInclude); absent otherwise, and in REST. */
  exercise?: ExerciseDto | null;
};
export type TrainingDto = Omit<z.output<typeof trainingSchema>, "exercises"> & { exercises: TrainingExerciseDto[] } & CreatorIncluded;
export type TrainingListItemDto = z.output<typeof trainingListItemSchema> & CreatorIncluded;
