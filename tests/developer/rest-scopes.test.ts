import { describe, expect, it } from "vitest";
import { makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { personalToken } from "./support.js";

const t = useTestApp();

type Operation = { operationId: string; security: Record<string, string[]>[] };

async function operations(): Promise<Operation[]> {
  const document = (await t.get("/api/openapi.json")).body as { paths: Record<string, Record<string, Operation>> };
  return Object.values(document.paths).flatMap((path) => Object.values(path));
}

describe("REST operations and their scopes (contract §18.2)", () => {
  it("every operation that reads a token names its scope, for app and personal tokens alike; the rest take a login session", async () => {
    const loginOnly: string[] = [];
    for (const op of await operations()) {
      if (op.security.length === 0) continue;
      const scoped = op.security.filter((alternative) => !("bearer" in alternative) && Object.keys(alternative).length > 0);
      expect(op.security, op.operationId).toContainEqual({ bearer: [] });
      if (scoped.length === 0) loginOnly.push(op.operationId);
      else expect(scoped, op.operationId).toEqual([{ oauth2: [expect.any(String)] }, { personalToken: scoped[0]!.oauth2 }]);
    }
    expect(loginOnly.sort()).toEqual(
      [
        "cancelCheckoutSubscription",
        "cancelSubscription",
        "checkout",
        "createDeveloperApp",
        "createPersonalToken",
        "deleteDeveloperApp",
        "getDeveloperApp",
        "listAuthorizations",
        "listDeveloperApps",
        "revokeAuthorization",
        "rotateDeveloperAppSecret",
        "updateDeveloperApp",
        "deleteMyAccount",
        "deletePersonalToken",
        "deleteUser",
        "exportMyData",
        "listPersonalTokens",
        "registerDeveloperAppDocuments",
        "logout",
        "refreshToken",
        "simulatePixPayment",
        "subscribe",
        "updateSubscription",
      ].sort(),
    );
  });

  it("declares the oauth2 scheme with the authorization-code flow and every scope", async () => {
    const document = (await t.get("/api/openapi.json")).body;
    const { oauth2 } = document.components.securitySchemes;
    expect(Object.keys(oauth2.flows)).toEqual(["authorizationCode"]);
    expect(Object.keys(oauth2.flows.authorizationCode.scopes).sort()).toEqual(
      [
        "activity:read",
        "activity:write",
        "billing:read",
        "content:read",
        "content:write",
        "offline_access",
        "profile:read",
        "profile:write",
        "students:read",
        "students:write",
        "webhooks:manage",
      ].sort(),
    );
  });

  it("answers each operation's own scope: a token with it passes, one without it is refused with the scope named", async () => {
    const ana = await makeTrainer(t);
    const cases: [string, string, string][] = [
      ["/api/exercises/my-exercises", "content:read", "profile:read"],
      ["/api/personal/students", "students:read", "content:read"],
      ["/api/personal/dashboard", "activity:read", "students:read"],
      ["/api/webhook-endpoints", "webhooks:manage", "activity:read"],
      ["/api/payments", "billing:read", "webhooks:manage"],
      ["/api/sync/changes", "activity:read", "billing:read"],
    ];
    for (const [path, needed, other] of cases) {
      const allowed = await t.get(path, { token: await personalToken(t, ana, [needed]) });
      expect(allowed.status, path).toBe(200);
      const refused = await t.get(path, { token: await personalToken(t, ana, [other]) });
      expect({ path, status: refused.status, body: refused.body }).toEqual({ path, status: 403, body: { message: "Escopo insuficiente", success: false } });
      expect(refused.headers.get("www-authenticate")).toBe(`Bearer error="insufficient_scope", scope="${needed}"`);
    }
  });

  it("on an operation whose token is optional, an anonymous call is served and a token without the scope is refused", async () => {
    const ana = await makeTrainer(t);
    expect((await t.get("/api/exercises")).status).toBe(200);
    expect((await t.get("/api/exercises", { token: await personalToken(t, ana, ["profile:read"]) })).status).toBe(403);
    expect((await t.get("/api/exercises", { token: await personalToken(t, ana, ["content:read"]) })).status).toBe(200);
  });
});
