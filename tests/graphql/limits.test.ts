import { sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { useTestApp } from "../helpers/test-app.js";
import { rowsOf } from "../helpers/database.js";
import { makeUser } from "../factories/users.js";
import { startUnmigratedApp, type UnmigratedApp } from "../helpers/unmigrated-app.js";

// The users schema is at most 3 levels deep (register → user → id), so a limit of 2 is what lets a real
// operation of this schema pass it; 600 bytes hold six answers of `me { id name }` with a short name.
const t = useTestApp({ GRAPHQL_MAX_DEPTH: "2", GRAPHQL_MAX_COMPLEXITY: "20", GRAPHQL_MAX_RESPONSE_BYTES: "600" });

const registerInput = (n: number) =>
  `{ name: "Aluno ${n}", email: "aluno${n}@example.com", password: "segredo1", userType: ALUNO, requestLocation: WEB, confirmed: true }`;

async function userCount() {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from users`));
  return row.n;
}

/** Nothing that looks like a stack trace, a stack property or a source path. */
function expectNoStack(text: string) {
  expect(text).not.toMatch(/stack/i);
  expect(text).not.toMatch(/\bat \S.*:\d+:\d+/);
  expect(text).not.toMatch(/node_modules|file:\/\/|\.ts:\d+/);
}

async function postGraphql(query: string, token?: string) {
  return t.post("/graphql", { body: { query }, token });
}

describe("GraphQL depth limit", () => {
  it("runs an operation within the depth limit", async () => {
    const made = await makeUser(t);
    const res = await postGraphql("{ me { id name } }", made.token);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { id: made.id, name: made.user.name } } });
  });

  it("refuses an operation deeper than GRAPHQL_MAX_DEPTH before it runs", async () => {
    const res = await postGraphql(`mutation { register(input: ${registerInput(1)}) { user { id } } }`);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(res.body.errors[0].message).toContain("profundidade");
    expect(await userCount()).toBe(0);
  });

  it("follows named and inline fragments when measuring depth", async () => {
    const named = await postGraphql(`mutation { register(input: ${registerInput(1)}) { ...Session } } fragment Session on AuthPayload { user { id } }`);
    const inline = await postGraphql(`mutation { register(input: ${registerInput(2)}) { ... on AuthPayload { user { id } } } }`);
    for (const res of [named, inline]) {
      expect(res.status).toBe(400);
      expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    }
    expect(await userCount()).toBe(0);
  });

  it("measures a fragment once however often it is spread: 25 stacked fragments spreading the previous twice", async () => {
    // Following every spread walks 2^25 copies of F0; /healthz waited behind it.
    let query = "fragment F0 on Query { exercises { content { id } } }\n";
    for (let i = 1; i <= 25; i++) query += `fragment F${i} on Query { ...F${i - 1} ...F${i - 1} }\n`;
    const [res, health] = await Promise.all([postGraphql(`${query}{ ...F25 }`), t.get("/healthz")]);
    expect(health.status).toBe(200);
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual([
      { message: "A consulta excede a profundidade máxima de 2 (tem 3)", extensions: { code: "GRAPHQL_VALIDATION_FAILED", status: 400 } },
    ]);
  });
});

describe("GraphQL complexity limit", () => {
  it("runs aliases of me while their cost stays within GRAPHQL_MAX_COMPLEXITY", async () => {
    const made = await makeUser(t);
    // Each `me { id name }` costs 3: six of them cost 18.
    const query = `{ ${Array.from({ length: 6 }, (_, i) => `m${i}: me { id name }`).join(" ")} }`;
    const res = await postGraphql(query, made.token);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body.data)).toHaveLength(6);
    expect(res.body.data.m5).toEqual({ id: made.id, name: made.user.name });
  });

  it("refuses aliases of me that cost more than GRAPHQL_MAX_COMPLEXITY", async () => {
    const made = await makeUser(t);
    const query = `{ ${Array.from({ length: 7 }, (_, i) => `m${i}: me { id name }`).join(" ")} }`;
    const res = await postGraphql(query, made.token);
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([{ message: expect.stringContaining("complexidade"), extensions: { code: "GRAPHQL_VALIDATION_FAILED", status: 400 } }]);
  });

  it("counts the fields a fragment brings into every alias", async () => {
    const made = await makeUser(t);
    const query = `{ a: me { ...Everything } b: me { ...Everything } }
      fragment Everything on User { id name email userType phone gender height weight subscriptionType emailConfirmed createdAt }`;
    const res = await postGraphql(query, made.token);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
  });

  it("refuses a costly batch of mutations before any of them runs", async () => {
    // Each `register { userId }` costs 2: eleven of them cost 22.
    const query = `mutation { ${Array.from({ length: 11 }, (_, i) => `r${i}: register(input: ${registerInput(i)}) { userId }`).join(" ")} }`;
    const res = await postGraphql(query);
    expect(res.status).toBe(400);
    expect(res.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");
    expect(await userCount()).toBe(0);
  });

  it("answers BAD_USER_INPUT 400, not a server error, to a variable of the wrong type", async () => {
    const made = await makeUser(t);
    const res = await t.post("/graphql", { body: { query: "query ($id: Int!) { user(id: $id) { id } }", variables: { id: "um" } }, token: made.token });
    expect(res.status).toBe(400);
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].extensions).toEqual({ code: "BAD_USER_INPUT", status: 400 });
    expect(t.logLines.join("")).not.toContain("unhandled GraphQL error");
  });
});

describe("GraphQL answer size limit", () => {
  it("answers RESPONSE_TOO_LARGE 400, with no data, when the data passes GRAPHQL_MAX_RESPONSE_BYTES, and what to do", async () => {
    const made = await makeUser(t, { name: "N".repeat(120) });
    // Five names of 120 characters, some 700 bytes: within the cost limit (15), past the size limit.
    const res = await postGraphql(`{ ${Array.from({ length: 5 }, (_, i) => `m${i}: me { id name }`).join(" ")} }`, made.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      data: null,
      errors: [{ message: expect.stringContaining("excede o limite de 600 bytes"), extensions: { code: "RESPONSE_TOO_LARGE", status: 400 } }],
    });
    expect(res.body.errors[0].message).toContain("peça menos itens (page.size, limit)");
    expectNoStack(res.text);
    // Four of them (some 560 bytes) are answered.
    const fewer = await postGraphql(`{ ${Array.from({ length: 4 }, (_, i) => `m${i}: me { id name }`).join(" ")} }`, made.token);
    expect(fewer.status).toBe(200);
    expect(fewer.body.data.m3).toEqual({ id: made.id, name: "N".repeat(120) });
  });
});

describe("GraphQL over HTTP", () => {
  it("answers a query sent with GET /graphql?query= and a token", async () => {
    const made = await makeUser(t);
    const res = await t.get(`/graphql?query=${encodeURIComponent("{me{id}}")}`, { token: made.token });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { id: made.id } } });
  });

  it("answers UNAUTHENTICATED to GET /graphql?query={me{id}} without a token", async () => {
    const res = await t.get(`/graphql?query=${encodeURIComponent("{me{id}}")}`);
    expect(res.status).toBe(200);
    expect(res.body.data).toEqual({ me: null });
    expect(res.body.errors).toHaveLength(1);
    expect(res.body.errors[0].message).toBe("Token inválido ou expirado");
    expect(res.body.errors[0].extensions).toEqual({ code: "UNAUTHENTICATED", status: 401 });
  });

  it.each([
    ["variables that are not JSON", `query=${encodeURIComponent("{me{id}}")}&variables=%7Bnot-json`],
    ["extensions that are not JSON", `query=${encodeURIComponent("{me{id}}")}&extensions=%7B`],
    ["a repeated query", "query=%7Bme%7Bid%7D%7D&query=%7Bme%7Bid%7D%7D"],
    ["a repeated operationName", `query=${encodeURIComponent("{me{id}}")}&operationName=a&operationName=b`],
    ["no query", ""],
    ["a query given as an object", "query[a]=b"],
  ])("answers GET /graphql with %s 400 BAD_REQUEST, without running anything", async (_label, search) => {
    const made = await makeUser(t);
    const res = await t.get(`/graphql?${search}`, { token: made.token, headers: { "apollo-require-preflight": "1" } });
    expect(res.status).toBe(400);
    expect(res.body.data).toBeUndefined();
    expect(res.body.errors).toEqual([{ message: expect.any(String), extensions: { code: "BAD_REQUEST", status: 400 } }]);
    expectNoStack(res.text);
    expect(t.logLines.join("")).not.toContain("unhandled");
  });

  it("does not run a mutation sent with GET", async () => {
    const made = await makeUser(t);
    const res = await t.get(`/graphql?query=${encodeURIComponent("mutation{logout{success}}")}`, { token: made.token });
    expect(res.status).toBe(405);
    expect(res.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 405 });
    expect((await t.get("/api/users/profile", { token: made.token })).status).toBe(200);
  });

  it("answers 400 JSON inválido to malformed JSON", async () => {
    const res = await t.post("/graphql", { raw: '{"query": "{ me { id } ', headers: { "content-type": "application/json" } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "JSON inválido", success: false });
  });

  it("answers 400 to a syntax error and to an unknown field, without a stack", async () => {
    const syntax = await postGraphql("{ me { id ");
    expect(syntax.status).toBe(400);
    expect(syntax.body.errors[0].extensions).toEqual({ code: "GRAPHQL_PARSE_FAILED", status: 400 });
    const unknown = await postGraphql("{ everyone { id } }");
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors[0].extensions).toEqual({ code: "GRAPHQL_VALIDATION_FAILED", status: 400 });
    for (const res of [syntax, unknown]) expectNoStack(res.text);
  });

  it("leaks no stack in any error answer it gives", async () => {
    const made = await makeUser(t);
    const answers = await Promise.all([
      postGraphql("{ me { id } }"),
      postGraphql("{ me { id } }", "bad-token"),
      t.post("/graphql", { body: { query: "query ($id: Int!) { user(id: $id) { id } }", variables: { id: 999_999 } }, token: made.token }),
      t.post("/graphql", { body: { query: 'mutation { login(input: {email: "x", password: "y"}) { token } }' } }),
      t.post("/graphql", {
        body: {
          query: 'mutation { register(input: {name: "", email: "x", password: "1", userType: ALUNO, requestLocation: WEB, confirmed: true}) { token } }',
        },
      }),
      postGraphql(`mutation { register(input: ${registerInput(1)}) { user { id } } }`),
      t.post("/graphql", { body: {} }),
      t.post("/graphql", { raw: "{", headers: { "content-type": "application/json" } }),
    ]);
    for (const res of answers) {
      expect(res.text.length).toBeGreaterThan(0);
      expectNoStack(res.text);
    }
  });
});

describe("an unexpected failure behind GraphQL", () => {
  let broken: UnmigratedApp;
  beforeAll(async () => {
    broken = await startUnmigratedApp();
  });
  afterAll(() => broken?.stop());

  it("answers a bare INTERNAL_SERVER_ERROR without a stack and logs the cause", async () => {
    const response = await fetch(`${broken.baseUrl}/graphql`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ query: 'mutation { login(input: {email: "ana@example.com", password: "segredo1"}) { token } }' }),
    });
    const text = await response.text();
    expect(JSON.parse(text)).toEqual({
      data: null,
      errors: [{ message: "Erro interno do servidor", path: ["login"], extensions: { code: "INTERNAL_SERVER_ERROR", status: 500 } }],
    });
    expectNoStack(text);
    const logged = broken.logLines.join("");
    expect(logged).toContain("unhandled GraphQL error");
    expect(logged).toContain("does not exist");
  });
});
