import { asc, eq, sql } from "drizzle-orm";
import { expect } from "vitest";
import { subscriptionPlans } from "../../src/tables/billing.table.js";
import { invites, personalStudentLinks } from "../../src/tables/coaching.table.js";
import { rowsOf } from "../helpers/database.js";
import type { TestApp } from "../helpers/test-app.js";
import type { MadeUser } from "../factories/users.js";
import { DAY_MS } from "../../src/platform/dates.js";

export { DAY_MS };
export { ISO, PAGE_KEYS, sortedKeys } from "../helpers/shapes.js";

export const INVITE_TTL_MS = 7 * DAY_MS;

/** InviteDTO as the trainer sees it, as the student sees it (updatedAt only once answered or expired). */
export const SENT_INVITE_KEYS = ["id", "personalId", "personalName", "studentEmail", "message", "status", "createdAt", "expiresAt"].sort();
export const RECEIVED_INVITE_KEYS = [
  "id",
  "personalId",
  "personalName",
  "personalEmail",
  "personalProfilePicture",
  "message",
  "status",
  "createdAt",
  "expiresAt",
].sort();

/** PersonalStudentDTO: in full (accept), as a trainer lists it, as a student lists it. */
export const FULL_LINK_KEYS = [
  "id",
  "personalId",
  "personalName",
  "personalEmail",
  "personalProfilePicture",
  "studentId",
  "studentName",
  "studentEmail",
  "studentProfilePicture",
  "status",
  "createdAt",
  "updatedAt",
].sort();
export const TRAINER_LINK_KEYS = FULL_LINK_KEYS.filter((key) => key !== "personalEmail" && key !== "personalProfilePicture");
export const STUDENT_LINK_KEYS = FULL_LINK_KEYS.filter((key) => key !== "studentEmail" && key !== "studentProfilePicture");

/** POST /personal/students/invite. */
export function sendInvite(t: TestApp, trainer: MadeUser, studentEmail: string, message?: string) {
  return t.post("/api/personal/students/invite", { token: trainer.token, body: message === undefined ? { studentEmail } : { studentEmail, message } });
}

/** An invite that must succeed; its id. */
export async function invited(t: TestApp, trainer: MadeUser, student: MadeUser, message?: string): Promise<number> {
  const res = await sendInvite(t, trainer, student.email, message);
  if (res.status !== 201) throw new Error(`invite failed: ${res.status} ${res.text}`);
  return res.body.id;
}

/** A trainer's card subscription (sandbox card accepted) to the seeded plan of that name. */
export async function subscribe(t: TestApp, trainer: MadeUser, planName: string): Promise<void> {
  const [plan] = await t.db.select({ id: subscriptionPlans.id }).from(subscriptionPlans).where(eq(subscriptionPlans.name, planName));
  if (!plan) throw new Error(`no plan named ${planName}`);
  const res = await t.post("/api/subscriptions", {
    token: trainer.token,
    body: {
      planId: plan.id,
      paymentMethod: "CREDIT_CARD",
      cardNumber: "4242424242424242",
      cardHolderName: "BRUNO LIMA",
      cardExpirationMonth: "12",
      cardExpirationYear: "2099",
      cardCvv: "123",
    },
  });
  expect(res.status, res.text).toBe(201);
  expect(res.body.status).toBe("ACTIVE");
}

export function inviteRows(t: TestApp) {
  return t.db.select().from(invites).orderBy(asc(invites.id));
}

export function linkRows(t: TestApp) {
  return t.db.select().from(personalStudentLinks).orderBy(asc(personalStudentLinks.id));
}

export async function pendingCount(t: TestApp, personalId: number): Promise<number> {
  const [row] = rowsOf<{ n: number }>(await t.db.execute(sql`select count(*)::int as n from invites where personal_id = ${personalId} and status = 'PENDING'`));
  return row.n;
}

/** Drains the outbox to the test SMTP server; the messages `email` received. */
export async function mailsTo(t: TestApp, email: string) {
  await t.deliverMail();
  return t.smtp.to(email);
}

/** Statuses of several answers, sorted (for concurrent requests). */
export const statuses = (responses: Array<{ status: number }>) => responses.map((r) => r.status).sort((a, b) => a - b);
