import { describe, expect, it } from "vitest";
import { makeStudent } from "../factories/users.js";
import { useSecondInstance, useTestApp } from "../helpers/test-app.js";
import { addMonths, billingOf, planId, profileOf } from "./support.js";

// Concurrent PIX checkouts of one user and plan on two instances of the service, on the default sandbox gateway
// (each instance has its own, as each would reach the one real gateway): one charge, one QR code, one period paid.
const SECRET = "pix-instances-webhook-secret";
const t = useTestApp({ WEBHOOK_SECRET: SECRET });
const other = useSecondInstance(t, { WEBHOOK_SECRET: SECRET });

describe("PIX checkouts of one user and plan on two instances", () => {
  it("make one charge for 20 at once, every answer its QR code, and paying it credits one period", async () => {
    const ana = await makeStudent(t);
    const plan = await planId(t, "Mensal");
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        i % 2 === 0
          ? t.post("/api/subscriptions", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } }).then((res) => [res.status, res.body.pix?.brCode])
          : other
              .post("/api/payments/subscribe", { token: ana.token, body: { planId: plan, paymentMethod: "PIX" } })
              .then((res) => [res.status, res.body.brCode]),
      ),
    );

    const rows = await billingOf(t, ana.id);
    expect(rows.pix).toHaveLength(1);
    const [charge] = rows.pix;
    expect(answers).toEqual(Array(20).fill([201, charge.brCode]));
    expect(rows.subscriptions.map((s) => s.status)).toEqual(["PENDING"]);
    expect(rows.invoices.map((i) => i.status)).toEqual(["PENDING"]);

    for (const app of [t, other]) {
      const paid = await app.post("/api/webhooks/pix/payment", {
        headers: { "content-type": "application/json", "x-webhook-secret": SECRET },
        raw: JSON.stringify({ event: "billing.paid", data: { id: charge.id, status: "PAID" } }),
      });
      expect(paid.status).toBe(200);
    }
    const after = await billingOf(t, ana.id);
    expect(after.payments.map((p) => [p.status, p.transactionId])).toEqual([["COMPLETED", charge.id]]);
    const [subscription] = after.subscriptions;
    expect(subscription.status).toBe("ACTIVE");
    expect(subscription.endDate).toEqual(addMonths(subscription.startDate!, 1));
    expect((await profileOf(t, ana.token)).subscriptionType).toBe("PREMIUM_MENSAL");
  });
});
