import { afterAll, beforeEach, describe, expect, it } from "vitest";
import { planId } from "../factories/billing.js";
import { makeStudent } from "../factories/users.js";
import { FakePixGateway } from "../helpers/fake-pix-gateway.js";
import { useTestApp } from "../helpers/test-app.js";

// A checkout's charge is asked of the gateway outside any transaction; the account may be erased (contract §15) while
// the gateway thinks. What the gateway made is still recorded, against the subscription the erasure canceled: the
// checkout answers 409 and the charge is canceled at the gateway, never left payable with no record of it.
const PIX_KEY = "pix_dev_key_for_erasure_tests";
const pix = new FakePixGateway({ apiKey: PIX_KEY, devMode: true });
await pix.start();
afterAll(() => pix.stop());
const t = useTestApp({ PIX_API_URL: pix.url, PIX_API_KEY: PIX_KEY, PIX_DEV_MODE: "true" });
beforeEach(() => pix.reset());

describe("an erasure while the user's PIX checkout waits on the gateway", () => {
  it("answers 204; the checkout then 409, its charge recorded and canceled at the gateway", async () => {
    const student = await makeStudent(t);
    const hold = pix.hold();
    const checkout = t.post("/api/payments/subscribe", { token: student.token, body: { planId: await planId(t), paymentMethod: "PIX" } });
    await pix.waitForRequests("/v1/pixQrCode/create", 1);
    const erasure = await t.delete("/api/users/me", { token: student.token, body: { password: student.password } });
    hold.release();
    expect(erasure.status).toBe(204);
    expect(hold.releasedBy).toBe("test");
    expect((await checkout).status).toBe(409);
    expect([...pix.charges.values()].map((charge) => charge.status)).toEqual(["CANCELLED"]);
  });
});
