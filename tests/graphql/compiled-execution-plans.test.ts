import * as jit from "graphql-jit";
import { afterEach, describe, expect, it, vi } from "vitest";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

// The real graphql-jit, watched: which operations get compiled, and a compilation that throws.
vi.mock("graphql-jit", async (importOriginal) => {
  const original = await importOriginal<typeof import("graphql-jit")>();
  return { ...original, compileQuery: vi.fn(original.compileQuery) };
});
const compileQuery = vi.mocked(jit.compileQuery);

const t = useTestApp();

afterEach(() => {
  compileQuery.mockClear();
});

/** The operation names graphql-jit was asked to compile. */
const compiledNames = () => compileQuery.mock.calls.map((call) => call[2]);

describe("compiled plans of a document run again and again (src/graphql/compiled-execution.ts)", () => {
  it("are made for the document's own operations only: made-up names compile nothing, and answer 400", async () => {
    const student = await makeStudent(t);
    const query = "query A { __typename } query B { __typename }";
    for (let i = 0; i < 3; i += 1) {
      for (const operationName of [`Invented${i}`, "A"]) {
        const answer = await t.post("/graphql", { body: { query, operationName }, token: student.token });
        expect(answer.status).toBe(operationName === "A" ? 200 : 400);
      }
    }
    expect(compiledNames()).toEqual(["A"]);
  });

  it("a document graphql-jit fails to compile is answered by graphql-js, every time", async () => {
    const student = await makeStudent(t, { name: "Ana Compilada" });
    compileQuery.mockImplementationOnce(() => {
      throw new Error("graphql-jit cannot compile this");
    });
    const query = "query Me { me { id name } }";
    for (let i = 0; i < 3; i += 1) {
      const answer = await t.post("/graphql", { body: { query }, token: student.token });
      expect(answer.status).toBe(200);
      expect(answer.body).toEqual({ data: { me: { id: student.id, name: "Ana Compilada" } } });
    }
    // Tried once, on the second run (no operation name sent), and it threw; the failure is remembered, not retried.
    expect(compiledNames()).toEqual([undefined]);
    expect(compileQuery.mock.results.map((result) => result.type)).toEqual(["throw"]);
  });
});
