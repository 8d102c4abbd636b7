import { describe, expect, it } from "vitest";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { makeUser } from "../factories/users.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";

// Contract §16: every answer names its request; a shutting-down instance stops being ready at once.
const WEBHOOK_SECRET = "whsec_card_webhook_secret_for_tests";
const t = useTestApp({ WEBHOOK_SECRET });
const leaving = useSecondInstance(t, { WEBHOOK_SECRET });

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

describe("X-Request-Id", () => {
  it("echoes the client's usable id, or gives a new one, on REST, GraphQL, errors and health answers alike", async () => {
    const ana = await makeUser(t);
    const mine = await t.get("/api/users/profile", { token: ana.token, headers: { "x-request-id": "trace-4bf92f3577b34da6a3ce929d0e0e4736" } });
    expect(mine.headers.get("x-request-id")).toBe("trace-4bf92f3577b34da6a3ce929d0e0e4736");
    const answers = [
      await t.get("/api/users/profile", { token: ana.token }),
      await t.get("/api/users/profile"),
      await t.post("/graphql", { body: { query: "{ me { id } }" }, token: ana.token }),
      await t.get("/healthz"),
      await t.get("/api/nowhere", { invalidRequest: true }),
    ];
    const ids = answers.map((answer) => answer.headers.get("x-request-id"));
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it("replaces an id that could forge log lines or is too long", async () => {
    for (const sent of ["a b", "x".repeat(129), "id\u00e9", ""]) {
      const answer = await t.get("/healthz", { headers: { "x-request-id": sent } });
      expect(answer.headers.get("x-request-id"), JSON.stringify(sent)).toMatch(UUID);
    }
  });

  it("names the request in every log line written while serving it", async () => {
    // An event of the card gateway about no subscription of ours is acknowledged and logged (payment-events.service).
    const raw = JSON.stringify({
      id: "evt_request_id",
      object: "event",
      type: "invoice.paid",
      created: Math.floor(t.clock.now().getTime() / 1000),
      data: { object: { id: "in_unknown", subscription: "sub_unknown" } },
    });
    const signature = signCardEvent(raw, WEBHOOK_SECRET, Math.floor(t.clock.now().getTime() / 1000));
    t.logLines.length = 0;
    const answer = await t.post("/api/payments/webhook", {
      headers: { "content-type": "application/json", "Card-Signature": signature, "x-request-id": "req-logged-2" },
      raw,
    });
    expect(answer.status).toBe(200);
    const lines = t.logLines.map((line) => JSON.parse(line) as { msg: string; requestId?: string });
    expect(lines).toContainEqual(expect.objectContaining({ msg: "card event names no subscription of ours; ignored", requestId: "req-logged-2" }));
  });
});

describe("an instance shutting down", () => {
  // Its connections, each closed after its answer, are tested on the real process (lifecycle.test.ts).
  it("answers /readyz 503 at once, still answering requests", async () => {
    const ana = await makeUser(t);
    expect((await leaving.get("/readyz")).status).toBe(200);
    await leaving.app.beginShutdown();
    expect((await leaving.get("/readyz")).status).toBe(503);
    expect((await leaving.get("/api/users/profile", { token: ana.token })).status).toBe(200);
    // The other instance is unaffected.
    expect((await t.get("/readyz")).status).toBe(200);
  });
});
