import type { FuzzRequest } from "./client.js";
import { DEEP, nestedArrays, nestedObjects } from "./hostile.js";
import type { Random } from "./random.js";
import { ACTING_ROLES, multipartBody, type World } from "./world.js";

/**
 * Fragments of the fragment bomb: each spreads the previous one twice, so naive walks visit 2^n fields. 16 keeps the
 * run bounded whatever the query limits do today; raise it (FUZZ_GRAPHQL_FRAGMENTS) to see where they give.
 */
const FRAGMENTS = Number(process.env.FUZZ_GRAPHQL_FRAGMENTS ?? 16);

const json = (value: unknown) => Buffer.from(JSON.stringify(value));

/** A handful of hostile GraphQL requests: deep, exponential, wide, huge, malformed; each as a random role or anonymous. */
export function graphqlRequests(world: World, rng: Random): FuzzRequest[] {
  const students = (depth: number) => `{ me { ${"students { student { ".repeat(depth)}id${" } }".repeat(depth)} } }`;
  const braces = (depth: number) => `{ ${"a { ".repeat(depth)}b${" }".repeat(depth)} }`;
  const fragments = [
    "fragment F0 on User { id name }",
    ...Array.from({ length: FRAGMENTS }, (_, i) => `fragment F${i + 1} on User { ...F${i} ...F${i} }`),
  ].join("\n");
  const aliases = (n: number, field: string) => `{ ${Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ")} }`;
  const exerciseById = "query ($id: Int!) { exercise(id: $id) { id name } }";
  const documents: Array<[string, { body: Buffer; type?: string; method?: string; path?: string }]> = [
    ["selection nested 40 deep through User.students", { body: json({ query: students(40) }) }],
    [`braces nested ${DEEP} deep`, { body: json({ query: braces(DEEP) }) }],
    [`fragment bomb (${FRAGMENTS} fragments, each spreading the previous twice)`, { body: json({ query: `{ me { ...F${FRAGMENTS} } }\n${fragments}` }) }],
    ["2,000 aliases of me { id }", { body: json({ query: aliases(2_000, "me { id }") }) }],
    ["10,000 aliases of __typename", { body: json({ query: aliases(10_000, "__typename") }) }],
    ["2,000 copies of one field", { body: json({ query: `{ ${"me { id } ".repeat(2_000)}}` }) }],
    ["1,000 @include directives on one field", { body: json({ query: `{ __typename ${"@include(if: true) ".repeat(1_000)}}` }) }],
    ["string literal of 900 KB", { body: json({ query: `mutation { login(input: { email: "${"x".repeat(900_000)}", password: "x" }) { token } }` }) }],
    [
      "variable of 900 KB",
      { body: json({ query: "query ($n: String) { exercises(filter: { name: $n }) { totalElements } }", variables: { n: "x".repeat(900_000) } }) },
    ],
    [
      `variable nested ${DEEP} deep`,
      { body: Buffer.from(`{"query":"query ($f: ExerciseFilter) { exercises(filter: $f) { totalElements } }","variables":{"f":${nestedObjects(DEEP)}}}`) },
    ],
    [`variables nested ${DEEP} deep (arrays)`, { body: Buffer.from(`{"query":"{ __typename }","variables":${nestedArrays(DEEP)}}`) }],
    ["Int variable 1e309", { body: Buffer.from(`{"query":${JSON.stringify(exerciseById)},"variables":{"id":1e309}}`) }],
    ["Int variable 2^31", { body: json({ query: exerciseById, variables: { id: 2 ** 31 } }) }],
    ["Int variable 1.5", { body: json({ query: exerciseById, variables: { id: 1.5 } }) }],
    ["Int variable abc", { body: json({ query: exerciseById, variables: { id: "abc" } }) }],
    ["Int literal of 20 digits", { body: json({ query: "{ exercise(id: 99999999999999999999) { id } }" }) }],
    [
      "String id with U+0000 and RTL",
      { body: json({ query: "query ($id: String!) { pixTransaction(id: $id) { id } }", variables: { id: "a\u0000\u202Eb" } }) },
    ],
    [
      "introspection nested through ofType",
      { body: json({ query: `{ __schema { types { fields { type ${"{ ofType ".repeat(30)}{ name }${" }".repeat(30)} } } } }` }) },
    ],
    ["two anonymous operations", { body: json({ query: "{ __typename } { __typename }" }) }],
    ["unknown operationName", { body: json({ query: "query A { __typename }", operationName: "B".repeat(10_000) }) }],
    ["query is a number", { body: json({ query: 123 }) }],
    ["query is null", { body: json({ query: null }) }],
    ["variables is a string", { body: json({ query: "{ __typename }", variables: "x" }) }],
    ["empty object", { body: json({}) }],
    ["batch of 500 operations", { body: json(Array.from({ length: 500 }, () => ({ query: "{ me { id } }" }))) }],
    ["truncated JSON", { body: Buffer.from('{"query":"{ me { id }') }],
    ["not JSON", { body: Buffer.from("query { me { id } }") }],
    ["application/graphql content type", { body: Buffer.from("{ __typename }"), type: "application/graphql" }],
    ["text/plain content type", { body: json({ query: "{ __typename }" }), type: "text/plain" }],
    ["multipart without a boundary", { body: Buffer.from("x"), type: "multipart/form-data" }],
    [
      "multipart whose operations is not JSON",
      {
        body: multipartBody("gqlfuzz", [
          { name: "operations", data: "{not json" },
          { name: "map", data: "{}" },
        ]),
        type: "multipart/form-data; boundary=gqlfuzz",
      },
    ],
    [
      "multipart map naming a missing file",
      {
        body: multipartBody("gqlfuzz", [
          { name: "operations", data: JSON.stringify({ query: "mutation ($f: Upload!) { updateProfilePhoto(file: $f) { id } }", variables: { f: null } }) },
          { name: "map", data: JSON.stringify({ 0: ["variables.f"], 1: ["variables.__proto__"] }) },
        ]),
        type: "multipart/form-data; boundary=gqlfuzz",
      },
    ],
    ["mutation sent with GET", { body: Buffer.alloc(0), method: "GET", path: `/graphql?query=${encodeURIComponent("mutation { logout { success } }")}` }],
    ["GET with a 10 KB query", { body: Buffer.alloc(0), method: "GET", path: `/graphql?query=${encodeURIComponent(`{ ${"__typename ".repeat(900)}}`)}` }],
    ["GET with query as an object", { body: Buffer.alloc(0), method: "GET", path: "/graphql?query[a]=b&variables=%7B" }],
  ];
  return documents.map(([label, document]) => {
    const role = rng.chance(0.2) ? undefined : rng.pick(ACTING_ROLES);
    const headers: Record<string, string> = {};
    if (document.body.length > 0) headers["content-type"] = document.type ?? "application/json";
    if (role) headers.authorization = `Bearer ${world.token(role)}`;
    return {
      operation: `${document.method ?? "POST"} /graphql`,
      label,
      as: role ?? "anonymous",
      method: document.method ?? "POST",
      path: document.path ?? "/graphql",
      headers,
      body: document.body.length > 0 ? document.body : undefined,
    };
  });
}
