import { describe, expect, it } from "vitest";
import { makeUser } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

/** Every root lookup by id, each asked for a row that does not exist, beside a field that answers. */
const LOOKUPS = `{
  exerciseCategories
  exercise(id: 424242) { id }
  invoice(id: 424242) { id }
  payment(id: 424242) { id }
  pixTransaction(id: "pix_424242") { status }
  subscriptionPlan(id: 424242) { id }
  training(id: 424242) { id }
  trainingExecution(id: 424242) { id }
  trainingPlan(id: 424242) { id }
  user(id: 424242) { id }
  webhookEndpoint(id: 424242) { id }
}`;
const NAMES = [
  "exercise",
  "invoice",
  "payment",
  "pixTransaction",
  "subscriptionPlan",
  "training",
  "trainingExecution",
  "trainingPlan",
  "user",
  "webhookEndpoint",
];

describe("root lookups by id", () => {
  it("answer a missing row as null with its NOT_FOUND error beside it, and the sibling fields keep their data", async () => {
    const trainer = await makeUser(t, { userType: "PERSONAL" });
    const res = await t.post<{ data: Record<string, unknown>; errors: { path: string[]; extensions: { code: string } }[] }>("/graphql", {
      body: { query: LOOKUPS },
      token: trainer.token,
    });

    expect(res.status).toBe(200);
    expect(res.body.data.exerciseCategories).toHaveLength(10);
    for (const name of NAMES) expect(res.body.data[name], name).toBeNull();
    const errors = res.body.errors;
    expect(errors.map((error) => error.path[0]).sort()).toEqual([...NAMES].sort());
    expect(new Set(errors.map((error) => error.extensions.code))).toEqual(new Set(["NOT_FOUND"]));
  });
});
