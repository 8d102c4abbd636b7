import type { TestApp } from "../helpers/test-app.js";

/** A Set of api-spec.md: repetitions, weight (kg, optional) and completed. */
export interface SetBody {
  repetitions: number;
  weight?: number | null;
  completed: boolean;
}

/** One exercise of a training execution body. */
export interface ExerciseInTraining {
  exerciseId: number;
  sets: SetBody[];
  notes?: string;
}

/** The body of POST /trainings/{id}/execution. */
export interface TrainingExecutionBody {
  startTime: string;
  endTime: string;
  completed: boolean;
  notes?: string;
  exerciseExecutions: ExerciseInTraining[];
}

/** `count` equal sets. */
export const setsOf = (count: number, set: SetBody): SetBody[] => Array.from({ length: count }, () => ({ ...set }));

/** A training execution body from `start` lasting `seconds`, completed unless told otherwise. */
export function trainingExecutionBody(
  start: string | Date,
  seconds: number,
  exerciseExecutions: ExerciseInTraining[],
  overrides: Partial<TrainingExecutionBody> = {},
): TrainingExecutionBody {
  const startTime = new Date(start);
  return {
    startTime: startTime.toISOString(),
    endTime: new Date(startTime.getTime() + seconds * 1000).toISOString(),
    completed: true,
    exerciseExecutions,
    ...overrides,
  };
}

/** POST /trainings/{id}/execution that must succeed: the Training execution. */
export async function logTrainingExecution(t: TestApp, token: string, trainingId: number, body: TrainingExecutionBody) {
  const res = await t.post(`/api/trainings/${trainingId}/execution`, { token, body });
  if (res.status !== 201) throw new Error(`log training execution failed: ${res.status} ${res.text}`);
  return res.body;
}

/** POST /exercises/{id}/execution that must succeed (dated at the test clock): the Exercise execution. */
export async function logExerciseExecution(
  t: TestApp,
  token: string,
  exerciseId: number,
  trainingId: number,
  sets: SetBody[],
  overrides: Partial<{ duration: number; notes: string }> = {},
) {
  const res = await t.post(`/api/exercises/${exerciseId}/execution`, { token, body: { trainingId, sets, ...overrides } });
  if (res.status !== 201) throw new Error(`log exercise execution failed: ${res.status} ${res.text}`);
  return res.body;
}
