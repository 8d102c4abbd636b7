import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { subscriptions } from "../../src/tables/billing.table.js";
import { makeStudent, type MadeUser, relogin } from "../factories/users.js";
import { useTestApp } from "../helpers/test-app.js";
import { addMonths, billingOf, cardBody, DAY_MS, planId, subjectsTo, subscriptionRow, userRow } from "./support.js";

// The sandbox card gateway; the renewal job is run by hand with the test clock.
const t = useTestApp();

const HOUR = 60 * 60 * 1000;
const MINUTE = 60 * 1000;

/** An ACTIVE card subscription bought now through POST /api/subscriptions (charged by the job at renewal). */
async function cardSubscription(user?: MadeUser) {
  const ana = user ?? (await makeStudent(t));
  const res = await t.post("/api/subscriptions", { token: ana.token, body: cardBody(await planId(t)) });
  expect(res.status).toBe(201);
  const row = await subscriptionRow(t, res.body.id);
  expect(row).toMatchObject({ status: "ACTIVE", autoRenew: true, gatewaySubscriptionId: null });
  return { ana, id: row.id, endDate: row.endDate! };
}

const run = () => t.app.services.renewals.run();
const at = (date: Date) => t.clock.set(date);

describe("renewal job: automatic renewal by card", () => {
  it("charges a subscription ending within 3 days: a COMPLETED payment, a PAID invoice, one more month, an e-mail", async () => {
    const { ana, id, endDate } = await cardSubscription();
    at(new Date(endDate.getTime() - 3 * DAY_MS + MINUTE));

    expect(await run()).toEqual({ renewed: 1, failed: 0, reminded: 0, expired: 0 });

    const row = await subscriptionRow(t, id);
    const newEnd = addMonths(endDate, 1);
    expect(row).toMatchObject({ status: "ACTIVE", endDate: newEnd, renewalDate: newEnd, renewalFailures: 0 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => [p.status, p.amountCents, p.paymentMethod])).toEqual([
      ["COMPLETED", 4990, "CREDIT_CARD"],
      ["COMPLETED", 4990, "CREDIT_CARD"],
    ]);
    expect(rows.payments[1].transactionId).not.toBe(rows.payments[0].transactionId);
    expect(rows.payments[1].lastFourDigits).toBe("4242");
    expect(rows.invoices.map((i) => [i.status, i.paymentId])).toEqual([
      ["PAID", rows.payments[0].id],
      ["PAID", rows.payments[1].id],
    ]);
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "PREMIUM_MENSAL", subscriptionExpiresAt: newEnd });

    const mails = await subjectsTo(t, ana.email);
    expect(mails).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
    const [renewal] = t.smtp.to(ana.email).filter((m) => m.subject === "Assinatura renovada");
    expect(renewal.text).toContain("R$ 49,90");

    // Visible over HTTP as the caller's own records.
    await relogin(t, ana);
    const payments = await t.get("/api/payments", { token: ana.token });
    expect(payments.body.content.map((p: { status: string }) => p.status)).toEqual(["COMPLETED", "COMPLETED"]);
    const mine = await t.get("/api/subscriptions/my-subscription", { token: ana.token });
    expect(mine.body).toMatchObject({ id, status: "ACTIVE", endDate: newEnd.toISOString() });
  });

  it("does not charge earlier than 3 days before the end", async () => {
    const { ana, id, endDate } = await cardSubscription();
    at(new Date(endDate.getTime() - 3 * DAY_MS - MINUTE));

    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    expect((await subscriptionRow(t, id)).endDate).toEqual(endDate);
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado"]);

    at(new Date(endDate.getTime() - 3 * DAY_MS + MINUTE));
    expect((await run()).renewed).toBe(1);
  });

  it("charges once when the job runs twice (and when two runs race)", async () => {
    const { ana, id, endDate } = await cardSubscription();
    at(new Date(endDate.getTime() - 2 * DAY_MS));

    const [first, second] = await Promise.all([run(), run()]);
    expect(first.renewed + second.renewed).toBe(1);
    t.clock.advance(HOUR);
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });

    expect((await subscriptionRow(t, id)).endDate).toEqual(addMonths(endDate, 1));
    expect((await billingOf(t, ana.id)).payments).toHaveLength(2);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Assinatura renovada"]);
  });

  it("renews again a month later, from the end of the renewed period", async () => {
    const { ana, id, endDate } = await cardSubscription();
    at(new Date(endDate.getTime() - DAY_MS));
    await run();
    const second = addMonths(endDate, 1);
    at(new Date(second.getTime() - DAY_MS));
    expect((await run()).renewed).toBe(1);
    expect((await subscriptionRow(t, id)).endDate).toEqual(addMonths(second, 1));
    expect((await billingOf(t, ana.id)).payments).toHaveLength(3);
  });
});

describe("renewal job: a refused renewal", () => {
  async function failingSubscription() {
    const subscribed = await cardSubscription();
    // Arrangement: the saved card now refuses every charge (the sandbox's test token for a declined card).
    await t.db.update(subscriptions).set({ gatewayPaymentMethodId: "pm_card_chargeDeclined" }).where(eq(subscriptions.id, subscribed.id));
    return subscribed;
  }

  it("records a FAILED payment and e-mails the failure, keeping the paid period ACTIVE", async () => {
    const { ana, id, endDate } = await failingSubscription();
    at(new Date(endDate.getTime() - 2 * DAY_MS));

    expect(await run()).toEqual({ renewed: 0, failed: 1, reminded: 0, expired: 0 });

    const row = await subscriptionRow(t, id);
    expect(row).toMatchObject({ status: "ACTIVE", endDate, renewalFailures: 1 });
    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED", "FAILED"]);
    expect(rows.payments[1]).toMatchObject({ amountCents: 4990, failureReason: "card_declined" });
    expect(rows.invoices).toHaveLength(1);
    expect((await userRow(t, ana.id)).subscriptionType).toBe("PREMIUM_MENSAL");
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento"]);
  });

  it("retries at the next runs up to 3 tries, then expires at endDate and puts the user back to FREEMIUM", async () => {
    const { ana, id, endDate } = await failingSubscription();
    at(new Date(endDate.getTime() - 2 * DAY_MS));
    for (let attempt = 1; attempt <= 3; attempt += 1) {
      expect((await run()).failed).toBe(1);
      expect((await subscriptionRow(t, id)).renewalFailures).toBe(attempt);
      t.clock.advance(HOUR);
    }
    // No fourth try.
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    t.clock.advance(DAY_MS);
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });

    const rows = await billingOf(t, ana.id);
    expect(rows.payments.map((p) => p.status)).toEqual(["COMPLETED", "FAILED", "FAILED", "FAILED"]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento", "Falha no pagamento", "Falha no pagamento"]);
    expect((await subscriptionRow(t, id)).status).toBe("ACTIVE");
    expect((await userRow(t, ana.id)).subscriptionType).toBe("PREMIUM_MENSAL");

    at(new Date(endDate.getTime() + MINUTE));
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 1 });
    expect(await subscriptionRow(t, id)).toMatchObject({ status: "EXPIRED", renewalDate: null });
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(4);
    expect((await subjectsTo(t, ana.email)).at(-1)).toBe("Assinatura expirada");

    await relogin(t, ana);
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).status).toBe(404);
    // Nothing more happens at later runs.
    t.clock.advance(HOUR);
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
  });

  it("renews on a retry once the card works again, and clears the failure count", async () => {
    const { ana, id, endDate } = await failingSubscription();
    at(new Date(endDate.getTime() - 2 * DAY_MS));
    expect((await run()).failed).toBe(1);

    await t.db.update(subscriptions).set({ gatewayPaymentMethodId: "pm_card_visa" }).where(eq(subscriptions.id, id));
    t.clock.advance(HOUR);
    expect((await run()).renewed).toBe(1);

    expect(await subscriptionRow(t, id)).toMatchObject({ status: "ACTIVE", endDate: addMonths(endDate, 1), renewalFailures: 0 });
    expect((await billingOf(t, ana.id)).payments.map((p) => p.status)).toEqual(["COMPLETED", "FAILED", "COMPLETED"]);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Falha no pagamento", "Assinatura renovada"]);
  });
});

describe("renewal job: autoRenew off", () => {
  it("sends one reminder instead of charging, then expires at endDate with the user back to FREEMIUM", async () => {
    const { ana, id, endDate } = await cardSubscription();
    const off = await t.put(`/api/subscriptions/${id}`, { token: ana.token, body: { autoRenew: false } });
    expect(off.status).toBe(200);
    expect(off.body).toMatchObject({ id, autoRenew: false, status: "ACTIVE" });

    at(new Date(endDate.getTime() - 2 * DAY_MS));
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 1, expired: 0 });
    t.clock.advance(HOUR);
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });

    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    expect(await subjectsTo(t, ana.email)).toEqual(["Pagamento confirmado", "Sua assinatura está perto do fim"]);
    const [reminder] = t.smtp.to(ana.email).filter((m) => m.subject === "Sua assinatura está perto do fim");
    expect(reminder.text).toContain(endDate.toISOString().slice(0, 10).split("-").reverse().join("/"));
    expect((await userRow(t, ana.id)).subscriptionType).toBe("PREMIUM_MENSAL");

    at(new Date(endDate.getTime() + MINUTE));
    expect((await run()).expired).toBe(1);
    expect((await subscriptionRow(t, id)).status).toBe("EXPIRED");
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    const subjects = await subjectsTo(t, ana.email);
    expect(subjects.filter((s) => s === "Sua assinatura está perto do fim")).toHaveLength(1);
  });
});

describe("renewal job: canceled at the end of the period", () => {
  it("keeps access until endDate without charging, and ends it after", async () => {
    const { ana, id, endDate } = await cardSubscription();
    const cancel = await t.post(`/api/subscriptions/${id}/cancel`, { token: ana.token, body: { cancelImmediately: false } });
    expect(cancel.status).toBe(200);
    expect(cancel.body).toMatchObject({ status: "CANCELED", endDate: endDate.toISOString(), renewalDate: null });

    at(new Date(endDate.getTime() - DAY_MS));
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "PREMIUM_MENSAL", subscriptionExpiresAt: endDate });
    await relogin(t, ana);
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).body).toMatchObject({ id, status: "CANCELED" });

    at(new Date(endDate.getTime() + MINUTE));
    await run();
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
    expect((await subscriptionRow(t, id)).status).toBe("CANCELED");
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);
    await relogin(t, ana);
    expect((await t.get("/api/subscriptions/my-subscription", { token: ana.token })).status).toBe(404);
  });

  it("ends the other lapsed subscriptions when one fails, and that one at a later run", async () => {
    const ana = await cardSubscription();
    const bia = await cardSubscription();
    for (const { ana: user, id } of [ana, bia]) {
      expect((await t.post(`/api/subscriptions/${id}/cancel`, { token: user.token, body: { cancelImmediately: false } })).status).toBe(200);
    }
    // A fault inside the database while Ana's access is being ended.
    await t.db.execute(
      sql.raw(`create function refuse_ending() returns trigger language plpgsql as $$ begin
        if new.id = ${ana.ana.id} and new.subscription_type = 'FREEMIUM' then raise exception 'refused'; end if; return new; end $$`),
    );
    await t.db.execute(sql.raw("create trigger refuse_ending before update on users for each row execute function refuse_ending()"));
    at(new Date(Math.max(ana.endDate.getTime(), bia.endDate.getTime()) + MINUTE));
    try {
      await run();
    } finally {
      await t.db.execute(sql.raw("drop function refuse_ending() cascade"));
    }
    expect(await userRow(t, bia.ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
    expect(await userRow(t, ana.ana.id)).toMatchObject({ subscriptionType: "PREMIUM_MENSAL" });

    await run();
    expect(await userRow(t, ana.ana.id)).toMatchObject({ subscriptionType: "FREEMIUM", subscriptionExpiresAt: null });
  });

  it("does not take away the access of a later subscription canceled at its period end", async () => {
    const { ana, id: first, endDate: firstEnd } = await cardSubscription();
    await t.post(`/api/subscriptions/${first}/cancel`, { token: ana.token, body: { cancelImmediately: false } });
    at(new Date(firstEnd.getTime() + HOUR));
    await run();
    expect((await userRow(t, ana.id)).subscriptionType).toBe("FREEMIUM");

    await relogin(t, ana);
    const { id: second, endDate: secondEnd } = await cardSubscription(ana);
    expect((await t.post(`/api/subscriptions/${second}/cancel`, { token: ana.token, body: { cancelImmediately: false } })).status).toBe(200);
    const before = await userRow(t, ana.id);
    expect(before).toMatchObject({ subscriptionType: "PREMIUM_MENSAL", subscriptionExpiresAt: secondEnd });

    // The first subscription's period is long over; later runs must not touch the second one's access.
    t.clock.advance(HOUR);
    await run();
    t.clock.advance(HOUR);
    await run();
    expect(await userRow(t, ana.id)).toMatchObject({ subscriptionType: "PREMIUM_MENSAL", subscriptionExpiresAt: secondEnd, updatedAt: before.updatedAt });

    at(new Date(secondEnd.getTime() + MINUTE));
    await run();
    expect((await userRow(t, ana.id)).subscriptionType).toBe("FREEMIUM");
  });
});

describe("renewal job: subscriptions the gateway renews", () => {
  it("does not charge a gateway-managed card subscription; without the gateway's invoice event it expires at endDate", async () => {
    const ana = await makeStudent(t);
    const res = await t.post("/api/payments/subscribe", {
      token: ana.token,
      body: { planId: await planId(t), paymentMethod: "CREDIT_CARD", paymentMethodId: "pm_card_visa" },
    });
    expect(res.status).toBe(201);
    const endDate = new Date(res.body.endDate);

    at(new Date(endDate.getTime() - DAY_MS));
    expect(await run()).toEqual({ renewed: 0, failed: 0, reminded: 0, expired: 0 });
    expect((await billingOf(t, ana.id)).payments).toHaveLength(1);

    at(new Date(endDate.getTime() + MINUTE));
    expect((await run()).expired).toBe(1);
    expect((await subscriptionRow(t, res.body.id)).status).toBe("EXPIRED");
    expect((await userRow(t, ana.id)).subscriptionType).toBe("FREEMIUM");
  });
});
