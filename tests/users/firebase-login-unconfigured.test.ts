import { afterAll, describe, expect, it } from "vitest";
import { startJwksServer } from "../helpers/jwks-server.js";
import { useTestApp } from "../helpers/test-app.js";
import { makeStudent } from "../factories/users.js";

// A key server that would vouch for the token, so only the missing FIREBASE_PROJECT_ID can refuse it.
const jwks = await startJwksServer("fitness-test");
const t = useTestApp({ FIREBASE_JWKS_URL: jwks.url });
afterAll(() => jwks.stop());

describe("POST /api/users/firebase-login without FIREBASE_PROJECT_ID", () => {
  it("answers 400 to an otherwise valid ID token of a registered e-mail, and never fetches keys", async () => {
    await makeStudent(t, { email: "sem-firebase@example.com" });
    const res = await t.post("/api/users/firebase-login", { body: { firebaseToken: await jwks.idToken("sem-firebase@example.com") } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Token do provedor de identidade inválido", success: false });
    expect(res.body).not.toHaveProperty("token");
    expect(jwks.requests).toBe(0);
  });

  it("still validates the body first", async () => {
    const res = await t.post("/api/users/firebase-login", { invalidRequest: true, body: {} });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ message: "Validation failed", success: false, errors: [{ field: "firebaseToken", message: expect.any(String) }] });
  });
});
