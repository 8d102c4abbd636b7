import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createExercise } from "../factories/content.js";
import { makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

/*
 * Automatic persisted queries (contract §18.5, Apollo's APQ protocol): a client sends a document's SHA-256 instead of
 * the document; the first time, the server does not know it and says so, the client sends both, and from then on the
 * hash alone runs it, over POST and over GET (which a CDN or a browser cache can keep).
 */
const t = useTestApp();

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const persisted = (hash: string) => ({ persistedQuery: { version: 1, sha256Hash: hash } });

const QUERY = "query Names($size: Int!) { exercises(page: { size: $size }) { content { name } } }";

describe("automatic persisted queries", () => {
  it("asks for the document behind an unknown hash, runs it once sent with its hash, then by its hash alone over POST and GET", async () => {
    const coach = await makeTrainer(t);
    await createExercise(t, coach.token, { name: "Remada curvada" });
    const hash = sha256(QUERY);
    const variables = { size: 5 };

    const unknown = await t.post("/graphql", { body: { variables, extensions: persisted(hash) }, token: coach.token });
    expect(unknown.status).toBe(200);
    expect(unknown.body.data).toBeUndefined();
    expect(unknown.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "PERSISTED_QUERY_NOT_FOUND" }) })]);

    const sent = await t.post("/graphql", { body: { query: QUERY, variables, extensions: persisted(hash) }, token: coach.token });
    expect(sent.status).toBe(200);
    expect(sent.body).toEqual({ data: { exercises: { content: [{ name: "Remada curvada" }] } } });

    const byPost = await t.post("/graphql", { body: { variables, extensions: persisted(hash) }, token: coach.token });
    expect(byPost.body).toEqual(sent.body);

    const search = new URLSearchParams({ variables: JSON.stringify(variables), extensions: JSON.stringify(persisted(hash)) });
    const byGet = await t.get(`/graphql?${search}`, { token: coach.token, headers: { accept: "application/json" } });
    expect(byGet.status).toBe(200);
    expect(byGet.body).toEqual(sent.body);

    // Opened as a link in a browser (a CDN's cached GET): the operation's answer, not the IDE's page.
    const fromBrowser = await t.get(`/graphql?${search}`, {
      token: coach.token,
      headers: { accept: "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8" },
    });
    expect(fromBrowser.status).toBe(200);
    expect(fromBrowser.body).toEqual(sent.body);
  });

  it("refuses a document sent with another document's hash, and keeps nothing under that hash", async () => {
    const coach = await makeTrainer(t);
    const hash = sha256("query Other { __typename }");
    const mismatched = await t.post("/graphql", { body: { query: QUERY, variables: { size: 1 }, extensions: persisted(hash) }, token: coach.token });
    expect(mismatched.status).toBe(400);
    expect(mismatched.body.errors).toEqual([{ message: "provided sha does not match query", extensions: { code: "BAD_REQUEST", status: 400 } }]);

    const after = await t.post("/graphql", { body: { variables: { size: 1 }, extensions: persisted(hash) }, token: coach.token });
    expect(after.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "PERSISTED_QUERY_NOT_FOUND" }) })]);
  });

  it("refuses a persisted query of a protocol version it does not speak as the client's mistake", async () => {
    const coach = await makeTrainer(t);
    const refused = await t.post("/graphql", {
      body: { query: QUERY, variables: { size: 1 }, extensions: { persistedQuery: { version: 2, sha256Hash: sha256(QUERY) } } },
      token: coach.token,
    });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([expect.objectContaining({ extensions: { code: "BAD_REQUEST", status: 400 } })]);
  });

  it("keeps no hash of a document that does not validate", async () => {
    const coach = await makeTrainer(t);
    const invalid = "query Broken { exercises { nope } }";
    const hash = sha256(invalid);
    const refused = await t.post("/graphql", { body: { query: invalid, extensions: persisted(hash) }, token: coach.token });
    expect(refused.status).toBe(400);
    expect(refused.body.errors[0].extensions.code).toBe("GRAPHQL_VALIDATION_FAILED");

    const after = await t.post("/graphql", { body: { extensions: persisted(hash) }, token: coach.token });
    expect(after.body.errors).toEqual([expect.objectContaining({ extensions: expect.objectContaining({ code: "PERSISTED_QUERY_NOT_FOUND" }) })]);
  });
});
