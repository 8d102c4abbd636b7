import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { assignPlan, createExercise, createPlan, createTraining, linkTrainerAndStudent } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";

/*
 * Issue 32: the relations of content trees (the authors of exercises, trainings and plans, a training line's exercise,
 * a plan's training) are read one way, in the statement that reads their parent, whichever root, mutation or relation answers the parent. Each must come with its value
 * (null only where the caller may not see it), never an error for a relation left unread.
 */
const t = useTestApp();

const EXERCISE = `name creator { name }`;
const TRAINING = `name creator { name } exercises { sets exercise { ${EXERCISE} } }`;
const PLAN = `name creator { name } trainings { dayOfWeek training { ${TRAINING} } }`;

/** A trainer's private exercise and public one in a public training, in a plan assigned to a linked student. */
async function world() {
  const trainer = await makeTrainer(t, { name: "Treinadora" });
  const student = await makeStudent(t, { name: "Aluna" });
  await linkTrainerAndStudent(t, trainer, student);
  const hidden = await createExercise(t, trainer.token, { name: "Privado", isPublic: false });
  const shown = await createExercise(t, trainer.token, { name: "Público", isPublic: true });
  const training = await createTraining(t, trainer.token, [hidden.id, shown.id], { name: "Treino A", isPublic: true });
  const plan = await createPlan(t, trainer.token, [training.id], { name: "Plano A", isPublic: false });
  const assignment = await assignPlan(t, trainer.token, plan.id, student.id);
  return { trainer, student, hidden, shown, training, plan, assignment };
}

const AUTHOR = { name: "Treinadora" };
const TRAINING_AS_AUTHOR = {
  name: "Treino A",
  creator: AUTHOR,
  exercises: [
    { sets: 3, exercise: { name: "Privado", creator: AUTHOR } },
    { sets: 3, exercise: { name: "Público", creator: AUTHOR } },
  ],
};

async function data(query: string, variables: Record<string, unknown>, token: string) {
  const body = await t.graphql(query, variables, token);
  expect(body.errors, query).toBeUndefined();
  return body.data;
}

describe("content trees: every producer reads the relations its selection asks", () => {
  it("an exercise's author, by id, in both listings and in the answers of its writes", async () => {
    const { trainer, shown } = await world();
    expect((await data(`query ($id: Int!) { exercise(id: $id) { ${EXERCISE} } }`, { id: shown.id }, trainer.token)).exercise).toEqual({
      name: "Público",
      creator: AUTHOR,
    });
    const mine = await data(`{ myExercises { content { ${EXERCISE} } } }`, {}, trainer.token);
    expect(mine.myExercises.content).toEqual([
      { name: "Privado", creator: AUTHOR },
      { name: "Público", creator: AUTHOR },
    ]);
    const created = await data(`mutation { createExercise(input: { name: "Novo", description: "d", category: PEITO }) { id ${EXERCISE} } }`, {}, trainer.token);
    expect(created.createExercise).toMatchObject({ name: "Novo", creator: AUTHOR });
    const updated = await data(
      `mutation ($id: Int!) { updateExercise(id: $id, input: { name: "Renomeado", description: "d", category: COSTAS }) { ${EXERCISE} } }`,
      { id: created.createExercise.id },
      trainer.token,
    );
    expect(updated.updateExercise).toEqual({ name: "Renomeado", creator: AUTHOR });
  });

  it("a training's author and lines' exercises, by id, in both listings and in the answers of its writes; hidden ones null to another reader", async () => {
    const { trainer, student, hidden, shown, training } = await world();
    const listed = await data(
      `query ($id: Int!) { trainings(filter: { createdBy: $id }) { content { name creator { name } } } }`,
      { id: trainer.id },
      trainer.token,
    );
    expect(listed.trainings.content).toEqual([{ name: "Treino A", creator: AUTHOR }]);
    expect((await data(`{ myTrainings { content { name creator { name userType } } } }`, {}, trainer.token)).myTrainings.content).toEqual([
      { name: "Treino A", creator: { name: "Treinadora", userType: "PERSONAL" } },
    ]);
    expect((await data(`query ($id: Int!) { training(id: $id) { ${TRAINING} } }`, { id: training.id }, trainer.token)).training).toEqual(TRAINING_AS_AUTHOR);
    const other = await makeTrainer(t, { name: "Outra" });
    const seenByOther = await data(`query ($id: Int!) { training(id: $id) { ${TRAINING} } }`, { id: training.id }, other.token);
    expect(seenByOther.training.exercises.map((line: { exercise: unknown }) => line.exercise)).toEqual([null, { name: "Público", creator: AUTHOR }]);

    const input = `{ name: "Treino B", exercises: [{ exerciseId: ${shown.id}, sets: 4 }] }`;
    const created = await data(`mutation { createTraining(input: ${input}) { id ${TRAINING} } }`, {}, student.token);
    expect(created.createTraining).toMatchObject({
      name: "Treino B",
      creator: { name: "Aluna" },
      exercises: [{ sets: 4, exercise: { name: "Público", creator: AUTHOR } }],
    });
    const updated = await data(
      `mutation ($id: Int!) { updateTraining(id: $id, input: { name: "Treino C", exercises: [{ exerciseId: ${hidden.id}, sets: 2 }] }) { ${TRAINING} } }`,
      { id: training.id },
      trainer.token,
    );
    expect(updated.updateTraining).toEqual({ name: "Treino C", creator: AUTHOR, exercises: [{ sets: 2, exercise: { name: "Privado", creator: AUTHOR } }] });
  });

  it("a plan's trainings, by id, in both listings, in the answers of its writes and through its assignments", async () => {
    const { trainer, student, training, plan, assignment } = await world();
    const tree = { name: "Plano A", creator: AUTHOR, trainings: [{ dayOfWeek: "MONDAY", training: TRAINING_AS_AUTHOR }] };
    expect((await data(`query ($id: Int!) { trainingPlan(id: $id) { ${PLAN} } }`, { id: plan.id }, trainer.token)).trainingPlan).toEqual(tree);
    const listed = await data(`query ($id: Int!) { trainingPlans(filter: { createdBy: $id }) { content { ${PLAN} } } }`, { id: trainer.id }, trainer.token);
    expect(listed.trainingPlans.content).toEqual([tree]);
    expect((await data(`{ myPlans { content { ${PLAN} } } }`, {}, trainer.token)).myPlans.content).toEqual([tree]);

    const input = `{ name: "Plano B", description: "d", trainings: [{ trainingId: ${training.id}, dayOfWeek: FRIDAY, order: 0 }] }`;
    const created = await data(`mutation { createTrainingPlan(input: ${input}) { id ${PLAN} } }`, {}, trainer.token);
    expect(created.createTrainingPlan).toMatchObject({ name: "Plano B", creator: AUTHOR, trainings: [{ dayOfWeek: "FRIDAY", training: TRAINING_AS_AUTHOR }] });
    const updated = await data(
      `mutation ($id: Int!) { updateTrainingPlan(id: $id, input: ${input.replace("Plano B", "Plano C")}) { ${PLAN} } }`,
      { id: created.createTrainingPlan.id },
      trainer.token,
    );
    expect(updated.updateTrainingPlan).toEqual({ name: "Plano C", creator: AUTHOR, trainings: [{ dayOfWeek: "FRIDAY", training: TRAINING_AS_AUTHOR }] });

    // The student sees the assigned plan's training and its exercises, the trainer's private one included.
    const asStudent = TRAINING_AS_AUTHOR;
    const assignments = await data(`{ planAssignments { content { plan { ${PLAN} } } } }`, {}, student.token);
    expect(assignments.planAssignments.content).toEqual([
      { plan: { name: "Plano A", creator: AUTHOR, trainings: [{ dayOfWeek: "MONDAY", training: asStudent }] } },
    ]);
    const accepted = await data(`mutation ($id: Int!) { acceptAssignment(id: $id) { status plan { ${PLAN} } } }`, { id: assignment.id }, student.token);
    expect(accepted.acceptAssignment).toEqual({
      status: "ACTIVE",
      plan: { name: "Plano A", creator: AUTHOR, trainings: [{ dayOfWeek: "MONDAY", training: asStudent }] },
    });
  });

  it("two selections of an assignment's plan in one request: each read with its own relations", async () => {
    const { trainer } = await world();
    const both = await data(
      `{ planAssignments { content { a: plan { trainings { training { name } } } b: plan { trainings { training { exercises { exercise { name } } } } } } } }`,
      {},
      trainer.token,
    );
    expect(both.planAssignments.content).toEqual([
      {
        a: { trainings: [{ training: { name: "Treino A" } }] },
        b: { trainings: [{ training: { exercises: [{ exercise: { name: "Privado" } }, { exercise: { name: "Público" } }] } }] },
      },
    ]);
  });
});
