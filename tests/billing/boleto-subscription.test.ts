import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { mod11 } from "../../src/modules/billing/boleto.js";
import { makeStudent } from "../factories/users.js";
import { rowsOf } from "../helpers/database.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

describe("subscribing by boleto", () => {
  it("answers 201 PENDING with a boleto for the pending invoice, and gives no access yet", async () => {
    const ana = await makeStudent(t);
    const plans = await t.get("/api/subscription-plans?userType=ALUNO&interval=ANNUAL", { token: ana.token });
    const res = await t.post("/api/subscriptions", { token: ana.token, body: { planId: plans.body[0].id, paymentMethod: "BOLETO" } });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({ status: "PENDING", paymentMethod: "BOLETO", price: 449.9, planName: "Anual" });
    expect(res.body).not.toHaveProperty("pix");

    const [invoice] = rowsOf<{ id: number; status: string; amount_cents: number; due_date: Date | string }>(
      await t.db.execute(sql`select id, status, amount_cents, due_date from invoices`),
    );
    expect(invoice).toMatchObject({ status: "PENDING", amount_cents: 44990 });
    const { barcode, digitableLine, dueDate, amount } = res.body.boleto;
    expect(amount).toBe(449.9);
    expect(dueDate).toBe(new Date(invoice.due_date).toISOString().slice(0, 10));
    expect(barcode).toMatch(/^\d{44}$/);
    expect(barcode.slice(9, 19)).toBe("0000044990");
    expect(Number(barcode.slice(19))).toBe(invoice.id);
    expect(barcode[4]).toBe(mod11(barcode.slice(0, 4) + barcode.slice(5)));
    expect(digitableLine.replace(/[ .]/g, "")).toMatch(/^\d{47}$/);

    const profile = await t.get("/api/users/profile", { token: ana.token });
    expect(profile.body.subscriptionType).toBe("FREEMIUM");
    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine.body).toMatchObject({ id: res.body.id, status: "PENDING" });
  });
});
