import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { makeTrainer } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { appTokens, ISSUER, registerApp } from "./oauth-client.js";
import { personalToken } from "./support.js";

const t = useTestApp({ PUBLIC_BASE_URL: ISSUER });

const ME = "query Me { me { id name } }";
const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");
const byHash = (hash: string) => ({ extensions: { persistedQuery: { version: 1, sha256Hash: hash } } });

describe("persisted operations (contract §18.5)", () => {
  it("an app registers its documents and, once it runs them only, its tokens run them by hash and nothing else", async () => {
    const owner = await makeTrainer(t);
    const app = await registerApp(t, owner);
    const registered = await t.put(`/api/developer/apps/${app.id}/documents`, { token: owner.token, body: { documents: [ME] } });
    expect(registered.status).toBe(200);
    expect(registered.body).toEqual({ hashes: [sha256(ME)] });
    const trusted = await t.patch(`/api/developer/apps/${app.id}`, { token: owner.token, body: { trustedDocumentsOnly: true } });
    expect(trusted.body.trustedDocumentsOnly).toBe(true);

    const token = (await appTokens(t, app, owner)).access_token;

    const run = await t.post("/graphql", { token, body: byHash(sha256(ME)) });
    expect(run.body.data).toEqual({ me: { id: owner.id, name: owner.user.name } });

    const required = { message: "Este aplicativo só executa documentos registrados, pelo hash", extensions: { code: "PERSISTED_QUERY_REQUIRED", status: 400 } };
    // Text, even the registered text itself; another hash (known to APQ or not); a mutation's text.
    for (const body of [
      { query: ME },
      { query: "{ me { email } }" },
      byHash(sha256("{ me { email } }")),
      { query: ME, ...byHash(sha256(ME)) },
      { query: 'mutation { updateProfile(input: { name: "X" }) { name } }' },
    ]) {
      const res = await t.post("/graphql", { token, body, invalidRequest: true });
      expect({ body, status: res.status, errors: res.body.errors }).toEqual({ body, status: 400, errors: [expect.objectContaining(required)] });
      expect(res.body.data).toBeUndefined();
    }
    expect((await t.get("/api/users/profile", { token: owner.token })).body.name).toBe(owner.user.name);

    // The owner's login token, and personal tokens, are not bound by the app's choice.
    expect((await t.graphql("{ me { email } }", {}, owner.token)).data).toEqual({ me: { email: owner.email } });
    expect((await t.graphql("{ me { email } }", {}, await personalToken(t, owner, ["profile:read"]))).data).toEqual({ me: { email: owner.email } });

    // Turned off, the app's tokens run any document again.
    await t.patch(`/api/developer/apps/${app.id}`, { token: owner.token, body: { trustedDocumentsOnly: false } });
    expect((await t.graphql("{ me { email } }", {}, token)).data).toEqual({ me: { email: owner.email } });
  });

  it("refuses a document that does not parse, and another user's app", async () => {
    const owner = await makeTrainer(t);
    const stranger = await makeTrainer(t);
    const app = await registerApp(t, owner);
    expect(
      (await t.put(`/api/developer/apps/${app.id}/documents`, { token: owner.token, body: { documents: ["{ me { "] }, invalidRequest: true })).status,
    ).toBe(400);
    expect((await t.put(`/api/developer/apps/${app.id}/documents`, { token: stranger.token, body: { documents: [ME] } })).status).toBe(403);
  });
});
