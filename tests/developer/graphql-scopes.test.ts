import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { makeStudent, makeTrainer } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { openSocket } from "../helpers/graphql-socket.js";
import { useTestApp } from "../helpers/test-app.js";
import { personalToken } from "./support.js";

const t = useTestApp();

const refusal = (path: (string | number)[], scope?: string) => ({
  message: "Escopo insuficiente",
  path,
  extensions: { code: "INSUFFICIENT_SCOPE", status: 403, ...(scope ? { scope } : {}) },
});

describe("GraphQL fields guarded by scope (contract §18.2)", () => {
  it("answers a field outside the token's scopes with null and INSUFFICIENT_SCOPE, and serves the rest", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["content:read"]);
    const res = await t.graphql("{ exerciseCategories exercises { totalElements } me { id } }", {}, token);
    expect(res.data).toEqual({ exerciseCategories: expect.any(Array), exercises: { totalElements: 0 }, me: null });
    expect(res.errors).toEqual([expect.objectContaining(refusal(["me"], "profile:read"))]);
  });

  it("guards the fields that lead into another domain: a profile token reads the profile but not the activity hung on it", async () => {
    const ana = await makeStudent(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const res = await t.graphql("{ me { id name executions { totalElements } subscription { status } } }", {}, token);
    expect(res.data).toEqual({ me: { id: ana.id, name: ana.user.name, executions: null, subscription: null } });
    expect(res.errors).toEqual([
      expect.objectContaining(refusal(["me", "executions"], "activity:read")),
      expect.objectContaining(refusal(["me", "subscription"], "billing:read")),
    ]);
    const wider = await personalToken(t, ana, ["profile:read", "activity:read"]);
    const allowed = await t.graphql("{ me { executions { totalElements } } }", {}, wider);
    expect(allowed.errors).toBeUndefined();
    expect(allowed.data).toEqual({ me: { executions: { totalElements: 0 } } });
  });

  it("refuses a mutation outside the token's scopes without running it", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["content:read"]);
    const res = await t.graphql('mutation { createTraining(input: { name: "Treino A", exercises: [] }) { id } }', {}, token);
    expect({ data: res.data, errors: res.errors }).toEqual({
      data: { createTraining: null },
      errors: [expect.objectContaining(refusal(["createTraining"], "content:write"))],
    });
    expect(rowsOf(await t.db.execute(sql`select id from trainings`))).toEqual([]);
  });

  it("keeps what needs a login session (logout, deleting the account) from every personal token", async () => {
    const ana = await makeTrainer(t);
    const token = await personalToken(t, ana, ["profile:read", "profile:write"]);
    const res = await t.graphql("mutation { logout { message } }", {}, token);
    expect({ data: res.data, errors: res.errors }).toEqual({ data: { logout: null }, errors: [expect.objectContaining(refusal(["logout"]))] });
    expect((await t.graphql("{ me { id } }", {}, token)).data).toEqual({ me: { id: ana.id } });
  });

  it("serves everything to a login token, as before", async () => {
    const ana = await makeTrainer(t);
    const res = await t.graphql("{ me { id executions { totalElements } } trainerDashboard { students { active } subscription { planName } } }", {}, ana.token);
    expect(res.errors).toBeUndefined();
    expect(res.data.me).toEqual({ id: ana.id, executions: { totalElements: 0 } });
  });

  it("checks a subscription's scope when it subscribes", async () => {
    const ana = await makeStudent(t);
    const token = await personalToken(t, ana, ["profile:read"]);
    const socket = openSocket(t, token);
    await socket.connected;
    const refused = socket.subscribe("subscription { trainingExecutionLogged { id } }");
    await refused.ended;
    expect([...refused.events, ...refused.errors]).toEqual([{ errors: [expect.objectContaining(refusal(["trainingExecutionLogged"], "activity:read"))] }]);
    await socket.close();
  });

  it("names every guarded field's scope in the schema, and makes it nullable", async () => {
    const res = await t.graphql('{ __type(name: "Query") { fields { name description type { kind } } } }');
    const me = res.data.__type.fields.find((field: { name: string }) => field.name === "me");
    expect(me).toEqual({ name: "me", description: expect.stringContaining("Needs scope `profile:read`."), type: { kind: "OBJECT" } });
    const open = res.data.__type.fields.filter((field: { description: string | null }) => !/Needs (scope|a login session)/.test(field.description ?? ""));
    expect(open.map((field: { name: string }) => field.name)).toEqual(["exerciseCategories", "rateLimit"]);
  });
});
