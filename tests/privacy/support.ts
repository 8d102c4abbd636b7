import { existsSync, readdirSync } from "node:fs";
import { expect } from "vitest";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment } from "../factories/content.js";
import { logExerciseExecution, logTrainingExecution, setsOf, trainingExecutionBody } from "../factories/executions.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";
import type { TestApp } from "../helpers/test-app.js";

/** Helpers shared by the data-rights tests (contract §15): a trainer and a student with rows in every module. */

export const PNG = Buffer.from("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==", "base64");

/** The files under the app's uploads directory. */
export function storedFiles(t: TestApp): string[] {
  return existsSync(t.uploadsDir) ? readdirSync(t.uploadsDir).sort() : [];
}

export interface World {
  trainer: MadeUser;
  student: MadeUser;
  /** Another trainer, whose invite to the student still waits. */
  otherTrainer: MadeUser;
  /** Another student, whom the trainer invited (still waiting). */
  otherStudent: MadeUser;
  linkId: number;
  trainerContent: { publicExercise: number; privateExercise: number; publicTraining: number; privateTraining: number; publicPlan: number; privatePlan: number };
  studentContent: { exercise: number; training: number };
  /** The private plan's assignment, ACTIVE. */
  assignmentId: number;
  /** The public plan's assignment, PENDING. */
  publicAssignmentId: number;
  pendingInviteToStudent: number;
  pendingInviteByTrainer: number;
  trainingExecutionId: number;
  exerciseExecutionId: number;
  /** The student's webhook endpoint's secret, shown once at its creation. */
  endpointSecret: string;
}

/**
 * A trainer and a student with rows in every module: the student's profile (phone, birth date, gender, height, two
 * weights, a photo), an ACTIVE link, the trainer's public and private exercises, trainings and plans, the private
 * plan assigned and ACTIVE, the public one assigned and PENDING, the student's own exercise and training, a logged training (records set) and a logged
 * exercise, waiting invites both ways, the student's webhook endpoint; `subscribe` makes the student's subscription (the gateway differs per file).
 */
export async function makeWorld(t: TestApp, subscribe: (student: MadeUser) => Promise<void>): Promise<World> {
  const trainer = await makeTrainer(t, { name: "Tânia Treinadora" });
  const student = await makeStudent(t, { name: "Ana Aluna" });
  const otherTrainer = await makeTrainer(t, { name: "Otávio Outro" });
  const otherStudent = await makeStudent(t, { name: "Bruno Outro" });

  const profile = { phone: "+55 11 98888-7777", birthDate: "1991-04-12", gender: "FEMININO", height: 165, weight: 60 };
  expect((await t.put("/api/users/profile", { token: student.token, body: profile })).status).toBe(200);
  t.clock.advance(60_000);
  expect((await t.put("/api/users/profile", { token: student.token, body: { weight: 61.5 } })).status).toBe(200);
  const photo = new FormData();
  photo.append("file", new Blob([new Uint8Array(PNG)], { type: "image/png" }), "eu.png");
  expect((await t.post(`/api/users/${student.id}/update-profile-photo`, { raw: photo, token: student.token })).status).toBe(200);

  const linkId = await linkTrainerAndStudent(t, trainer, student);
  const publicExercise = (await createExercise(t, trainer.token, { name: "Supino público", isPublic: true })).id;
  const privateExercise = (await createExercise(t, trainer.token, { name: "Supino privado" })).id;
  const publicTraining = (await createTraining(t, trainer.token, [publicExercise], { name: "Treino público", isPublic: true })).id;
  const privateTraining = (await createTraining(t, trainer.token, [privateExercise, publicExercise], { name: "Treino privado" })).id;
  const publicPlan = (await createPlan(t, trainer.token, [publicTraining], { name: "Plano público", isPublic: true })).id;
  const privatePlan = (await createPlan(t, trainer.token, [privateTraining], { name: "Plano privado" })).id;
  const assignment = await assignPlan(t, trainer.token, privatePlan, student.id);
  await moveAssignment(t, student.token, assignment.id, "accept");
  const publicAssignment = await assignPlan(t, trainer.token, publicPlan, student.id);

  const exercise = (await createExercise(t, student.token, { name: "Agachamento da Ana" })).id;
  const training = (await createTraining(t, student.token, [exercise], { name: "Treino da Ana" })).id;
  const sets = setsOf(3, { repetitions: 8, weight: 40, completed: true });
  const trainingExecution = await logTrainingExecution(
    t,
    student.token,
    privateTraining,
    trainingExecutionBody(t.clock.now(), 3600, [
      { exerciseId: privateExercise, sets },
      { exerciseId: publicExercise, sets },
    ]),
  );
  const exerciseExecution = await logExerciseExecution(t, student.token, exercise, training, setsOf(2, { repetitions: 5, weight: 80, completed: true }));

  const inviteToStudent = await t.post("/api/personal/students/invite", { token: otherTrainer.token, body: { studentEmail: student.email } });
  expect(inviteToStudent.status).toBe(201);
  const inviteByTrainer = await t.post("/api/personal/students/invite", { token: trainer.token, body: { studentEmail: otherStudent.email } });
  expect(inviteByTrainer.status).toBe(201);

  const endpoint = await t.post("/api/webhook-endpoints", {
    token: student.token,
    body: { url: "https://hooks.example.com/ana", events: ["training_execution.created"], description: "Meu painel" },
  });
  expect(endpoint.status).toBe(201);

  await subscribe(student);
  return {
    trainer,
    student,
    otherTrainer,
    otherStudent,
    linkId,
    trainerContent: { publicExercise, privateExercise, publicTraining, privateTraining, publicPlan, privatePlan },
    studentContent: { exercise, training },
    assignmentId: assignment.id,
    publicAssignmentId: publicAssignment.id,
    pendingInviteToStudent: inviteToStudent.body.id,
    pendingInviteByTrainer: inviteByTrainer.body.id,
    trainingExecutionId: trainingExecution.id,
    exerciseExecutionId: exerciseExecution.id,
    endpointSecret: endpoint.body.secret,
  };
}
