import { describe, expect, it } from "vitest";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { useTestApp } from "../helpers/test-app.js";
import { billingCounts } from "./support.js";

const SECRET = "whsec_card_webhook_secret_for_tests";
const t = useTestApp({ WEBHOOK_SECRET: SECRET });

/** Posts a card event signed as the gateway would sign it. */
function sendSigned(event: Record<string, unknown>) {
  const raw = JSON.stringify(event);
  const header = signCardEvent(raw, SECRET, Math.floor(t.clock.now().getTime() / 1000));
  return t.post("/api/payments/webhook", { headers: { "content-type": "application/json", "Card-Signature": header }, raw });
}

const event = (overrides: Record<string, unknown>) => ({
  id: "evt_ok_1",
  object: "event",
  type: "payment_intent.succeeded",
  data: { object: { id: "pi_1", amount_received: 4990, metadata: {} } },
  ...overrides,
});

describe("card webhook event ids and types", () => {
  it.each([
    ["an id holding U+0000", { id: "evt_\u0000_1" }],
    ["an id of 256 characters", { id: "e".repeat(256) }],
    ["a type holding U+0000", { type: "payment_intent.succeeded\u0000" }],
  ])("answers 400 with an empty body to a signed event with %s, before the database sees it", async (_label, overrides) => {
    const res = await t.withInvalidRequests(() => sendSigned(event(overrides)));
    expect(res.status).toBe(400);
    expect(res.text).toBe("");
    expect((await billingCounts(t)).gatewayEvents).toBe(0);
    expect(t.logLines.join("")).not.toContain("card gateway event failed");
  });

  it("still records a signed event with an ordinary id", async () => {
    const res = await sendSigned(event({ id: "evt_ok_2" }));
    expect(res.status).toBe(200);
    expect((await billingCounts(t)).gatewayEvents).toBe(1);
  });
});
