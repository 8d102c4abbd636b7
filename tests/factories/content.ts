import type { TestApp } from "../helpers/test-app.js";
import type { MadeUser } from "./users.js";

let sequence = 0;

/** A file part of a multipart request. */
export interface FilePart {
  bytes: Buffer;
  filename: string;
  type: string;
}

/** Invite and accept through the real endpoints: the pair's ACTIVE link; its id. */
export async function linkTrainerAndStudent(t: TestApp, trainer: MadeUser, student: MadeUser): Promise<number> {
  const invite = await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: student.email } });
  if (invite.status !== 201) throw new Error(`invite failed: ${invite.status} ${invite.text}`);
  const accept = await t.post(`/api/students/invites/${invite.body.id}/accept`, { token: student.token });
  if (accept.status !== 200) throw new Error(`accept failed: ${accept.status} ${accept.text}`);
  return accept.body.id;
}

/** A valid `exercise` part of POST/PUT /exercises (only the required fields), with `overrides` on top. */
export function exerciseBody(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return { name: `Exercício ${sequence}`, description: "Descrição do exercício", category: "PEITO", ...overrides };
}

/** The multipart body of POST/PUT /exercises: `exercise` as a text field, and the optional `file`. */
export function exerciseForm(exercise: unknown, file?: FilePart): FormData {
  const form = new FormData();
  form.append("exercise", typeof exercise === "string" ? exercise : JSON.stringify(exercise));
  if (file) form.append("file", new Blob([new Uint8Array(file.bytes)], { type: file.type }), file.filename);
  return form;
}

/** POST /exercises that must succeed: the created Exercise. */
export async function createExercise(t: TestApp, token: string, overrides: Record<string, unknown> = {}, file?: FilePart) {
  const res = await t.post("/api/exercises", { token, raw: exerciseForm(exerciseBody(overrides), file) });
  if (res.status !== 201) throw new Error(`create exercise failed: ${res.status} ${res.text}`);
  return res.body;
}

/** POST /trainings that must succeed, one set count per exercise: the created training. */
export async function createTraining(t: TestApp, token: string, exerciseIds: number[], overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const body = { name: `Treino ${sequence}`, exercises: exerciseIds.map((exerciseId) => ({ exerciseId, sets: 3 })), ...overrides };
  const res = await t.post("/api/trainings", { token, body });
  if (res.status !== 201) throw new Error(`create training failed: ${res.status} ${res.text}`);
  return res.body;
}

/** POST /training-plans that must succeed, each training on Monday: the created plan. */
export async function createPlan(t: TestApp, token: string, trainingIds: number[], overrides: Record<string, unknown> = {}) {
  sequence += 1;
  const body = {
    name: `Plano ${sequence}`,
    description: "Plano de treino",
    trainings: trainingIds.map((trainingId, order) => ({ trainingId, dayOfWeek: "MONDAY", order })),
    ...overrides,
  };
  const res = await t.post("/api/training-plans", { token, body });
  if (res.status !== 201) throw new Error(`create plan failed: ${res.status} ${res.text}`);
  return res.body;
}

/** POST /training-plans/{id}/assign that must succeed: the PENDING assignment. */
export async function assignPlan(t: TestApp, token: string, planId: number, studentId: number, overrides: Record<string, unknown> = {}) {
  const res = await t.post(`/api/training-plans/${planId}/assign`, { token, body: { studentId, ...overrides } });
  if (res.status !== 201) throw new Error(`assign plan failed: ${res.status} ${res.text}`);
  return res.body;
}

/** A valid body of POST/PUT /trainings: each exercise as 3 sets of 10 (order = its index), with `overrides` on top. */
export function trainingBody(exerciseIds: number[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    name: `Treino ${sequence}`,
    description: "Descrição do treino",
    isPublic: false,
    exercises: exerciseIds.map((exerciseId, order) => ({ exerciseId, sets: 3, repetitions: 10, order })),
    ...overrides,
  };
}

/** A valid body of POST/PUT /training-plans: each training on Monday (order = its index), with `overrides` on top. */
export function planBody(trainingIds: number[], overrides: Record<string, unknown> = {}): Record<string, unknown> {
  sequence += 1;
  return {
    name: `Plano ${sequence}`,
    description: "Plano de treino",
    trainings: trainingIds.map((trainingId, order) => ({ trainingId, dayOfWeek: "MONDAY", order })),
    ...overrides,
  };
}

/** POST /training-plans/assignments/{id}/accept|cancel|complete that must succeed: the assignment. */
export async function moveAssignment(t: TestApp, token: string, assignmentId: number, action: "accept" | "cancel" | "complete") {
  const res = await t.post(`/api/training-plans/assignments/${assignmentId}/${action}`, { token });
  if (res.status !== 200) throw new Error(`${action} assignment failed: ${res.status} ${res.text}`);
  return res.body;
}
