import { describe, expect, it } from "vitest";
import { sameArguments } from "../../src/graphql/look-ahead.js";
import { useTestApp } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining } from "../factories/content.js";
import { makeTrainer } from "../factories/users.js";

/*
 * Issues 11, 17 and 32: `trainingPlan` reads the trainings, exercises and authors its selection asks for in the plan's
 * one statement, the only way these relations are read. The lookup's tree must be the very answer the plan listing's
 * statement gives, visibility rules included, for any selection.
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

describe("a plan tree read in one statement", () => {
  it("answers what the listing answers, hidden trainings and exercises as null, in one statement", async () => {
    const { reader, plan } = await mixedPlan();
    const ahead = await statementsOf(() => t.graphql(`query ($id: Int!) { trainingPlan(id: $id) { name ${TREE} } }`, { id: plan.id }, reader.token));
    const listed = await t.graphql(`{ trainingPlans(filter: { name: "Plano misto" }) { content { name ${TREE} } } }`, {}, reader.token);

    const tree = (ahead.answer as { data: { trainingPlan: { trainings: { training: unknown }[] } } }).data.trainingPlan;
    expect(tree).toEqual(listed.data.trainingPlans.content[0]);
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

  it("builds only the keys the selection reads, and answers what the listing answers for any selection, under both executors", async () => {
    const { author, reader, plan } = await mixedPlan();
    const selections = [
      `trainings { training { name exercises { exercise { name creator { name } } } } }`,
      `trainings { id }`,
      `trainings { __typename training { __typename } }`,
      `trainings { trainingName training { id } }`,
      `trainings { tid: trainingId t: training { n: name c: creator { name } exerciseCount } }`,
      `trainings { training { exercises { weight } } }`,
      `trainings { training { exercises { exerciseName exercise { __typename } } } }`,
      `trainings { training { exercises { exerciseId exercise { createdBy imageUrl instructions } } } }`,
      `trainings { ...Item }`,
      `trainings { training { ... on Training { description exercises { ...Line } } } }`,
      `trainings { training { createdAt updatedAt isPublic exercises { id exercise { creator { id } } } } }`,
      `id ${TREE}`,
    ];
    const FRAGMENTS: Record<string, string> = {
      Item: `fragment Item on PlanTraining { dayOfWeek order training { createdBy } }`,
      Line: `fragment Line on TrainingExercise { sets repetitions restSeconds order notes exercise { id category difficulty equipment muscleGroups videoUrl updatedAt } }`,
    };
    for (const user of [reader, author]) {
      for (const selection of selections) {
        const fragments = Object.keys(FRAGMENTS)
          .flatMap((name) => (selection.includes(`...${name}`) ? [FRAGMENTS[name]] : []))
          .join(" ");
        const answers: unknown[] = [];
        for (let run = 0; run < 2; run += 1) {
          const ahead = await statementsOf(() =>
            t.graphql(`query ($id: Int!) { trainingPlan(id: $id) { ${selection} } } ${fragments}`, { id: plan.id }, user.token),
          );
          expect(ahead.statements, selection).toBe(1);
          answers.push(ahead.answer);
        }
        expect(answers[1], selection).toEqual(answers[0]);
        const listed = await t.graphql(
          `{ trainingPlans(filter: { name: "Plano misto" }, page: { size: 1 }) { content { ${selection} } } } ${fragments}`,
          {},
          user.token,
        );
        expect(listed.errors, selection).toBeUndefined();
        expect(answers[0], selection).toEqual({ data: { trainingPlan: listed.data.trainingPlans.content[0] } });
      }
    }
    const texts: string[] = [];
    const stop = t.database.observeQueries((statement) => void texts.push(statement));
    await t.graphql(
      `query ($id: Int!) { trainingPlan(id: $id) { trainings { training { exercises { exercise { name creator { name } } } } } } }`,
      { id: plan.id },
      reader.token,
    );
    stop();
    expect(texts).toHaveLength(1);
    expect(texts[0]).toContain(`'name'`);
    expect(texts[0]).not.toMatch(/'(trainingName|description|sets|createdAt|userType|id)'/);
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

describe("arguments a read ahead was made for, against a resolver's", () => {
  class PageInput {
    constructor(readonly size: number) {}
  }

  it("are the same whatever the order of keys, with absent and undefined alike and input objects as classes", () => {
    expect(sameArguments({ filter: undefined, page: new PageInput(5) }, { page: { size: 5 } })).toBe(true);
    expect(sameArguments({ b: [1, { y: 2, x: 1 }], a: null }, { a: null, b: [1, { x: 1, y: 2 }] })).toBe(true);
    expect(sameArguments({ at: new Date(1_000) }, { at: new Date(1_000) })).toBe(true);
  });

  it("differ by any value, null against absent, order in a list, or instant", () => {
    expect(sameArguments({ page: { size: 5 } }, { page: { size: 6 } })).toBe(false);
    expect(sameArguments({ page: { size: 5 } }, { page: { size: 5, page: 1 } })).toBe(false);
    expect(sameArguments({ filter: null }, {})).toBe(false);
    expect(sameArguments({ ids: [1, 2] }, { ids: [2, 1] })).toBe(false);
    expect(sameArguments({ ids: [1] }, { ids: { 0: 1 } })).toBe(false);
    expect(sameArguments({ at: new Date(1_000) }, { at: new Date(2_000) })).toBe(false);
    expect(sameArguments({ at: new Date(1_000) }, { at: {} })).toBe(false);
    expect(sameArguments({ name: "1" }, { name: 1 })).toBe(false);
  });
});
