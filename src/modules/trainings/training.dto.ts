import { z } from "zod";
import { instant, int } from "../../platform/answer-fields.js";
import type { ExerciseDto } from "../exercises/exercise.dto.js";
import type { CreatorIncluded } from "../users/user.dto.js";

/** One exercise line of a training. */
export const trainingExerciseSchema = z
  .object({
    id: int().describe("The id of this line of the training"),
    exerciseId: int().describe("The id of the exercise done"),
    exerciseName: z.string().describe("The exercise's name"),
    sets: int().describe("How many sets (1 to 50)"),
    repetitions: int().nullable().describe("Repetitions per set, or null when the author gives none"),
    weight: z.number().nullable().describe("The weight to lift, in kg (at most two decimals), or null"),
    restSeconds: int().nullable().describe("The rest between sets, in seconds, or null"),
    order: int().nullable().describe("The author's own ordering number (0 to 1000), or null; lines are answered in the order they were written"),
    notes: z.string().nullable().describe("The author's notes on this line, or null"),
  })
  .meta({ id: "TrainingExercise", description: "An exercise line of a training: which exercise, how many sets and repetitions, at what weight" });

/** A training as REST answers it (GET /trainings/{id}). */
export const trainingSchema = z
  .object({
    id: int().describe("The training's id"),
    name: z.string().describe("Its name"),
    description: z.string().nullable().describe("What it is about, in the author's words, or null"),
    createdBy: int().describe("The id of the user who wrote it (a trainer or a student)"),
    isPublic: z
      .boolean()
      .describe(
        "true: every user sees it; false: its author, administrators, the trainer ACTIVE-linked to its student author, and students whose PENDING or ACTIVE assignment schedules it",
      ),
    exercises: z.array(trainingExerciseSchema).describe("Its exercise lines, in the order they were written"),
    createdAt: instant.describe("When it was created"),
    updatedAt: instant.describe("When it was last changed"),
  })
  .meta({
    id: "Training",
    description: "A training: a named, ordered list of exercise lines that plans schedule and students execute",
    examples: [
      {
        id: 11,
        name: "Treino A: peito e tríceps",
        description: "Foco em carga progressiva",
        createdBy: 3,
        isPublic: false,
        exercises: [
          { id: 41, exerciseId: 5, exerciseName: "Supino reto", sets: 4, repetitions: 10, weight: 60, restSeconds: 90, order: 1, notes: null },
          {
            id: 42,
            exerciseId: 9,
            exerciseName: "Tríceps na polia",
            sets: 3,
            repetitions: 12,
            weight: 25.5,
            restSeconds: 60,
            order: 2,
            notes: "Cotovelos fixos",
          },
        ],
        createdAt: "2025-03-01T12:00:00.000Z",
        updatedAt: "2025-03-01T12:00:00.000Z",
      },
    ],
  });

/** List items carry the number of exercise lines instead of the lines. */
export const trainingListItemSchema = trainingSchema
  .omit({ exercises: true })
  .extend({ exerciseCount: int().describe("How many exercise lines it has") })
  .meta({ id: "TrainingListItem", description: "A training as listings show it: the number of its exercise lines in place of the lines" });

export type TrainingExerciseDto = z.output<typeof trainingExerciseSchema> & {
  /** Read with the training when a GraphQL selection asks for it (TrainingInclude); absent otherwise, and in REST. */
  exercise?: ExerciseDto | null;
};
export type TrainingDto = Omit<z.output<typeof trainingSchema>, "exercises"> & { exercises: TrainingExerciseDto[] } & CreatorIncluded;
export type TrainingListItemDto = z.output<typeof trainingListItemSchema> & CreatorIncluded;
