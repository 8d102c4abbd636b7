import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { exerciseBody, exerciseForm } from "../factories/content.js";
import { makeTrainer } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

const TOO_DEEP = { message: "Corpo da requisição muito aninhado", success: false };

/** JSON text of arrays nested `levels` deep: `[[[]]]`. */
const nestedArrays = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
/** JSON text of objects nested `levels` deep: `{"a":{"a":1}}`. */
const nestedObjects = (levels: number) => '{"a":'.repeat(levels) + "1" + "}".repeat(levels);

const HOSTILE = [
  ["arrays 5,000 deep", nestedArrays(5_000)],
  ["objects 10,000 deep", nestedObjects(10_000)],
] as const;

/** A valid registration body as JSON text, with `extra` (any JSON text) as one more field. */
const registration = (email: string, extra: string) =>
  JSON.stringify({ name: "Ana", email, password: "segredo1", userType: "ALUNO", requestLocation: "WEB", confirmed: true }).replace(/}$/, `,"extra":${extra}}`);

const postJson = (url: string, raw: string, token?: string) => t.post(url, { raw, token, headers: { "content-type": "application/json" } });

async function userCount(): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
  return row.n;
}

describe("JSON nested too deep", () => {
  it.each(HOSTILE)("answers 400 to a registration carrying %s, registering nobody", async (_label, deep) => {
    const res = await postJson("/api/users/register", registration("ana@example.com", deep));
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    expect(await userCount()).toBe(0);
    expect(t.logLines.join("")).not.toContain("unhandled error");
  });

  it.each(HOSTILE)("answers 400 to a training carrying %s, storing no training", async (_label, deep) => {
    const trainer = await makeTrainer(t);
    const body = JSON.stringify({ name: "Treino", exercises: [{ exerciseId: 1, sets: 3 }] }).replace(/}$/, `,"notes":${deep}}`);
    const res = await postJson("/api/trainings", body, trainer.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    expect((await t.get("/api/trainings/my-trainings", { token: trainer.token })).body.totalElements).toBe(0);
  });

  it.each(HOSTILE)("answers 400 to the multipart exercise part carrying %s, storing no exercise", async (_label, deep) => {
    const trainer = await makeTrainer(t);
    const part = JSON.stringify(exerciseBody()).replace(/}$/, `,"instructions":${deep}}`);
    const res = await t.post("/api/exercises", { invalidRequest: true, token: trainer.token, raw: exerciseForm(part) });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    expect((await t.get("/api/exercises/my-exercises", { token: trainer.token })).body.totalElements).toBe(0);
  });

  it.each(HOSTILE)("answers 400 to a GraphQL request whose variables carry %s, running nothing", async (_label, deep) => {
    const input = registration("ana@example.com", deep);
    const res = await postJson(
      "/graphql",
      `{"query":"mutation ($input: RegisterInput!) { register(input: $input) { userId } }","variables":{"input":${input}}}`,
    );
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    expect(await userCount()).toBe(0);
  });

  it.each(HOSTILE)("answers 400 to a GraphQL multipart request whose operations carry %s, running nothing", async (_label, deep) => {
    const form = new FormData();
    const input = registration("ana@example.com", deep);
    form.append("operations", `{"query":"mutation ($input: RegisterInput!) { register(input: $input) { userId } }","variables":{"input":${input}}}`);
    form.append("map", "{}");
    const res = await t.post("/graphql", { raw: form, headers: { "apollo-require-preflight": "1" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(TOO_DEEP);
    expect(await userCount()).toBe(0);
  });

  it("takes a body nested 32 levels deep and refuses one of 33, brackets inside strings not counted", async () => {
    // The body's own object is the first level.
    const within = await postJson("/api/users/register", registration("ana@example.com", nestedArrays(31)));
    expect(within.status).toBe(201);
    const past = await postJson("/api/users/register", registration("bia@example.com", nestedArrays(32)));
    expect(past.status).toBe(400);
    expect(past.body).toEqual(TOO_DEEP);
    const quoted = await postJson("/api/users/register", registration("caio@example.com", JSON.stringify(`\\"${"[{".repeat(100)}`)));
    expect(quoted.status).toBe(201);
    expect(await userCount()).toBe(2);
  });

  it("still names the field of a NUL character deep in a body", async () => {
    const trainer = await makeTrainer(t);
    const res = await t.post("/api/trainings", {
      token: trainer.token,
      body: {
        name: "Treino",
        exercises: [
          { exerciseId: 1, sets: 3 },
          { exerciseId: 2, sets: 3, notes: "a\u0000b" },
        ],
      },
    });
    expect(res.status).toBe(400);
    expect(res.body.errors).toContainEqual({ field: "exercises[1].notes", message: "Caractere inválido" });
  });

  it("keeps answering cheap requests while several clients send the deepest bodies 1 MB allows", async () => {
    const deepest = registration("ana@example.com", nestedArrays(450_000));
    const hostile = Array.from({ length: 4 }, async () => {
      const statuses: number[] = [];
      for (let i = 0; i < 3; i++) statuses.push((await postJson("/api/users/register", deepest)).status);
      return statuses;
    });
    const cheap = Array.from({ length: 6 }, () => t.get("/healthz"));
    for (const res of await Promise.all(cheap)) expect(res.status).toBe(200);
    for (const statuses of await Promise.all(hostile)) expect(statuses).toEqual([400, 400, 400]);
    expect(await userCount()).toBe(0);
  });
});
