import { describe, expect, it } from "vitest";
import { signCardEvent } from "../../src/modules/billing/gateways/card/card-event-signature.js";
import { makeStudent } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { billingCounts, billingOf, planId } from "./support.js";

// No WEBHOOK_SECRET (nor PIX_WEBHOOK_SECRET / CARD_WEBHOOK_SECRET): contract §11 says every webhook call is refused.
const t = useTestApp();

describe("webhooks without WEBHOOK_SECRET", () => {
  it.each([
    ["any secret", "some-secret"],
    ["an empty secret", ""],
    ["the word undefined", "undefined"],
    ["no header at all", null],
  ])("refuses a PIX payment with %s: 403, empty body, nothing paid", async (_label, secret) => {
    const ana = await makeStudent(t);
    const pix = await t.post("/api/payments/subscribe", { token: ana.token, body: { planId: await planId(t), paymentMethod: "PIX" } });
    expect(pix.status).toBe(201);
    const before = await billingCounts(t);

    const headers: Record<string, string> = { "content-type": "application/json" };
    if (secret !== null) headers["x-webhook-secret"] = secret;
    const res = await t.post("/api/webhooks/pix/payment", {
      headers,
      raw: JSON.stringify({ event: "billing.paid", data: { id: pix.body.id, status: "PAID" } }),
    });

    expect(res.status).toBe(403);
    expect(res.text).toBe("");
    expect(await billingCounts(t)).toEqual(before);
    const rows = await billingOf(t, ana.id);
    expect(rows.subscriptions[0].status).toBe("PENDING");
    expect(rows.pix[0].status).toBe("PENDING");
  });

  it("refuses a card event signed with any secret: 400, empty body", async () => {
    const raw = JSON.stringify({
      id: "evt_unconfigured",
      type: "payment_intent.succeeded",
      data: { object: { id: "pi_1", metadata: { subscriptionId: "1" } } },
    });
    for (const path of ["/api/payments/webhook", "/api/webhooks/card"]) {
      const header = signCardEvent(raw, "whatever", Math.floor(t.clock.now().getTime() / 1000));
      const res = await t.post(path, { headers: { "content-type": "application/json", "card-signature": header }, raw });
      expect(res.status).toBe(400);
      expect(res.text).toBe("");
    }
    expect((await billingCounts(t)).gatewayEvents).toBe(0);
  });
});
