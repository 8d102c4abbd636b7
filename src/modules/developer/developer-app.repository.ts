import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { developerAppDocuments, developerApps } from "../../tables/developer.table.js";

export type DeveloperAppRow = typeof developerApps.$inferSelect;

export const developerAppRepository = {
  async insert(db: Db, row: typeof developerApps.$inferInsert): Promise<DeveloperAppRow> {
    const [created] = await db.insert(developerApps).values(row).returning();
    return created!;
  },

  async countOf(db: Db, userId: number): Promise<number> {
    const [row] = await db.select({ n: count() }).from(developerApps).where(eq(developerApps.userId, userId));
    return row!.n;
  },

  listOf(db: Db, userId: number): Promise<DeveloperAppRow[]> {
    return db.select().from(developerApps).where(eq(developerApps.userId, userId)).orderBy(asc(developerApps.createdAt), asc(developerApps.id));
  },

  async findById(db: Db, id: number): Promise<DeveloperAppRow | null> {
    const [row] = await db.select().from(developerApps).where(eq(developerApps.id, id));
    return row ?? null;
  },

  async findByClientId(db: Db, clientId: string): Promise<DeveloperAppRow | null> {
    const [row] = await db.select().from(developerApps).where(eq(developerApps.clientId, clientId));
    return row ?? null;
  },

  /** The names of these clients' apps. */
  async namesOf(db: Db, clientIds: string[]): Promise<Map<string, string>> {
    if (clientIds.length === 0) return new Map();
    const rows = await db
      .select({ clientId: developerApps.clientId, name: developerApps.name })
      .from(developerApps)
      .where(inArray(developerApps.clientId, clientIds));
    return new Map(rows.map((row) => [row.clientId, row.name]));
  },

  async update(db: Db, id: number, changes: Partial<typeof developerApps.$inferInsert>): Promise<DeveloperAppRow> {
    const [row] = await db.update(developerApps).set(changes).where(eq(developerApps.id, id)).returning();
    return row!;
  },

  /** Deletes one of the user's apps; false when the user has no such app. */
  async delete(db: Db, userId: number, id: number): Promise<boolean> {
    const rows = await db
      .delete(developerApps)
      .where(and(eq(developerApps.id, id), eq(developerApps.userId, userId)))
      .returning({ id: developerApps.id });
    return rows.length > 0;
  },

  async deleteAllOf(db: Db, userId: number): Promise<DeveloperAppRow[]> {
    return db.delete(developerApps).where(eq(developerApps.userId, userId)).returning();
  },
};

export const developerAppDocumentRepository = {
  /** Replaces the app's registered documents with these. */
  async replace(db: Db, appId: number, documents: { hash: string; document: string }[], now: Date): Promise<void> {
    await db.delete(developerAppDocuments).where(eq(developerAppDocuments.appId, appId));
    if (documents.length > 0) await db.insert(developerAppDocuments).values(documents.map((row) => ({ appId, ...row, createdAt: now })));
  },

  /** Whether the client's app runs registered documents only, and its document of this hash (null: none). */
  async lookup(db: Db, clientId: string, hash: string): Promise<{ trustedOnly: boolean; document: string | null } | null> {
    const [row] = await db
      .select({ trustedOnly: developerApps.trustedDocumentsOnly, document: developerAppDocuments.document })
      .from(developerApps)
      .leftJoin(developerAppDocuments, and(eq(developerAppDocuments.appId, developerApps.id), eq(developerAppDocuments.hash, hash)))
      .where(eq(developerApps.clientId, clientId));
    return row ?? null;
  },
};
