import { asc, eq, inArray } from "drizzle-orm";
import { beforeEach, describe, expect, it } from "vitest";
import { trainingExercises, trainings } from "../../src/tables/training.table.js";
import { planAssignments, trainingPlans } from "../../src/tables/training-plan.table.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent, moveAssignment, planBody, trainingBody } from "../factories/content.js";
import { makeStudent, makeTrainer, type MadeUser } from "../factories/users.js";

const t = useTestApp();
const second = useSecondInstance(t);

let author: MadeUser;
let assigner: MadeUser;
let student: MadeUser;
let exerciseId: number;
/** The author's public training, and the assigner's own public training that the author's plan also schedules. */
let authorTraining: Record<string, any>;
let assignerTraining: Record<string, any>;
/** The author's public plan. */
let original: Record<string, any>;

beforeEach(async () => {
  author = await makeTrainer(t, { name: "Alice Autora" });
  assigner = await makeTrainer(t, { name: "Bruno Personal" });
  student = await makeStudent(t, { name: "Ana Aluna" });
  exerciseId = (await createExercise(t, author.token, { name: "Supino", isPublic: true })).id;
  authorTraining = await createTraining(t, author.token, [exerciseId], {
    name: "Peito da Alice",
    description: "Empurrar",
    isPublic: true,
    exercises: [{ exerciseId, sets: 4, repetitions: 8, weight: 42.5, restSeconds: 90, order: 1, notes: "Devagar" }],
  });
  assignerTraining = await createTraining(t, assigner.token, [exerciseId], { name: "Peito do Bruno", isPublic: true });
  original = await createPlan(t, author.token, [], {
    name: "Hipertrofia da Alice",
    description: "Quatro semanas",
    isPublic: true,
    difficulty: "INTERMEDIARIO",
    goal: "HIPERTROFIA",
    duration: 4,
    trainings: [
      { trainingId: authorTraining.id, dayOfWeek: "MONDAY", order: 1 },
      { trainingId: assignerTraining.id, dayOfWeek: "WEDNESDAY", order: 2 },
      { trainingId: authorTraining.id, dayOfWeek: "FRIDAY", order: 3 },
    ],
  });
  await linkTrainerAndStudent(t, assigner, student);
});

describe("assigning another trainer's public plan", () => {
  it("assigns a private copy owned by the assigning trainer, with copies of the author's trainings", async () => {
    const res = await t.post(`/api/training-plans/${original.id}/assign`, { token: assigner.token, body: { studentId: student.id } });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ planName: "Hipertrofia da Alice", personalId: assigner.id, studentId: student.id, status: "PENDING" });
    const copyId = res.body.planId;
    expect(copyId).not.toBe(original.id);

    const copy = await t.get(`/api/training-plans/${copyId}`, { token: assigner.token });
    expect(copy.status).toBe(200);
    expect(copy.body).toMatchObject({
      name: "Hipertrofia da Alice",
      description: "Quatro semanas",
      createdBy: assigner.id,
      isPublic: false,
      difficulty: "INTERMEDIARIO",
      goal: "HIPERTROFIA",
      duration: 4,
    });
    const [monday, wednesday, friday] = copy.body.trainings;
    expect(copy.body.trainings).toHaveLength(3);
    expect(monday).toMatchObject({ trainingName: "Peito da Alice", dayOfWeek: "MONDAY", order: 1 });
    // One copy of the author's training serves both of its days; the assigner's own training is used as it is.
    expect(monday.trainingId).not.toBe(authorTraining.id);
    expect(friday).toMatchObject({ trainingId: monday.trainingId, dayOfWeek: "FRIDAY", order: 3 });
    expect(wednesday).toMatchObject({ trainingId: assignerTraining.id, dayOfWeek: "WEDNESDAY", order: 2 });

    const [trainingCopy] = await t.db.select().from(trainings).where(eq(trainings.id, monday.trainingId));
    expect(trainingCopy).toMatchObject({ name: "Peito da Alice", description: "Empurrar", createdBy: assigner.id, isPublic: false });
    const lines = await t.db.select().from(trainingExercises).where(eq(trainingExercises.trainingId, monday.trainingId));
    expect(lines).toEqual([expect.objectContaining({ exerciseId, sets: 4, repetitions: 8, weightKg: 42.5, restSeconds: 90, order: 1, notes: "Devagar" })]);
    const [stored] = await t.db.select().from(planAssignments).where(eq(planAssignments.id, res.body.id));
    expect(stored.planId).toBe(copyId);
    // The original stays as it was, without assignments.
    expect((await t.get(`/api/training-plans/${original.id}`, { token: author.token })).body).toEqual(original);
  });

  it("leaves the original the author's: edits and deletes answer as usual and the student keeps following the copy", async () => {
    const assignment = await assignPlan(t, assigner.token, original.id, student.id);
    await moveAssignment(t, student.token, assignment.id, "accept");
    const before = (await t.get(`/api/training-plans/${assignment.planId}`, { token: student.token })).body;
    const copiedTrainingId = before.trainings[0].trainingId;
    const trainingBefore = (await t.get(`/api/trainings/${copiedTrainingId}`, { token: student.token })).body;
    expect(trainingBefore.exercises).toEqual([expect.objectContaining({ exerciseId, sets: 4, repetitions: 8, weight: 42.5 })]);

    const editedTraining = await t.put(`/api/trainings/${authorTraining.id}`, {
      token: author.token,
      body: trainingBody([exerciseId], { name: "Outro treino", exercises: [{ exerciseId, sets: 1, repetitions: 50 }] }),
    });
    expect(editedTraining.status, editedTraining.text).toBe(200);
    const editedPlan = await t.put(`/api/training-plans/${original.id}`, {
      token: author.token,
      body: planBody([authorTraining.id], { name: "Outro plano", description: "Mudou", isPublic: true, duration: 1 }),
    });
    expect(editedPlan.status, editedPlan.text).toBe(200);
    expect((await t.delete(`/api/training-plans/${original.id}`, { token: author.token })).status).toBe(204);
    expect((await t.delete(`/api/trainings/${authorTraining.id}`, { token: author.token })).status).toBe(204);

    const after = await t.get(`/api/training-plans/${assignment.planId}`, { token: student.token });
    expect(after.status).toBe(200);
    expect(after.body).toEqual(before);
    const trainingAfter = await t.get(`/api/trainings/${copiedTrainingId}`, { token: student.token });
    expect(trainingAfter.status).toBe(200);
    expect(trainingAfter.body).toEqual(trainingBefore);
    const listed = await t.get("/api/training-plans/assignments", { token: student.token });
    expect(listed.body.content).toEqual([
      expect.objectContaining({ id: assignment.id, planId: assignment.planId, planName: "Hipertrofia da Alice", status: "ACTIVE" }),
    ]);
  });

  it("lets the author delete the original while another trainer assigns it on another instance: the delete always succeeds", async () => {
    const [deleted, assigned] = await Promise.all([
      t.delete(`/api/training-plans/${original.id}`, { token: author.token }),
      second.post(`/api/training-plans/${original.id}/assign`, { token: assigner.token, body: { studentId: student.id } }),
    ]);
    expect(deleted.status, deleted.text).toBe(204);
    const rows = await t.db.select().from(planAssignments);
    // Either the assignment copied the plan first, or the delete got there first and the plan is not found.
    if (assigned.status === 201) {
      expect(rows).toEqual([expect.objectContaining({ id: assigned.body.id, planId: assigned.body.planId })]);
      expect((await t.get(`/api/training-plans/${assigned.body.planId}`, { token: student.token })).body.trainings).toHaveLength(3);
    } else {
      expect(assigned.status).toBe(404);
      expect(assigned.body).toEqual({ message: "Plano de treino não encontrado", success: false });
      expect(rows).toEqual([]);
    }
    expect(await t.db.select().from(trainingPlans).where(eq(trainingPlans.id, original.id))).toEqual([]);
  });

  it("gives each assignment its own copy and copies nothing when the trainer assigns its own plan", async () => {
    const first = await assignPlan(t, assigner.token, original.id, student.id);
    const second = await assignPlan(t, assigner.token, original.id, student.id);
    expect(new Set([original.id, first.planId, second.planId]).size).toBe(3);

    const own = await createPlan(t, assigner.token, [assignerTraining.id]);
    const plansBefore = await t.db.select({ id: trainingPlans.id }).from(trainingPlans).orderBy(asc(trainingPlans.id));
    expect((await assignPlan(t, assigner.token, own.id, student.id)).planId).toBe(own.id);
    expect(await t.db.select({ id: trainingPlans.id }).from(trainingPlans).orderBy(asc(trainingPlans.id))).toEqual(plansBefore);
    const assignerTrainings = await t.db
      .select({ id: trainings.id })
      .from(trainings)
      .where(inArray(trainings.createdBy, [assigner.id]));
    // Its own training and one copy of the author's per copied plan.
    expect(assignerTrainings).toHaveLength(3);
  });
});
