import { describe, expect, it } from "vitest";
import { createExercise } from "../factories/content.js";
import { makeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

const MY_EXERCISES = `query ($orderBy: [ExerciseOrderBy!], $page: PageInput) { myExercises(orderBy: $orderBy, page: $page) { content { name category } } }`;

describe("a listing's orderBy", () => {
  it("orders as REST's sort does, the first order first, in place of the deprecated PageInput.sort; an unknown order is refused by the schema", async () => {
    const trainer = await makeUser(t, { userType: "PERSONAL" });
    for (const [name, category] of [
      ["Remada", "COSTAS"],
      ["Agachamento", "PERNAS"],
      ["Barra fixa", "COSTAS"],
      ["Leg press", "PERNAS"],
    ])
      await createExercise(t, trainer.token, { name, category });
    const names = async (variables: Record<string, unknown>) => {
      const res = await t.graphql<{ myExercises: { content: { name: string }[] } }>(MY_EXERCISES, variables, trainer.token);
      expect(res.errors).toBeUndefined();
      return res.data!.myExercises.content.map((exercise) => exercise.name);
    };
    const rest = async (query: string) =>
      ((await t.get(`/api/exercises/my-exercises?${query}`, { token: trainer.token })).body.content as { name: string }[]).map((exercise) => exercise.name);

    expect(await names({ orderBy: ["NAME_DESC"] })).toEqual(["Remada", "Leg press", "Barra fixa", "Agachamento"]);
    expect(await names({ orderBy: ["CATEGORY_ASC", "NAME_DESC"] })).toEqual(["Remada", "Barra fixa", "Leg press", "Agachamento"]);
    expect(await names({ orderBy: ["CATEGORY_ASC", "NAME_DESC"] })).toEqual(await rest("sort=category,asc&sort=name,desc"));
    // Without orderBy: the deprecated PageInput.sort still orders; without either, by name.
    expect(await names({ page: { sort: ["name,desc"] } })).toEqual(await rest("sort=name,desc"));
    expect(await names({})).toEqual(["Agachamento", "Barra fixa", "Leg press", "Remada"]);

    const unknown = await t.post<{ errors: { message: string; extensions: { code: string } }[] }>("/graphql", {
      body: { query: `{ myExercises(orderBy: [NAME_SIDEWAYS]) { content { name } } }` },
      token: trainer.token,
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });
});
