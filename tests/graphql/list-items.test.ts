import { describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent } from "../factories/users.js";

// Ten items: one user's eight weeks of metrics fit, two users' do not.
const t = useTestApp({ GRAPHQL_MAX_LIST_ITEMS: "10" });

const weeks = (count: number) => `{ ${Array.from({ length: count }, (_, i) => `m${i}: me { metrics { weeklyProgress { date } } }`).join(" ")} }`;

describe("the items the lists of one GraphQL request hold", () => {
  it("answers the lists while they hold at most GRAPHQL_MAX_LIST_ITEMS items", async () => {
    const student = await makeStudent(t);
    const res = await t.post("/graphql", { body: { query: weeks(1) }, token: student.token });
    expect(res.status).toBe(200);
    expect(res.body.data.m0.metrics.weeklyProgress).toHaveLength(8);
  });

  it("answers RESPONSE_TOO_LARGE 400 alone, with no data, past them, saying what to ask instead", async () => {
    const student = await makeStudent(t);
    // Cheap as counted (2 × 11) but 16 items.
    const res = await t.post("/graphql", { body: { query: weeks(2) }, token: student.token });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      data: null,
      errors: [
        {
          message: "A consulta lista mais de 10 itens: peça páginas menores (page.size, limit) ou menos listas aninhadas",
          extensions: { code: "RESPONSE_TOO_LARGE", status: 400 },
        },
      ],
    });
    expect(t.logLines.join("")).not.toContain("unhandled GraphQL error");
  });
});
