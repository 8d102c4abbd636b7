import { and, eq, gt, inArray, isNull, lt, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { isAnyOf } from "../../platform/db/id-lists.js";
import { preparedStatement, preparedStatements } from "../../platform/db/prepared.js";
import type { UserActor } from "../../platform/auth/actor.js";
import { userReadableBy } from "../access/users.js";
import { userTreeJson, userTreeKey, userTreeValues, type UserInclude } from "./user.tree.js";
import { oneTimeTokens, revokedTokens, users, weightHistory, type OneTimeTokenPurpose } from "../../tables/user.table.js";

export type NewUser = typeof users.$inferInsert;
export type UserChanges = Partial<Omit<NewUser, "id" | "createdAt">>;

/** Any number of ids binds as one array: one statement text whatever the count. */
const usersByIds = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(isAnyOf(users.id, sql.placeholder("ids")))
    .prepare("users_by_ids"),
);

/** The users the GraphQL loaders batch, each with whether the caller (bound; an administrator or not) may read it. */
const usersReadable = preparedStatements(
  (admin: boolean) => String(admin),
  (db, admin) =>
    db
      .select({
        user: users,
        readable: sql<boolean>`${userReadableBy({ id: sql.placeholder("callerId"), userType: sql.placeholder("callerType"), isAdmin: admin })}`,
      })
      .from(users)
      .where(isAnyOf(users.id, sql.placeholder("ids")))
      .prepare("users_readable"),
);

/** Users by id as a GraphQL selection reads them (user.tree.ts), one statement per shape of the tree and the reader. */
const userTrees = preparedStatements(
  ({ include, reader }: { include: UserInclude; reader: UserActor }) => userTreeKey(include, reader),
  (db, { include, reader }) =>
    db
      .select({ id: users.id, tree: userTreeJson(include, reader) })
      .from(users)
      .where(isAnyOf(users.id, sql.placeholder("ids")))
      .prepare("user_trees"),
);

/** The authors the GraphQL loaders batch (a page's creators). */
const userSummaries = preparedStatement((db) =>
  db
    .select({ id: users.id, name: users.name, userType: users.userType, profilePicture: users.profilePicture })
    .from(users)
    .where(isAnyOf(users.id, sql.placeholder("ids")))
    .prepare("user_summaries"),
);

const userById = preparedStatement((db) =>
  db
    .select()
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("user_by_id"),
);

/** The session-cache misses of every authenticated request. */
const sessionUser = preparedStatement((db) =>
  db
    .select({
      id: users.id,
      userType: users.userType,
      isAdmin: users.isAdmin,
      sessionVersion: users.sessionVersion,
      revoked: sql<boolean>`exists (select 1 from ${revokedTokens} where ${revokedTokens.jti} = ${sql.placeholder("jti")})`,
    })
    .from(users)
    .where(eq(users.id, sql.placeholder("id")))
    .prepare("session_user"),
);

export const userRepository = {
  /** The user's session version, read inside `db`'s transaction (null: no such user). */
  async sessionVersionOf(db: Db, userId: number): Promise<number | null> {
    const [row] = await db.select({ version: users.sessionVersion }).from(users).where(eq(users.id, userId));
    return row?.version ?? null;
  },

  async findById(db: Db, id: number) {
    const [row] = await userById(db).execute({ id });
    return row ?? null;
  },

  async findByIds(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return usersByIds(db).execute({ ids });
  },

  /** What an author shows of themself (id, name, type, picture), for those of `ids` that exist. */
  async findSummaries(db: Db, ids: readonly number[]) {
    if (ids.length === 0) return [];
    return userSummaries(db).execute({ ids });
  },

  /** The users of `ids` that exist, each with whether `caller` may read it in full (userReadableBy), in one statement. */
  /** Those of `ids` that exist, each with its tree as `reader` reads it (null where it may not read the user). */
  async findTrees(db: Db, ids: readonly number[], reader: UserActor, include: UserInclude): Promise<{ id: number; tree: unknown }[]> {
    if (ids.length === 0) return [];
    return userTrees(db, { include, reader }).execute({ ids, ...userTreeValues(include, reader) });
  },

  async findByIdsReadableBy(db: Db, ids: readonly number[], caller: { id: number; userType: string; isAdmin: boolean }) {
    if (ids.length === 0) return [];
    return usersReadable(db, caller.isAdmin).execute({ ids, callerId: caller.id, callerType: caller.userType });
  },

  async findByEmail(db: Db, email: string) {
    const [row] = await db.select().from(users).where(eq(users.email, email.toLowerCase()));
    return row ?? null;
  },

  /** The row, locked as lockForUpdate locks it (null when missing). */
  async findForUpdate(db: Db, id: number) {
    const [row] = await db.select().from(users).where(eq(users.id, id)).for("no key update");
    return row ?? null;
  },

  /** Locks the user's row until the transaction ends (not against rows that merely reference it). */
  async lockForUpdate(db: Db, id: number) {
    await db.select({ id: users.id }).from(users).where(eq(users.id, id)).for("no key update");
  },

  async insert(db: Db, values: NewUser) {
    const [row] = await db.insert(users).values(values).returning();
    return row;
  },

  async update(db: Db, id: number, changes: UserChanges) {
    const [row] = await db.update(users).set(changes).where(eq(users.id, id)).returning();
    return row ?? null;
  },

  /** Bumps the session version (revoking every token issued so far) together with other changes. */
  async updateAndRevokeSessions(db: Db, id: number, changes: UserChanges) {
    const [row] = await db
      .update(users)
      .set({ ...changes, sessionVersion: sql`${users.sessionVersion} + 1` })
      .where(eq(users.id, id))
      .returning();
    return row ?? null;
  },

  /** Makes every listed e-mail that has an account an administrator; returns the accounts it changed (id, e-mail). */
  async grantAdmin(db: Db, emails: readonly string[]) {
    if (emails.length === 0) return [];
    return db
      .update(users)
      .set({ isAdmin: true })
      .where(
        and(
          inArray(
            users.email,
            emails.map((e) => e.toLowerCase()),
          ),
          eq(users.isAdmin, false),
        ),
      )
      .returning({ id: users.id, email: users.email });
  },

  /** The user behind a token, with whether that token's id was revoked, in one round trip. */
  async findSessionUser(db: Db, id: number, jti: string) {
    const [row] = await sessionUser(db).execute({ id, jti });
    return row ?? null;
  },

  /** Revokes a token; false when it was revoked already (a concurrent refresh or logout got there first). */
  async revokeToken(db: Db, jti: string, userId: number, expiresAt: Date): Promise<boolean> {
    const rows = await db.insert(revokedTokens).values({ jti, userId, expiresAt }).onConflictDoNothing().returning({ jti: revokedTokens.jti });
    return rows.length > 0;
  },

  async purgeExpiredRevocations(db: Db, now: Date) {
    await db.delete(revokedTokens).where(lt(revokedTokens.expiresAt, now));
  },

  /** A user's weight history, oldest first. */
  async weightHistoryOf(db: Db, userId: number) {
    return db
      .select({ weight: weightHistory.weightKg, recordedAt: weightHistory.recordedAt })
      .from(weightHistory)
      .where(eq(weightHistory.userId, userId))
      .orderBy(weightHistory.recordedAt, weightHistory.id);
  },

  /** Deletes what a user's erasure does not keep of the users module's side tables: weight history, e-mailed tokens, revocations. */
  async deleteHistoryAndTokens(db: Db, userId: number) {
    await db.delete(weightHistory).where(eq(weightHistory.userId, userId));
    await db.delete(oneTimeTokens).where(eq(oneTimeTokens.userId, userId));
    // The session version moves with the erasure, which revokes every token these rows revoked one by one.
    await db.delete(revokedTokens).where(eq(revokedTokens.userId, userId));
  },

  async addWeight(db: Db, userId: number, weightKg: number, recordedAt: Date) {
    await db.insert(weightHistory).values({ userId, weightKg, recordedAt });
  },

  async insertOneTimeToken(db: Db, userId: number, purpose: OneTimeTokenPurpose, tokenHash: string, expiresAt: Date) {
    await db.insert(oneTimeTokens).values({ userId, purpose, tokenHash, expiresAt });
  },

  /** Marks a live token used and returns its user id; null when unknown, used or expired. Atomic: a token works once. */
  async consumeOneTimeToken(db: Db, purpose: OneTimeTokenPurpose, tokenHash: string, now: Date) {
    const [row] = await db
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.tokenHash, tokenHash), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)))
      .returning({ userId: oneTimeTokens.userId });
    return row?.userId ?? null;
  },

  /** The owner of a token that is unused and unexpired, without using it; null otherwise. */
  async findLiveOneTimeToken(db: Db, purpose: OneTimeTokenPurpose, tokenHash: string, now: Date) {
    const [row] = await db
      .select({ userId: oneTimeTokens.userId })
      .from(oneTimeTokens)
      .where(and(eq(oneTimeTokens.tokenHash, tokenHash), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt), gt(oneTimeTokens.expiresAt, now)));
    return row?.userId ?? null;
  },

  /** Retires a user's unused tokens of one purpose (a new reset link replaces the old ones). */
  async retireOneTimeTokens(db: Db, userId: number, purpose: OneTimeTokenPurpose, now: Date) {
    await db
      .update(oneTimeTokens)
      .set({ usedAt: now })
      .where(and(eq(oneTimeTokens.userId, userId), eq(oneTimeTokens.purpose, purpose), isNull(oneTimeTokens.usedAt)));
  },
};

/** The billing capability sets what a user's subscription gives (contract §8): type and until when. */
export async function setSubscriptionAccess(db: Db, userId: number, subscriptionType: string, expiresAt: Date | null, now: Date) {
  await db.update(users).set({ subscriptionType, subscriptionExpiresAt: expiresAt, updatedAt: now }).where(eq(users.id, userId));
}
