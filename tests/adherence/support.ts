import { expect } from "vitest";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { logTrainingExecution, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import { subscribe } from "../coaching/support.js";
import type { TestApp } from "../helpers/test-app.js";

export { DAY_MS } from "../../src/platform/dates.js";

export const DENIED = { message: "Acesso negado", success: false };
export const USER_NOT_FOUND = { message: "Usuário não encontrado", success: false };
export const UNAUTHORIZED = { message: "Token inválido ou expirado", success: false };
export const TRAINERS_ONLY = { message: "Apenas personal trainers podem acessar este recurso", success: false };
export const invalidParameter = (name: string) => ({ message: `Parâmetro inválido: ${name}`, success: false });

/** The fields of a student's adherence summary (GET /users/{id}/adherence adds weeks and assignments). */
export const SUMMARY_KEYS = [
  "userId",
  "window",
  "from",
  "to",
  "scheduled",
  "completed",
  "adherence",
  "previousAdherence",
  "lastTrainingAt",
  "needsAttention",
  "reasons",
];

export type Day = "MONDAY" | "TUESDAY" | "WEDNESDAY" | "THURSDAY" | "FRIDAY" | "SATURDAY" | "SUNDAY";

/** A trainer's content: one exercise and trainings of it, made once per scene. */
export interface Gym {
  trainer: MadeUser;
  exerciseId: number;
  /** Training ids by the letter they are named with. */
  trainings: Record<string, number>;
}

/** A trainer with one exercise and a training of it per letter ("Treino A", …). */
export async function gymOf(t: TestApp, trainer: MadeUser, letters: string[]): Promise<Gym> {
  const exercise = await createExercise(t, trainer.token, { name: "Supino reto" });
  const trainings: Record<string, number> = {};
  for (const letter of letters) trainings[letter] = (await createTraining(t, trainer.token, [exercise.id], { name: `Treino ${letter}` })).id;
  return { trainer, exerciseId: exercise.id, trainings };
}

/** A weekly plan of the gym's trainer: each line a training letter on a day; `durationWeeks` gives its assignments an end. */
export async function weeklyPlan(t: TestApp, gym: Gym, lines: [string, Day][], overrides: Record<string, unknown> = {}) {
  return createPlan(t, gym.trainer.token, [], {
    trainings: lines.map(([letter, dayOfWeek], order) => ({ trainingId: gym.trainings[letter], dayOfWeek, order })),
    ...overrides,
  });
}

/** Links the student to the gym's trainer (invite and accept). */
export function link(t: TestApp, gym: Gym, student: MadeUser): Promise<number> {
  return linkTrainerAndStudent(t, gym.trainer, student);
}

/** An assignment of the plan to the student from `startDate`, accepted (ACTIVE) unless `accept` is false; its id. */
export async function assigned(t: TestApp, gym: Gym, planId: number, student: MadeUser, startDate: string, accept = true): Promise<number> {
  const assignment = await assignPlan(t, gym.trainer.token, planId, student.id, { startDate });
  if (accept) await moveAssignment(t, student.token, assignment.id, "accept");
  return assignment.id;
}

/**
 * The student logs a session of the gym's training `letter` started at `start` (an hour long): one set of 10 at 40 kg
 * unless another weight is given, completed unless told.
 */
export async function trained(
  t: TestApp,
  gym: Gym,
  student: MadeUser,
  letter: string,
  start: string,
  options: { completed?: boolean; weight?: number } = {},
): Promise<void> {
  const { completed = true, weight = 40 } = options;
  await logTrainingExecution(
    t,
    student.token,
    gym.trainings[letter],
    trainingExecutionBody(start, 3600, [{ exerciseId: gym.exerciseId, sets: [{ repetitions: 10, weight, completed: true }] }], { completed }),
  );
}

/** GET /users/{id}/adherence that must succeed. */
export async function adherenceOf(t: TestApp, reader: MadeUser, userId: number, window?: number) {
  const res = await t.get(`/api/users/${userId}/adherence${window === undefined ? "" : `?window=${window}`}`, { token: reader.token });
  if (res.status !== 200) throw new Error(`adherence failed: ${res.status} ${res.text}`);
  return res.body;
}

/**
 * Sunday 2025-01-19, a trainer on the Básico plan (5 seats) with four ACTIVE students, one invite waiting, and a former
 * student. The plan schedules A on Monday and Thursday; from Monday 01-06 that is 01-06, 01-09, 01-13, 01-16:
 * - Bruno: A on 01-06 → 1/4 = 0.25, nothing since → LOW_ADHERENCE, INACTIVE_7_DAYS;
 * - Carla: every session on its day → 4/4 = 1;
 * - Diego: A twice in the week of 01-06 (01-07, 01-08), nothing since → 2/4 = 0.5, INACTIVE_7_DAYS;
 * - Ana: her assignment still PENDING → nothing scheduled, adherence null, no attention;
 * - Fábio: his assignment canceled and his link removed → not one of the trainer's students.
 */
export async function trainerWithFourStudents(t: TestApp) {
  t.clock.set(new Date("2025-01-19T18:00:00Z"));
  const trainer = await makeTrainer(t, { name: "Paulo Personal" });
  await subscribe(t, trainer, "Básico");
  const gym = await gymOf(t, trainer, ["A"]);
  const plan = await weeklyPlan(t, gym, [
    ["A", "MONDAY"],
    ["A", "THURSDAY"],
  ]);
  const students: Record<"ana" | "bruno" | "carla" | "diego" | "fabio", MadeUser> = {
    carla: await makeStudent(t, { name: "Carla" }),
    ana: await makeStudent(t, { name: "Ana" }),
    diego: await makeStudent(t, { name: "Diego" }),
    bruno: await makeStudent(t, { name: "Bruno" }),
    fabio: await makeStudent(t, { name: "Fábio" }),
  };
  const links: Record<string, number> = {};
  for (const [key, student] of Object.entries(students)) links[key] = await link(t, gym, student);
  for (const key of ["bruno", "carla", "diego"] as const) await assigned(t, gym, plan.id, students[key], "2025-01-06");
  await assigned(t, gym, plan.id, students.ana, "2025-01-06", false);
  const fabiosAssignment = await assigned(t, gym, plan.id, students.fabio, "2025-01-06");
  for (const day of ["2025-01-06", "2025-01-09", "2025-01-13", "2025-01-16"]) await trained(t, gym, students.carla, "A", `${day}T07:00:00Z`);
  await trained(t, gym, students.bruno, "A", "2025-01-06T07:00:00Z");
  await trained(t, gym, students.diego, "A", "2025-01-07T07:00:00Z");
  await trained(t, gym, students.diego, "A", "2025-01-08T07:00:00Z");
  await trained(t, gym, students.fabio, "A", "2025-01-13T07:00:00Z");
  await moveAssignment(t, trainer.token, fabiosAssignment, "cancel");
  expect((await t.delete(`/api/personal/students/${links.fabio}`, { token: trainer.token })).status).toBe(204);
  const elisa = await makeStudent(t, { name: "Elisa" });
  expect((await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: elisa.email } })).status).toBe(201);
  return { trainer, gym, plan, students, elisa };
}

/** The SQL statements `run` sends (the request's authentication included). */
export async function statementsOf(t: TestApp, run: () => Promise<unknown>): Promise<number> {
  let statements = 0;
  const stop = t.database.observeQueries(() => statements++);
  try {
    await run();
  } finally {
    stop();
  }
  return statements;
}

/**
 * A trainer on the Ilimitado plan with `count` ACTIVE students, each following one plan (A on Monday and Thursday from
 * 2025-01-06, read on Sunday 01-19) and having done some of it.
 */
export async function trainerWithStudents(t: TestApp, count: number) {
  t.clock.set(new Date("2025-01-19T18:00:00Z"));
  const trainer = await makeTrainer(t);
  await subscribe(t, trainer, "Ilimitado");
  const gym = await gymOf(t, trainer, ["A"]);
  const plan = await weeklyPlan(t, gym, [
    ["A", "MONDAY"],
    ["A", "THURSDAY"],
  ]);
  for (let i = 0; i < count; i++) {
    const student = await makeStudent(t);
    await link(t, gym, student);
    await assigned(t, gym, plan.id, student, "2025-01-06");
    await trained(t, gym, student, "A", `2025-01-${String(6 + (i % 10)).padStart(2, "0")}T07:00:00Z`);
  }
  return trainer;
}
