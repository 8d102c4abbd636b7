import { asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { invoices, payments, pixTransactions, subscriptions } from "../../src/tables/billing.table.js";
import { users } from "../../src/tables/user.table.js";
import { rowsOf } from "../helpers/database.js";
import type { TestApp } from "../helpers/test-app.js";

/** Helpers shared by the billing flow tests: seeded plan ids, the billing rows of a user, e-mails, a text dump. */

export { DAY_MS } from "../../src/platform/dates.js";
export { ISO } from "../helpers/shapes.js";

/** The id of a seeded catalogue plan (Mensal: ALUNO, 49.90, MONTHLY, PREMIUM_MENSAL). */
export { planId } from "../factories/billing.js";

/** Every billing row of a user, oldest first. */
export async function billingOf(t: TestApp, userId: number) {
  const [subs, pays, invs, pix] = await Promise.all([
    t.db.select().from(subscriptions).where(eq(subscriptions.userId, userId)).orderBy(asc(subscriptions.id)),
    t.db.select().from(payments).where(eq(payments.userId, userId)).orderBy(asc(payments.id)),
    t.db.select().from(invoices).where(eq(invoices.userId, userId)).orderBy(asc(invoices.id)),
    t.db.select().from(pixTransactions).where(eq(pixTransactions.userId, userId)).orderBy(asc(pixTransactions.createdAt)),
  ]);
  return { subscriptions: subs, payments: pays, invoices: invs, pix };
}

export async function subscriptionRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(subscriptions).where(eq(subscriptions.id, id));
  return row;
}

export async function userRow(t: TestApp, id: number) {
  const [row] = await t.db.select().from(users).where(eq(users.id, id));
  return row;
}

/** Delivers the outbox, then the messages the SMTP server got for `email`. */
export async function mailsTo(t: TestApp, email: string) {
  await t.deliverMail();
  return t.smtp.to(email);
}

/** Subjects of the messages `email` got so far (after delivering the outbox). */
export async function subjectsTo(t: TestApp, email: string): Promise<string[]> {
  return (await mailsTo(t, email)).map((mail) => mail.subject);
}

/** Counts of rows in the billing tables (all users). */
export async function billingCounts(t: TestApp) {
  const [row] = rowsOf<{ s: number; p: number; i: number; x: number; w: number; m: number }>(
    await t.db.execute(sql`select
      (select count(*)::int from subscriptions) as s,
      (select count(*)::int from payments) as p,
      (select count(*)::int from invoices) as i,
      (select count(*)::int from pix_transactions) as x,
      (select count(*)::int from webhook_events) as w,
      (select count(*)::int from mail_outbox) as m`),
  );
  return { subscriptions: row.s, payments: row.p, invoices: row.i, pix: row.x, gatewayEvents: row.w, mails: row.m };
}

/** Every row of every table in the public schema, as text (each row cast to its record text form). */
export async function databaseText(t: TestApp): Promise<string> {
  const tables = rowsOf<{ tablename: string }>(await t.db.execute(sql`select tablename from pg_tables where schemaname = 'public' order by 1`));
  const parts: string[] = [];
  for (const { tablename } of tables) {
    const rows = rowsOf<{ row: string }>(await t.db.execute(sql.raw(`select t::text as row from "${tablename}" t`)));
    parts.push(...rows.map((r) => `${tablename}: ${r.row}`));
  }
  return parts.join("\n");
}

/** The user's profile over HTTP (subscriptionType, subscriptionExpirationDate). */
export async function profileOf(t: TestApp, token: string) {
  const res = await t.get("/api/users/profile", { token });
  expect(res.status).toBe(200);
  return res.body as { subscriptionType: string; subscriptionExpirationDate: string | null };
}

/** Fetches a binary body (the invoice PDF). */
export async function download(t: TestApp, url: string, token: string) {
  const response = await t.fetch(t.baseUrl + url, { headers: { authorization: `Bearer ${token}` } });
  return { status: response.status, headers: response.headers, bytes: Buffer.from(await response.arrayBuffer()) };
}

/** A card that the sandbox and the fake Stripe accept (or refuse), with a future expiry. */
export function cardBody(planIdValue: number, number = "4242424242424242") {
  return {
    planId: planIdValue,
    paymentMethod: "CREDIT_CARD",
    cardNumber: number,
    cardHolderName: "Ana Souza",
    cardExpirationMonth: "12",
    cardExpirationYear: String(new Date().getUTCFullYear() + 3),
    cardCvv: "123",
  };
}

/** `date` plus `months` calendar months (UTC), a day past the target month's end clamped to its last day. */
export function addMonths(date: Date, months: number): Date {
  const target = new Date(
    Date.UTC(date.getUTCFullYear(), date.getUTCMonth() + months, 1, date.getUTCHours(), date.getUTCMinutes(), date.getUTCSeconds(), date.getUTCMilliseconds()),
  );
  const lastDay = new Date(Date.UTC(target.getUTCFullYear(), target.getUTCMonth() + 1, 0)).getUTCDate();
  target.setUTCDate(Math.min(date.getUTCDate(), lastDay));
  return target;
}
