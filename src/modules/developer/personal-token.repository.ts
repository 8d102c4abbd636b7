import { and, asc, count, eq, sql } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { personalAccessTokens } from "../../tables/developer.table.js";

export type PersonalTokenRow = typeof personalAccessTokens.$inferSelect;
/** A row as listed and exported: everything but the hash. */
export type ListedPersonalToken = Omit<PersonalTokenRow, "tokenHash">;

const listed = {
  id: personalAccessTokens.id,
  userId: personalAccessTokens.userId,
  name: personalAccessTokens.name,
  scopes: personalAccessTokens.scopes,
  expiresAt: personalAccessTokens.expiresAt,
  createdAt: personalAccessTokens.createdAt,
  lastUsedAt: personalAccessTokens.lastUsedAt,
};

const byHash = preparedStatement((db) =>
  db
    .select({
      id: personalAccessTokens.id,
      userId: personalAccessTokens.userId,
      scopes: personalAccessTokens.scopes,
      expiresAt: personalAccessTokens.expiresAt,
    })
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.tokenHash, sql.placeholder("hash")))
    .prepare("personal_token_by_hash"),
);

const stillHeld = preparedStatement((db) =>
  db
    .select({ id: personalAccessTokens.id })
    .from(personalAccessTokens)
    .where(eq(personalAccessTokens.id, sql.placeholder("id")))
    .prepare("personal_token_held"),
);

export const personalTokenRepository = {
  async insert(db: Db, row: typeof personalAccessTokens.$inferInsert): Promise<ListedPersonalToken> {
    const [created] = await db.insert(personalAccessTokens).values(row).returning(listed);
    return created!;
  },

  async countOf(db: Db, userId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(personalAccessTokens).where(eq(personalAccessTokens.userId, userId));
    return row!.n;
  },

  /** A user's tokens, oldest first. */
  listOf(db: Db, userId: number): Promise<ListedPersonalToken[]> {
    return db
      .select(listed)
      .from(personalAccessTokens)
      .where(eq(personalAccessTokens.userId, userId))
      .orderBy(asc(personalAccessTokens.createdAt), asc(personalAccessTokens.id));
  },

  /** Deletes one of the user's tokens; false when the user has no such token. */
  async delete(db: Db, userId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(personalAccessTokens)
      .where(and(eq(personalAccessTokens.id, id), eq(personalAccessTokens.userId, userId)))
      .returning({ id: personalAccessTokens.id });
    return rows.length > 0;
  },

  /** Deletes every token of the user; answers their ids. */
  async deleteAllOf(db: Db, userId: number): Promise<number[]> {
    const rows = await db.delete(personalAccessTokens).where(eq(personalAccessTokens.userId, userId)).returning({ id: personalAccessTokens.id });
    return rows.map((row) => row.id);
  },

  async findByHash(db: Db, hash: string) {
    const [row] = await byHash(db).execute({ hash });
    return row ?? null;
  },

  async exists(db: Db, id: number): Promise<boolean> {
    return (await stillHeld(db).execute({ id })).length > 0;
  },

  async touch(db: Db, id: number, at: Date): Promise<void> {
    await db.update(personalAccessTokens).set({ lastUsedAt: at }).where(eq(personalAccessTokens.id, id));
  },
};
