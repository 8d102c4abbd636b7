import { eq, sql } from "drizzle-orm";
import { subscriptionPlans } from "../../src/tables/billing.table.js";
import { rowsOf } from "../helpers/database.js";
import type { TestApp } from "../helpers/test-app.js";
import type { MadeUser } from "./users.js";

/** Sandbox test cards of contract §8. */
export const CARD_ACCEPTED = "4242424242424242";
export const CARD_DECLINED = "4000000000000002";
export const CARD_INSUFFICIENT_FUNDS = "4000000000009995";

/** Card fields of POST /subscriptions: accepted by the sandbox, expiring well after the test clock. */
export function cardFields(t: TestApp, overrides: Partial<Record<string, unknown>> = {}) {
  return {
    cardNumber: CARD_ACCEPTED,
    cardHolderName: "ANA SOUZA",
    cardExpirationMonth: "12",
    cardExpirationYear: String(t.clock.now().getUTCFullYear() + 3),
    cardCvv: "123",
    ...overrides,
  };
}

/** The seeded plan's id by its name (ids come from the seed migration; never assumed). */
export async function planId(t: TestApp, name = "Mensal"): Promise<number> {
  const [row] = await t.db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).where(eq(subscriptionPlans.name, name));
  if (!row) throw new Error(`no plan named ${name}`);
  return row.id;
}

/** POST /subscriptions by card (accepted unless the overrides say otherwise). */
export async function subscribeByCard(t: TestApp, user: MadeUser, plan: number, card: Partial<Record<string, unknown>> = {}) {
  return t.post("/api/subscriptions", { token: user.token, body: { planId: plan, paymentMethod: "CREDIT_CARD", ...cardFields(t, card) } });
}

/** Row counts of the billing tables. */
export async function billingCounts(t: TestApp) {
  const [row] = rowsOf<{ subscriptions: number; payments: number; invoices: number; pix: number }>(
    await t.db.execute(sql`select
      (select count(*)::int from subscriptions) as subscriptions,
      (select count(*)::int from payments) as payments,
      (select count(*)::int from invoices) as invoices,
      (select count(*)::int from pix_transactions) as pix`),
  );
  return row;
}
