import { and, asc, count, eq, lte, or, sql, type SQL } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import { idsAbove, isAnyOf } from "../../platform/db/id-lists.js";
import type { Db } from "../../platform/db/database.js";
import { ordering, pageOf } from "../../platform/db/pages.js";
import type { PageRequest } from "../../platform/paging.js";
import { users } from "../../tables/user.table.js";
import { invites, type InviteStatus } from "../../tables/coaching.table.js";

const trainer = alias(users, "trainer");

/** An invite past its expiry reads as EXPIRED at once, before the sweep persists it. */
const effectiveStatus = (now: Date) =>
  sql<InviteStatus>`case when ${invites.status} = 'PENDING' and ${invites.expiresAt} <= ${now.toISOString()}::timestamptz then 'EXPIRED' else ${invites.status} end`;

const inviteColumns = (now: Date) => ({
  id: invites.id,
  personalId: invites.personalId,
  personalName: trainer.name,
  personalEmail: trainer.email,
  personalProfilePicture: trainer.profilePicture,
  studentId: invites.studentId,
  studentEmail: invites.studentEmail,
  message: invites.message,
  status: effectiveStatus(now),
  createdAt: invites.createdAt,
  expiresAt: invites.expiresAt,
  updatedAt: invites.updatedAt,
});

export type InviteRecord = Awaited<ReturnType<typeof inviteRepository.findInvite>> & object;

export const INVITE_SORTS = { id: invites.id, createdAt: invites.createdAt, expiresAt: invites.expiresAt, status: invites.status } as const;

/** Trainer-student invites: every SQL statement of them. */
export const inviteRepository = {
  /** Serializes every change to one trainer's students (invites, accepts) for the rest of the transaction. */
  async lockTrainer(db: Db, personalId: number) {
    await lockForTransaction(db, "coaching", personalId);
  },

  async findInvite(db: Db, id: number, now: Date) {
    const [row] = await db.select(inviteColumns(now)).from(invites).innerJoin(trainer, eq(trainer.id, invites.personalId)).where(eq(invites.id, id));
    return row ?? null;
  },

  async lockInvite(db: Db, id: number) {
    await db.select({ id: invites.id }).from(invites).where(eq(invites.id, id)).for("update");
  },

  async insertInvite(db: Db, values: typeof invites.$inferInsert) {
    const [row] = await db.insert(invites).values(values).returning({ id: invites.id });
    return row.id;
  },

  async setInviteStatus(db: Db, id: number, status: InviteStatus, now: Date) {
    await db.update(invites).set({ status, updatedAt: now }).where(eq(invites.id, id));
  },

  /** Persists EXPIRED for invites past their expiry (all of them, or one pair's); returns them. */
  async expireInvites(db: Db, now: Date, pair?: { personalId: number; studentId: number }) {
    const conditions = [eq(invites.status, "PENDING"), lte(invites.expiresAt, now)];
    if (pair) conditions.push(eq(invites.personalId, pair.personalId), eq(invites.studentId, pair.studentId));
    return db
      .update(invites)
      .set({ status: "EXPIRED", updatedAt: now })
      .where(and(...conditions))
      .returning({ id: invites.id, personalId: invites.personalId, studentId: invites.studentId });
  },

  /** Those of `ids` `userId` is a party to, as of `now` (the change feed's invites). */
  async findInvitesOf(db: Db, userId: number, ids: readonly number[], now: Date) {
    if (ids.length === 0) return [];
    return db
      .select(inviteColumns(now))
      .from(invites)
      .innerJoin(trainer, eq(trainer.id, invites.personalId))
      .where(and(isAnyOf(invites.id, ids), or(eq(invites.personalId, userId), eq(invites.studentId, userId))));
  },

  /** Up to `limit` ids above `afterId` of the invites `userId` is a party to, ascending. */
  inviteIdsAfter(db: Db, userId: number, afterId: number, limit: number): Promise<number[]> {
    return idsAbove(db, sql`select ${invites.id} from ${invites} where ${invites.personalId} = ${userId} or ${invites.studentId} = ${userId}`, afterId, limit);
  },

  /** Every invite `userId` is a party to, oldest first, as of `now` (their data export). */
  async invitesOfUser(db: Db, userId: number, now: Date) {
    return db
      .select(inviteColumns(now))
      .from(invites)
      .innerJoin(trainer, eq(trainer.id, invites.personalId))
      .where(or(eq(invites.personalId, userId), eq(invites.studentId, userId)))
      .orderBy(asc(invites.id));
  },

  /**
   * PENDING → CANCELED for every invite `userId` is a party to, and the address of those sent to them replaced by
   * `erasedEmail` whatever their status; returns the invites it changed.
   */
  async cancelInvitesOf(db: Db, userId: number, erasedEmail: string, now: Date) {
    const canceled = await db
      .update(invites)
      .set({ status: "CANCELED", updatedAt: now })
      .where(and(or(eq(invites.personalId, userId), eq(invites.studentId, userId)), eq(invites.status, "PENDING")))
      .returning({ id: invites.id, personalId: invites.personalId, studentId: invites.studentId });
    const readdressed = await db
      .update(invites)
      .set({ studentEmail: erasedEmail })
      .where(eq(invites.studentId, userId))
      .returning({ id: invites.id, personalId: invites.personalId, studentId: invites.studentId });
    return [...canceled, ...readdressed];
  },

  async hasPendingInvite(db: Db, personalId: number, studentId: number, now: Date) {
    const [row] = await db
      .select({ id: invites.id })
      .from(invites)
      .where(
        and(
          eq(invites.personalId, personalId),
          eq(invites.studentId, studentId),
          eq(invites.status, "PENDING"),
          sql`${invites.expiresAt} > ${now.toISOString()}::timestamptz`,
        ),
      );
    return Boolean(row);
  },

  async listInvites(db: Db, filter: { personalId?: number; studentId?: number; status?: InviteStatus }, request: PageRequest, now: Date) {
    const conditions: SQL[] = [];
    if (filter.personalId !== undefined) conditions.push(eq(invites.personalId, filter.personalId));
    if (filter.studentId !== undefined) conditions.push(eq(invites.studentId, filter.studentId));
    if (filter.status) conditions.push(sql`${effectiveStatus(now)} = ${filter.status}`);
    const where = and(...conditions);
    const [rows, [total]] = await Promise.all([
      pageOf(
        db
          .select(inviteColumns(now))
          .from(invites)
          .innerJoin(trainer, eq(trainer.id, invites.personalId))
          .where(where)
          .orderBy(...ordering(INVITE_SORTS, request, invites.id))
          .$dynamic(),
        request,
      ),
      db.select({ n: count() }).from(invites).where(where),
    ]);
    return { rows, total: total.n };
  },
};
