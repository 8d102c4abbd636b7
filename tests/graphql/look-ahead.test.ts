import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining } from "../factories/content.js";
import { makeTrainer } from "../factories/users.js";

/*
 * Issues 11 and 17: `trainingPlan` reads the trainings, exercises and authors its selection asks for in the plan's
 * one statement. That tree must be the very answer the loaders give level by level, visibility rules included.
 */
const t = useTestApp();

const TREE = `trainings { dayOfWeek training { name isPublic exercises { sets exercise { name isPublic createdAt creator { name userType } } } } }`;

/** Trainer A's public plan holding a public training (a private and a public exercise) and a private training. */
async function mixedPlan() {
  const author = await makeTrainer(t, { name: "Autora" });
  const reader = await makeTrainer(t, { name: "Leitor" });
  const hidden = await createExercise(t, author.token, { name: "Privado", isPublic: false });
  const shown = await createExercise(t, author.token, { name: "Público", isPublic: true });
  const open = await createTraining(t, author.token, [hidden.id, shown.id], { name: "Treino aberto", isPublic: true });
  const closed = await createTraining(t, author.token, [shown.id], { name: "Treino fechado", isPublic: false });
  const plan = await createPlan(t, author.token, [open.id, closed.id], { name: "Plano misto", isPublic: true });
  await t.graphql("{ me { id } }", {}, reader.token); // the session read, kept afterwards: not a statement of the tree
  return { author, reader, plan, trainingId: open.id };
}

async function statementsOf(run: () => Promise<unknown>) {
  let statements = 0;
  const stop = t.database.observeQueries(() => void (statements += 1));
  try {
    return { answer: await run(), statements };
  } finally {
    stop();
  }
}

describe("a plan tree read ahead in one statement", () => {
  it("answers what the loaders answer, hidden trainings and exercises as null, in one statement", async () => {
    const { reader, plan } = await mixedPlan();
    const ahead = await statementsOf(() => t.graphql(`query ($id: Int!) { trainingPlan(id: $id) { name ${TREE} } }`, { id: plan.id }, reader.token));
    // trainingPlans lists plans and resolves each level through the loaders.
    const levelByLevel = await t.graphql(`{ trainingPlans(filter: { name: "Plano misto" }) { content { name ${TREE} } } }`, {}, reader.token);

    const tree = (ahead.answer as { data: { trainingPlan: { trainings: { training: unknown }[] } } }).data.trainingPlan;
    expect(tree).toEqual(levelByLevel.data.trainingPlans.content[0]);
    expect(tree.trainings[1].training).toBeNull();
    expect(tree.trainings[0].training).toMatchObject({
      name: "Treino aberto",
      exercises: [{ exercise: null }, { exercise: { name: "Público", creator: { name: "Autora", userType: "PERSONAL" } } }],
    });
    expect(ahead.statements).toBe(1);
  });

  it("its author sees every level; the tree follows fragments, aliases and @include", async () => {
    const { author, plan } = await mixedPlan();
    const query = `query ($id: Int!, $withCreator: Boolean!) {
      trainingPlan(id: $id) { ...Plan }
    }
    fragment Plan on TrainingPlan { trainings { t: training { ... on Training { exercises { exercise { n: name creator @include(if: $withCreator) { name } } } } } } }`;
    const without = await t.graphql(query, { id: plan.id, withCreator: false }, author.token);
    expect(without.data.trainingPlan.trainings.map((item: { t: unknown }) => item.t)).toEqual([
      { exercises: [{ exercise: { n: "Privado" } }, { exercise: { n: "Público" } }] },
      { exercises: [{ exercise: { n: "Público" } }] },
    ]);
    const withCreator = await statementsOf(() => t.graphql(query, { id: plan.id, withCreator: true }, author.token));
    const trainings = (withCreator.answer as { data: { trainingPlan: { trainings: { t: { exercises: unknown[] } }[] } } }).data.trainingPlan.trainings;
    expect(trainings[0].t.exercises).toEqual([
      { exercise: { n: "Privado", creator: { name: "Autora" } } },
      { exercise: { n: "Público", creator: { name: "Autora" } } },
    ]);
    expect(withCreator.statements).toBe(1);
  });

  it("keeps the plan's own answers: 404 for a missing plan, 403 for another's private one", async () => {
    const { author, reader, trainingId } = await mixedPlan();
    const secret = await createPlan(t, author.token, [trainingId], { name: "Secreto", isPublic: false });
    const missing = await t.graphql(`{ trainingPlan(id: 999999) { name ${TREE} } }`, {}, reader.token);
    expect(missing.errors?.[0]).toMatchObject({ message: "Plano de treino não encontrado", extensions: { status: 404 } });
    const denied = await t.graphql(`query ($id: Int!) { trainingPlan(id: $id) { name ${TREE} } }`, { id: secret.id }, reader.token);
    expect(denied.errors?.[0]).toMatchObject({ message: "Acesso negado", extensions: { status: 403 } });
  });
});
