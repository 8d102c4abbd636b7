import { describe, expect, it } from "vitest";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";

// Production with WEBHOOKS_ALLOW_PRIVATE_URLS=true: an internal receiver is allowed, still over https only.
const t = useTestApp({
  NODE_ENV: "production",
  PUBLIC_BASE_URL: "https://api.fitness.test",
  ALLOW_SANDBOX_PAYMENTS: "true",
  WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
});

describe("webhook URLs in production with WEBHOOKS_ALLOW_PRIVATE_URLS=true", () => {
  it("accepts https URLs on private and loopback addresses, and still refuses http", async () => {
    const user = await makeStudent(t);
    for (const url of ["https://localhost:8443/hooks", "https://10.0.0.5/hooks", "https://[::1]/hooks"]) {
      const res = await t.post("/api/webhook-endpoints", { token: user.token, body: { url, events: ["invite.updated"] } });
      expect([url, res.status]).toEqual([url, 201]);
    }
    const http = await t.post("/api/webhook-endpoints", { token: user.token, body: { url: "http://10.0.0.5/hooks", events: ["invite.updated"] } });
    expect([http.status, http.body.errors]).toEqual([400, [{ field: "url", message: "A URL deve usar https" }]]);
  });
});
