import { GraphQLInt, GraphQLList, GraphQLNonNull, GraphQLObjectType, GraphQLSchema, GraphQLString, parse } from "graphql";
import { Registry } from "prom-client";
import { describe, expect, it } from "vitest";
import { compiledExecution } from "../../src/graphql/compiled-execution.js";
import { useTestApp } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";

/*
 * A document is run by graphql-js the first time and by its compiled plan (graphql-jit) from then on
 * (src/graphql/compiled-execution.ts): every answer, error and status must be the same whichever ran it, and the
 * compiled plan must really be what answered (the executors' counter in /metrics says which ran).
 */
const t = useTestApp();

/** The operations each executor answered since the app started, as /metrics reports them. */
async function executions(): Promise<{ jit: number; graphqlJs: number }> {
  const text = (await t.get("/metrics")).text;
  const count = (executor: string) => Number(new RegExp(`^graphql_executions_total\\{executor="${executor}"\\} (\\d+)$`, "m").exec(text)?.[1] ?? 0);
  return { jit: count("graphql-jit"), graphqlJs: count("graphql-js") };
}

/** What `run` made each executor answer. */
async function executedBy<T>(run: () => Promise<T>): Promise<{ result: T; jit: number; graphqlJs: number }> {
  const before = await executions();
  const result = await run();
  const after = await executions();
  return { result, jit: after.jit - before.jit, graphqlJs: after.graphqlJs - before.graphqlJs };
}

/** The same request sent `times` times: status and body of each. */
async function repeated(times: number, query: string, variables?: Record<string, unknown>, token?: string) {
  const answers: { status: number; body: unknown }[] = [];
  for (let i = 0; i < times; i += 1) {
    const { status, body } = await t.post("/graphql", { body: { query, variables }, token });
    answers.push({ status, body });
  }
  return answers;
}

describe("documents run again and again answer as on their first run", () => {
  it("a tree with aliases, fragments, variables, @skip/@include and __typename", async () => {
    const coach = await makeTrainer(t, { name: "Compilada" });
    const squat = await createExercise(t, coach.token, { name: "Agachamento compilado" });
    const row = await createExercise(t, coach.token, { name: "Remada compilada" });
    const training = await createTraining(t, coach.token, [squat.id, row.id], { name: "Treino compilado" });
    const plan = await createPlan(t, coach.token, [training.id], { name: "Plano compilado" });
    const query = `query Tree($id: Int!, $withAuthor: Boolean!, $withoutIds: Boolean!) {
      plan: trainingPlan(id: $id) { __typename title: name ...Trainings }
      me { id @skip(if: $withoutIds) name }
    }
    fragment Trainings on TrainingPlan {
      trainings { training { name exercises { exercise { id name ... on Exercise { creator @include(if: $withAuthor) { name } } } } } }
    }`;
    const { result: withAuthor, ...ran } = await executedBy(() => repeated(3, query, { id: plan.id, withAuthor: true, withoutIds: false }, coach.token));
    // The first run by graphql-js, the next two by the plan compiled on the second.
    expect(ran).toEqual({ graphqlJs: 1, jit: 2 });
    expect(withAuthor[0]).toEqual({
      status: 200,
      body: {
        data: {
          plan: {
            __typename: "TrainingPlan",
            title: "Plano compilado",
            trainings: [
              {
                training: {
                  name: "Treino compilado",
                  exercises: [
                    { exercise: { id: squat.id, name: "Agachamento compilado", creator: { name: "Compilada" } } },
                    { exercise: { id: row.id, name: "Remada compilada", creator: { name: "Compilada" } } },
                  ],
                },
              },
            ],
          },
          me: { id: coach.id, name: "Compilada" },
        },
      },
    });
    expect(withAuthor[1]).toEqual(withAuthor[0]);
    expect(withAuthor[2]).toEqual(withAuthor[0]);

    // The compiled plan honours the variables of each run, not those it was compiled with.
    const {
      result: [without],
      jit,
    } = await executedBy(() => repeated(1, query, { id: plan.id, withAuthor: false, withoutIds: true }, coach.token));
    expect(jit).toBe(1);
    const body = without.body as { data: { plan: { trainings: { training: { exercises: { exercise: object }[] } }[] }; me: object } };
    expect(body.data.plan.trainings[0].training.exercises[0].exercise).toEqual({ id: squat.id, name: "Agachamento compilado" });
    expect(body.data.me).toEqual({ name: "Compilada" });
  });

  it("a field the caller may not read: the same data, message, extensions and path every time", async () => {
    const owner = await makeTrainer(t);
    const stranger = await makeTrainer(t);
    const training = await createTraining(t, owner.token, [(await createExercise(t, owner.token)).id]);
    const plan = await createPlan(t, owner.token, [training.id]);
    const { result: answers, ...ran } = await executedBy(() =>
      repeated(3, `query ($id: Int!) { me { email } trainingPlan(id: $id) { name } }`, { id: plan.id }, stranger.token),
    );
    expect(ran).toEqual({ graphqlJs: 1, jit: 2 });
    const first = answers[0].body as { data: unknown; errors: { message: string; path: string[]; extensions: { status: number } }[] };
    expect(answers[0].status).toBe(200);
    // trainingPlan is nullable (a guarded field): its error nulls it alone, beside the sibling served.
    expect(first.data).toEqual({ me: { email: stranger.email }, trainingPlan: null });
    expect(first.errors).toHaveLength(1);
    expect(first.errors[0]).toMatchObject({ path: ["trainingPlan"], locations: [{ line: 1, column: 34 }] });
    expect([403, 404]).toContain(first.errors[0].extensions.status);
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });

  it("variables of the wrong type: 400 with graphql-js's own message every time, and nothing run", async () => {
    const student = await makeStudent(t);
    const before = await t.graphql(`{ me { name } }`, undefined, student.token);
    const { result: answers, ...ran } = await executedBy(() =>
      t.withInvalidRequests(() =>
        repeated(3, `mutation ($name: String!) { renameUser(id: ${student.id}, name: $name) { name } }`, { name: 42 }, student.token),
      ),
    );
    // The cost limit coerces the variables first (src/graphql/query-limits.ts) and refuses them: no executor runs.
    expect(ran).toEqual({ graphqlJs: 0, jit: 0 });
    expect(answers[0].status).toBe(400);
    expect(answers[0].body).toEqual({
      errors: [
        {
          message: 'Variable "$name" got invalid value 42; String cannot represent a non string value: 42',
          extensions: { code: "BAD_USER_INPUT", status: 400 },
        },
      ],
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
    expect(await t.graphql(`{ me { name } }`, undefined, student.token)).toEqual(before);
  });

  it("a mutation run by its compiled plan writes what it says", async () => {
    const coach = await makeTrainer(t);
    const rename = `mutation ($id: Int!, $name: String!) { renameUser(id: $id, name: $name) { id name } }`;
    const ran = await executedBy(async () => {
      for (const name of ["Primeiro nome", "Segundo nome", "Terceiro nome"]) {
        const body = await t.graphql(rename, { id: coach.id, name }, coach.token);
        expect(body).toEqual({ data: { renameUser: { id: coach.id, name } } });
      }
    });
    expect(ran).toMatchObject({ graphqlJs: 1, jit: 2 });
    const stored = await t.get(`/api/users/${coach.id}`, { token: coach.token });
    expect(stored.body.name).toBe("Terceiro nome");
  });

  it("an operation name the document does not hold: 400 every time", async () => {
    const student = await makeStudent(t);
    const body = { query: "query A { __typename } query B { __typename }", operationName: "C" };
    for (let i = 0; i < 3; i += 1) {
      const answer = await t.post("/graphql", { body, token: student.token });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].message).toBe('Unknown operation named "C".');
    }
    const single = { query: "query A { __typename }", operationName: "B" };
    for (let i = 0; i < 3; i += 1) {
      const answer = await t.post("/graphql", { body: single, token: student.token });
      expect(answer.status).toBe(400);
      expect(answer.body.errors[0].message).toBe('Unknown operation named "B".');
    }
  });
});

/*
 * A leaf that fails (null where the schema says non-null, an Error where a value was expected) is rare in the API, so
 * it is run here on a schema of its own through the same executor: the compiled plan (graphql-jit, with the project's
 * patch that builds a leaf's error only when it fails) must answer the data, messages, paths and locations graphql-js
 * answers.
 */
describe("a leaf that fails answers as graphql-js answers it", () => {
  const items = [
    { id: 1, name: "um", count: 1 },
    { id: 2, name: new Error("nome ilegível"), count: 2 },
    { id: 3, name: null, count: null },
  ];
  const item = new GraphQLObjectType({
    name: "Item",
    fields: {
      id: { type: new GraphQLNonNull(GraphQLInt) },
      name: { type: GraphQLString },
      count: { type: new GraphQLNonNull(GraphQLInt) },
    },
  });
  const schema = new GraphQLSchema({
    query: new GraphQLObjectType({
      name: "Query",
      fields: { items: { type: new GraphQLNonNull(new GraphQLList(item)), resolve: () => items } },
    }),
  });

  it("the same data and errors on the first run (graphql-js) and the compiled runs", async () => {
    const metrics = new Registry();
    const executor = (await compiledExecution(schema, metrics).load({ apollo: {} })).executor!;
    const query = "{ items { id name count } }";
    const document = parse(query);
    const run = async () =>
      JSON.parse(JSON.stringify(await executor({ document, request: { query }, context: {} } as unknown as Parameters<typeof executor>[0])));
    const answers = [await run(), await run(), await run()];
    const ran = (await metrics.getSingleMetric("graphql_executions_total")!.get()).values.map(({ labels, value }) => [labels.executor, value]);
    expect(Object.fromEntries(ran)).toEqual({ "graphql-js": 1, "graphql-jit": 2 });
    expect(answers[0]).toEqual({
      data: { items: [{ id: 1, name: "um", count: 1 }, { id: 2, name: null, count: 2 }, null] },
      errors: [
        { message: "nome ilegível", locations: [{ line: 1, column: 14 }], path: ["items", 1, "name"] },
        { message: "Cannot return null for non-nullable field Item.count.", locations: [{ line: 1, column: 19 }], path: ["items", 2, "count"] },
      ],
    });
    expect(answers[1]).toEqual(answers[0]);
    expect(answers[2]).toEqual(answers[0]);
  });
});
