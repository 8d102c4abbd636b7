import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { rowsOf } from "../helpers/database.js";
import { useTestApp, type ApiResponse } from "../helpers/test-app.js";
import { createExercise, createPlan, createTraining } from "../factories/content.js";
import { makeStudent, makeTrainer } from "../factories/users.js";

// The limits as configured by default: depth 10, cost 5000, 1000 tokens.
const t = useTestApp();

/** Issue 10's document: `levels` fragments, each spreading the previous one twice. */
function stackedFragments(levels: number) {
  let query = "fragment F0 on Query{__typename}\n";
  for (let i = 1; i <= levels; i++) query += `fragment F${i} on Query{...F${i - 1} ...F${i - 1}}\n`;
  return `${query}{...F${levels}}`;
}

/** `count` aliases of one field: `a0: <field> a1: <field> …`. */
const aliases = (count: number, field: string) => Array.from({ length: count }, (_, i) => `a${i}: ${field}`).join(" ");

function expectRefusedAsTooCostly(res: ApiResponse) {
  expect(res.status).toBe(400);
  expect(res.body.data).toBeUndefined();
  expect(res.body.errors).toEqual([
    { message: expect.stringContaining("complexidade máxima de 5000"), extensions: { code: "GRAPHQL_VALIDATION_FAILED", status: 400 } },
  ]);
}

function expectRan(res: ApiResponse) {
  expect(res.status).toBe(200);
  expect(res.body.errors).toBeUndefined();
}

async function userCount() {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
  return row.n;
}

describe("a document of stacked fragments", () => {
  it("is refused with 400 by POST and GET, and /healthz answers meanwhile", async () => {
    const query = stackedFragments(23);
    const [posted, got, health] = await Promise.all([
      t.post("/graphql", { body: { query } }),
      t.get(`/graphql?query=${encodeURIComponent(query)}`),
      t.get("/healthz"),
    ]);
    expect(health.status).toBe(200);
    expect(health.body).toEqual({ status: "ok" });
    // Every spread counts: 2^23 times __typename.
    expectRefusedAsTooCostly(posted);
    expectRefusedAsTooCostly(got);
  });
});

describe("the cost of paged fields", () => {
  const authored = "exercises(page: {size: 100}) { content { creator { name } } }";

  it("counts page.size items under each alias: 17 aliases of 100 exercises are refused, a dashboard's pages of 10 run", async () => {
    const trainer = await makeTrainer(t, { name: "Bruno Personal" });
    await createExercise(t, trainer.token, { name: "Supino" });
    // 17 × (1 + 100 × 3) = 5117
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: `{ ${aliases(17, authored)} }` }, token: trainer.token }));

    const dashboard = `{
      myExercises(page: {size: 10}) { totalElements content { id name category creator { name } } }
      myTrainings(page: {size: 10}) { totalElements content { id name exerciseCount } }
      myStudents(page: {size: 10}) { totalElements content { studentName student { name } } }
      ${aliases(17, "exercises(page: {size: 10}) { content { creator { name } } }")}
    }`;
    const res = await t.post("/graphql", { body: { query: dashboard }, token: trainer.token });
    expectRan(res);
    expect(res.body.data.myExercises.content).toEqual([{ id: expect.any(Number), name: "Supino", category: "PEITO", creator: { name: "Bruno Personal" } }]);
    expect(res.body.data.a16.content).toEqual([{ creator: { name: "Bruno Personal" } }]);
  });

  it("reads the page size from the variables, whole page or size alone", async () => {
    const trainer = await makeTrainer(t);
    const byPage = `query ($page: PageInput) { ${aliases(17, "exercises(page: $page) { content { creator { name } } }")} }`;
    const bySize = `query ($size: Int) { ${aliases(17, "exercises(page: {size: $size}) { content { creator { name } } }")} }`;
    const send = (query: string, variables: Record<string, unknown>) => t.post("/graphql", { body: { query, variables }, token: trainer.token });

    expectRefusedAsTooCostly(await send(byPage, { page: { size: 100 } }));
    expectRefusedAsTooCostly(await send(bySize, { size: 100 }));
    expectRan(await send(byPage, { page: { size: 10 } }));
    expectRan(await send(bySize, { size: 10 }));
  });

  it("counts the default page size when none is asked", async () => {
    const trainer = await makeTrainer(t);
    const field = "exercises { content { id name creator { id name } } }";
    // Each costs 1 + 20 × 6 = 121: 42 of them 5082, 41 of them 4961.
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: `{ ${aliases(42, field)} }` }, token: trainer.token }));
    expectRan(await t.post("/graphql", { body: { query: `{ ${aliases(41, field)} }` }, token: trainer.token }));
  });

  it("counts 5 items for an entity's parts (a plan's trainings, a training's exercises), at each level", async () => {
    const trainer = await makeTrainer(t);
    const exercise = await createExercise(t, trainer.token);
    const training = await createTraining(t, trainer.token, [exercise.id]);
    await createPlan(t, trainer.token, [training.id]);
    const plans = (size: number) =>
      `{ trainingPlans(page: {size: ${size}}) { content { trainings { training { exercises { exercise { creator { name } } } } } } } }`;
    // A plan costs 1 + (1 + 5 × (1 + 1 + (1 + 5 × 3))) = 87: 100 plans 8701, 50 plans 4351.
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: plans(100) }, token: trainer.token }));
    const res = await t.post("/graphql", { body: { query: plans(50) }, token: trainer.token });
    expectRan(res);
    expect(res.body.data.trainingPlans.content).toHaveLength(1);
  });

  it("leaves out what @include and @skip leave out with the request's variables", async () => {
    const trainer = await makeTrainer(t);
    const query = `query ($all: Boolean!) { me { id } ${aliases(17, `${authored.replace(")", ") @include(if: $all)")}`)} }`;
    const skipped = `query ($few: Boolean!) { me { id } ${aliases(17, `${authored.replace(")", ") @skip(if: $few)")}`)} }`;
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query, variables: { all: true } }, token: trainer.token }));
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: skipped, variables: { few: false } }, token: trainer.token }));
    for (const res of [
      await t.post("/graphql", { body: { query, variables: { all: false } }, token: trainer.token }),
      await t.post("/graphql", { body: { query: skipped, variables: { few: true } }, token: trainer.token }),
    ]) {
      expectRan(res);
      expect(res.body.data).toEqual({ me: { id: trainer.id } });
    }
  });
});

describe("the cost of lists without a page", () => {
  it("counts the change feed's `limit` (default 100, at most 500), as sent or from a variable", async () => {
    const trainer = await makeTrainer(t);
    await createExercise(t, trainer.token, { name: "Supino" });
    // Each costs 1 + limit × (1 + 2): four of 500 cost 6004 (4 × 12 before `limit` counted), four of the default 1204.
    const feed = (limit: string) => `changes${limit} { changes { id data } }`;
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: `{ ${aliases(4, feed("(limit: 500)"))} }` }, token: trainer.token }));
    const byVariable = `query ($limit: Int) { ${aliases(4, feed("(limit: $limit)"))} }`;
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: byVariable, variables: { limit: 500 } }, token: trainer.token }));
    // Past the maximum counts as the maximum (the service refuses it anyway).
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: byVariable, variables: { limit: 100_000 } }, token: trainer.token }));
    const res = await t.post("/graphql", { body: { query: `{ ${aliases(4, feed(""))} }` }, token: trainer.token });
    expectRan(res);
    expect(res.body.data.a3.changes.length).toBeGreaterThan(0);
  });

  it("counts a history list (weight history, records, links) at its cap of 100", async () => {
    const student = await makeStudent(t);
    // 1 + 1 + 1 + 100 × 2 = 203: 25 aliases cost 5075 (25 × 13 before), 24 cost 4872.
    const weights = "me { metrics { weightHistory { date value } } }";
    expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: `{ ${aliases(25, weights)} }` }, token: student.token }));
    expectRan(await t.post("/graphql", { body: { query: `{ ${aliases(24, weights)} }` }, token: student.token }));
    // 1 + 1 + 100 × 2 = 202 each.
    for (const list of ["records { kind value }", "personalRecords { exerciseName value }", "personals { id status }"]) {
      expectRefusedAsTooCostly(await t.post("/graphql", { body: { query: `{ ${aliases(25, `me { ${list} }`)} }` }, token: student.token }));
    }
  });

  it("answers at most 100 personal records, the first by exercise name, wherever GraphQL lists them and in REST's metrics", async () => {
    const student = await makeStudent(t);
    // 120 exercises lifted once each, with their MAX_WEIGHT record and personal record (as logging keeps them), named so that their order is their number.
    await t.db.execute(sql`with made as (
        insert into exercises (name, description, category, created_by)
        select 'Exercício ' || lpad(i::text, 3, '0'), 'x', 'PEITO', ${student.id} from generate_series(1, 120) i returning id, name
      ),
      lifted as (
        insert into exercise_executions (user_id, exercise_id, exercise_name, executed_at, personal_record, completed_sets, total_reps, volume,
          max_weight, weight_sum, weighted_sets)
        select ${student.id}, id, name, timestamptz '2026-01-01T00:00:00Z', true, 1, 1, 50, 50, 50, 1 from made
        returning id, exercise_id, executed_at
      ),
      recorded as (
        insert into exercise_records (user_id, exercise_id, kind, value, reps, weight, achieved_at, exercise_execution_id, set_index, current)
        select ${student.id}, exercise_id, 'MAX_WEIGHT', 50, 1, 50, executed_at, id, 0, true from lifted
      )
      insert into personal_record_holders (user_id, exercise_id, value, exercise_execution_id, exercise_name, executed_at)
      select ${student.id}, l.exercise_id, 50, l.id, m.name, l.executed_at from lifted l join made m on m.id = l.exercise_id`);
    const first100 = Array.from({ length: 100 }, (_, i) => `Exercício ${String(i + 1).padStart(3, "0")}`);
    const res = await t.post("/graphql", {
      body: { query: "{ personalRecords { exerciseName } me { personalRecords { exerciseName } metrics { personalRecords { exerciseName } } } }" },
      token: student.token,
    });
    expectRan(res);
    const names = (records: { exerciseName: string }[]) => records.map((record) => record.exerciseName);
    expect(names(res.body.data.personalRecords)).toEqual(first100);
    expect(names(res.body.data.me.personalRecords)).toEqual(first100);
    expect(names(res.body.data.me.metrics.personalRecords)).toEqual(first100);
    const rest = await t.get("/api/users/metrics", { token: student.token });
    expect(rest.status).toBe(200);
    expect(names(rest.body.personalRecords)).toEqual(first100);
  });

  it("lists the newest 100 weights, oldest first, in the metrics of GraphQL and REST", async () => {
    const student = await makeStudent(t);
    await t.db.execute(sql`insert into weight_history (user_id, weight_kg, recorded_at)
      select ${student.id}, 60 + i / 10.0, timestamptz '2026-01-01T00:00:00Z' + i * interval '1 hour' from generate_series(1, 150) i`);
    const hour = (i: number) => new Date(Date.UTC(2026, 0, 1) + i * 3_600_000).toISOString();
    const newest = Array.from({ length: 100 }, (_, k) => ({ date: hour(51 + k), value: 60 + (51 + k) / 10 }));
    const rest = await t.get("/api/users/metrics", { token: student.token });
    expect(rest.status).toBe(200);
    expect(rest.body.weightHistory).toEqual(newest);
    const res = await t.post("/graphql", { body: { query: "{ me { metrics { weightHistory { date value } } } }" }, token: student.token });
    expectRan(res);
    expect(res.body.data.me.metrics.weightHistory).toEqual(newest);
  });
});

describe("a document asked again", () => {
  // Costs are kept per document and per values of the variables they depend on: a cheap answer never stands for a costly one.
  it("is measured again for other values of its page sizes and conditions, in fragments too, whichever came first", async () => {
    const trainer = await makeTrainer(t);
    const send = (query: string, variables: Record<string, unknown>) => t.post("/graphql", { body: { query, variables }, token: trainer.token });
    const bySize = `query ($size: Int, $name: String) { ${aliases(17, "exercises(filter: {name: $name}, page: {size: $size}) { content { creator { name } } }")} }`;
    expectRan(await send(bySize, { size: 10, name: "a" }));
    expectRefusedAsTooCostly(await send(bySize, { size: 100, name: "a" }));
    expectRan(await send(bySize, { size: 10, name: "b" }));

    const inFragment = `query ($size: Int) { ...Many } fragment Many on Query { ${aliases(17, "exercises(page: {size: $size}) { content { creator { name } } }")} }`;
    expectRan(await send(inFragment, { size: 10 }));
    expectRefusedAsTooCostly(await send(inFragment, { size: 100 }));

    const nested = `query ($all: Boolean!, $size: Int) { me { id } ${aliases(17, "exercises(page: {size: $size}) @include(if: $all) { content { creator { name } } }")} }`;
    expectRan(await send(nested, { all: false, size: 100 }));
    expectRan(await send(nested, { all: true, size: 10 }));
    expectRefusedAsTooCostly(await send(nested, { all: true, size: 100 }));
  });
});

describe("the size of a document", () => {
  it("refuses a document past GRAPHQL_MAX_TOKENS with 400 GRAPHQL_PARSE_FAILED, by POST and GET, before anything runs", async () => {
    const trainer = await makeTrainer(t);
    const register = `mutation { register(input: { name: "Ana", email: "ana@example.com", password: "segredo1", userType: ALUNO,
      requestLocation: WEB, confirmed: true }) { userId ${"success ".repeat(1000)} } }`;
    const wide = `{ me { id ${"name ".repeat(1000)} } }`;
    const answers = [
      await t.post("/graphql", { body: { query: register } }),
      await t.post("/graphql", { body: { query: wide }, token: trainer.token }),
      await t.get(`/graphql?query=${encodeURIComponent(wide)}`, { token: trainer.token }),
      // Issue 10's 400 aliases of 100 exercises with their author.
      await t.post("/graphql", {
        body: { query: `{ ${aliases(400, "exercises(page: {size: 100}) { content { creator { name } } }")} }` },
        token: trainer.token,
      }),
    ];
    for (const res of answers) {
      expect(res.status).toBe(400);
      expect(res.body.data).toBeUndefined();
      expect(res.body.errors).toEqual([
        {
          message: expect.stringContaining("1000 tokens"),
          locations: [expect.any(Object)],
          extensions: { code: "GRAPHQL_PARSE_FAILED", status: 400 },
        },
      ]);
    }
    expect(await userCount()).toBe(1);
  });
});
