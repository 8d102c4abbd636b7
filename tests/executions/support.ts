import { sql } from "drizzle-orm";
import { rowsOf } from "../helpers/database.js";
import type { TestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, trainingExecutionBody, type SetBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

export { DAY_MS } from "../../src/platform/dates.js";
export { fieldsOf, ISO, PAGE_KEYS } from "../helpers/shapes.js";

export const DENIED = { message: "Acesso negado", success: false };
export const TRAINING_NOT_FOUND = { message: "Treino não encontrado", success: false };
export const EXERCISE_NOT_FOUND = { message: "Exercício não encontrado", success: false };
export const EXECUTION_NOT_FOUND = { message: "Execução não encontrada", success: false };
export const USER_NOT_FOUND = { message: "Usuário não encontrado", success: false };
export const UNAUTHORIZED = { message: "Token inválido ou expirado", success: false };
export const invalidParameter = (name: string) => ({ message: `Parâmetro inválido: ${name}`, success: false });

/**
 * A trainer with an ACTIVE link to a student, three exercises and two trainings of the trainer
 * (A: supino + remada; B: agachamento + supino) in one plan assigned to the student (PENDING unless `accept`).
 */
export interface Scene {
  trainer: MadeUser;
  student: MadeUser;
  linkId: number;
  supino: Record<string, any>;
  remada: Record<string, any>;
  agachamento: Record<string, any>;
  trainingA: Record<string, any>;
  trainingB: Record<string, any>;
  plan: Record<string, any>;
  assignment: Record<string, any>;
}

export async function makeScene(t: TestApp, options: { accept?: boolean } = {}): Promise<Scene> {
  const trainer = await makeTrainer(t, { name: "Bruno Personal" });
  const student = await makeStudent(t, { name: "Ana Aluna" });
  const supino = await createExercise(t, trainer.token, { name: "Supino reto", category: "PEITO" });
  const remada = await createExercise(t, trainer.token, { name: "Remada curvada", category: "COSTAS" });
  const agachamento = await createExercise(t, trainer.token, { name: "Agachamento livre", category: "PERNAS" });
  const trainingA = await createTraining(t, trainer.token, [supino.id, remada.id], { name: "Treino A" });
  const trainingB = await createTraining(t, trainer.token, [agachamento.id, supino.id], { name: "Treino B" });
  const linkId = await linkTrainerAndStudent(t, trainer, student);
  const plan = await createPlan(t, trainer.token, [trainingA.id, trainingB.id], { name: "Hipertrofia" });
  let assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  if (options.accept) assignment = await moveAssignment(t, student.token, assignment.id, "accept");
  return { trainer, student, linkId, supino, remada, agachamento, trainingA, trainingB, plan, assignment };
}

/** A logging answer as reads give the execution back: without the records the log set (contract §12.1). */
export function asRead<T extends { newRecords?: unknown }>(logged: T): Omit<T, "newRecords"> {
  const { newRecords: _newRecords, ...execution } = logged;
  return execution;
}

/** Rows of the three execution tables. */
export async function executionCounts(t: TestApp) {
  const [row] = rowsOf<{ trainings: number; exercises: number; sets: number }>(
    await t.db.execute(sql`select (select count(*)::int from training_executions) as trainings,
      (select count(*)::int from exercise_executions) as exercises, (select count(*)::int from execution_sets) as sets`),
  );
  return row;
}

// ---- Hand arithmetic in integer hundredths of a kilogram, so the expectations never drift either. ----

/** kg → integer hundredths. */
export const cents = (kg: number) => Math.round(kg * 100);
/** integer hundredths → kg. */
export const kg = (hundredths: number) => hundredths / 100;

interface SetLike {
  repetitions: number;
  weight?: number | null;
  completed: boolean;
}

/** The figures contract §7 defines over some sets: completed sets only; volume Σ reps × weight (no weight 0). */
export function figures(sets: SetLike[]) {
  const done = sets.filter((set) => set.completed);
  const weighted = done.filter((set) => set.weight !== null && set.weight !== undefined);
  const volume = done.reduce((sum, set) => sum + set.repetitions * cents(set.weight ?? 0), 0);
  const weightSum = weighted.reduce((sum, set) => sum + cents(set.weight!), 0);
  const max = weighted.length === 0 ? null : Math.max(...weighted.map((set) => cents(set.weight!)));
  // Epley w × (1 + r/30) = w × (30 + r) / 30, in hundredths rounded half up, over sets of 1 to 12 repetitions; one
  // repetition gives the weight itself (contract §7).
  const estimates = weighted
    .filter((set) => set.repetitions >= 1 && set.repetitions <= 12)
    .map((set) => (set.repetitions === 1 ? cents(set.weight!) : Math.floor((cents(set.weight!) * (30 + set.repetitions) * 2 + 30) / 60)));
  const oneRepMax = estimates.length === 0 ? null : Math.max(...estimates);
  return {
    totalSets: done.length,
    totalReps: done.reduce((sum, set) => sum + set.repetitions, 0),
    volumeCents: volume,
    weightSumCents: weightSum,
    weightedSets: weighted.length,
    maxWeightCents: max,
    oneRepMaxCents: oneRepMax,
  };
}

/** A set as sent (completed unless said). */
export const set = (repetitions: number, weight: number | null, completed = true): SetBody => ({ repetitions, weight, completed });

/**
 * Steps of a logged history among `scene()`'s people (read when a step runs): an exercise logged on its own at `date`
 * (the clock set to it; the student's supino unless said), or a session of training B started at `start`.
 */
export function historySteps(t: TestApp, scene: () => Scene) {
  return {
    alone:
      (date: string, sets: SetBody[], options: { exerciseId?: number; user?: MadeUser } = {}) =>
      async () => {
        const s = scene();
        t.clock.set(new Date(date));
        await logExerciseExecution(t, (options.user ?? s.student).token, options.exerciseId ?? s.supino.id, s.trainingA.id, sets);
      },
    training: (start: string, exercises: { exerciseId: number; sets: SetBody[] }[], user?: MadeUser) => async () => {
      const s = scene();
      await logTrainingExecution(t, (user ?? s.student).token, s.trainingB.id, trainingExecutionBody(start, 1800, exercises));
    },
  };
}
