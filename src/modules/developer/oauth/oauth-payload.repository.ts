import { and, eq, gt, isNull, lt, or, sql } from "drizzle-orm";
import type { Db } from "../../../platform/db/database.js";
import { oauthPayloads } from "../../../tables/developer.table.js";

/** A stored payload of the authorization server, with what is indexed of it. */
export interface OAuthPayloadRow {
  model: string;
  id: string;
  payload: Record<string, unknown>;
  grantId: string | null;
  uid: string | null;
  accountId: number | null;
  clientId: string | null;
  expiresAt: Date | null;
}

/** What was deleted of a token or a grant: enough to tell every instance its sessions are gone. */
export interface GonePayload {
  model: string;
  id: string;
  accountId: number | null;
  clientId: string | null;
}

const gone = { model: oauthPayloads.model, id: oauthPayloads.id, accountId: oauthPayloads.accountId, clientId: oauthPayloads.clientId };
const live = (now: Date) => or(isNull(oauthPayloads.expiresAt), gt(oauthPayloads.expiresAt, now));

export const oauthPayloadRepository = {
  async upsert(db: Db, row: OAuthPayloadRow): Promise<void> {
    const { model: _model, id: _id, ...changed } = row;
    await db
      .insert(oauthPayloads)
      .values(row)
      .onConflictDoUpdate({ target: [oauthPayloads.model, oauthPayloads.id], set: changed });
  },

  async find(db: Db, model: string, id: string, now: Date): Promise<Record<string, unknown> | undefined> {
    const [row] = await db
      .select({ payload: oauthPayloads.payload, consumedAt: oauthPayloads.consumedAt })
      .from(oauthPayloads)
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.id, id), live(now)));
    if (!row) return undefined;
    return row.consumedAt ? { ...row.payload, consumed: Math.floor(row.consumedAt.getTime() / 1000) } : row.payload;
  },

  async findByUid(db: Db, model: string, uid: string, now: Date): Promise<Record<string, unknown> | undefined> {
    const [row] = await db
      .select({ payload: oauthPayloads.payload })
      .from(oauthPayloads)
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.uid, uid), live(now)));
    return row?.payload;
  },

  /**
   * Marks a code or refresh token used, if no one did before (one statement, so two instances racing with the same
   * token cannot both see it unused); answers whether this call did, and the token's grant.
   */
  async consume(db: Db, model: string, id: string, now: Date): Promise<{ consumedNow: boolean; grantId: string | null }> {
    const [updated] = await db
      .update(oauthPayloads)
      .set({ consumedAt: now })
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.id, id), isNull(oauthPayloads.consumedAt)))
      .returning({ grantId: oauthPayloads.grantId });
    if (updated) return { consumedNow: true, grantId: updated.grantId };
    const [row] = await db
      .select({ grantId: oauthPayloads.grantId })
      .from(oauthPayloads)
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.id, id)));
    return { consumedNow: false, grantId: row?.grantId ?? null };
  },

  async destroy(db: Db, model: string, id: string): Promise<GonePayload[]> {
    return db
      .delete(oauthPayloads)
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.id, id)))
      .returning(gone);
  },

  async revokeByGrantId(db: Db, model: string, grantId: string): Promise<GonePayload[]> {
    return db
      .delete(oauthPayloads)
      .where(and(eq(oauthPayloads.model, model), eq(oauthPayloads.grantId, grantId)))
      .returning(gone);
  },

  /** Deletes a grant and everything issued under it (codes, access and refresh tokens). */
  async deleteGrant(db: Db, grantId: string): Promise<GonePayload[]> {
    return db
      .delete(oauthPayloads)
      .where(or(eq(oauthPayloads.grantId, grantId), and(eq(oauthPayloads.model, "Grant"), eq(oauthPayloads.id, grantId))))
      .returning(gone);
  },

  /** Deletes everything kept of an account: its sessions, grants and every token under them. */
  async deleteAccount(db: Db, accountId: number): Promise<GonePayload[]> {
    return db.delete(oauthPayloads).where(eq(oauthPayloads.accountId, accountId)).returning(gone);
  },

  /** Whether a token is still held: it, and its grant, neither revoked nor expired. */
  async tokenHeld(db: Db, model: string, id: string, grantId: string, now: Date): Promise<boolean> {
    const rows = await db
      .select({ id: oauthPayloads.id })
      .from(oauthPayloads)
      .where(
        and(
          eq(oauthPayloads.model, model),
          eq(oauthPayloads.id, id),
          live(now),
          sql`exists (select 1 from ${oauthPayloads} g where g.model = 'Grant' and g.id = ${grantId} and (g.expires_at is null or g.expires_at > ${now.toISOString()}::timestamptz))`,
        ),
      );
    return rows.length > 0;
  },

  /** The live grants of a user, oldest first. */
  grantsOf(db: Db, accountId: number, now: Date) {
    return db
      .select({ id: oauthPayloads.id, clientId: oauthPayloads.clientId, payload: oauthPayloads.payload, lastUsedAt: oauthPayloads.lastUsedAt })
      .from(oauthPayloads)
      .where(and(eq(oauthPayloads.model, "Grant"), eq(oauthPayloads.accountId, accountId), live(now)))
      .orderBy(sql`${oauthPayloads.payload}->>'iat'`, oauthPayloads.id);
  },

  /** The ids of the live grants of a user for one client (or for every user, with accountId undefined). */
  async grantIdsOf(db: Db, clientId: string, accountId: number | undefined, now: Date): Promise<string[]> {
    const rows = await db
      .select({ id: oauthPayloads.id })
      .from(oauthPayloads)
      .where(
        and(
          eq(oauthPayloads.model, "Grant"),
          eq(oauthPayloads.clientId, clientId),
          accountId === undefined ? undefined : eq(oauthPayloads.accountId, accountId),
          live(now),
        ),
      );
    return rows.map((row) => row.id);
  },

  async touchGrant(db: Db, grantId: string, at: Date): Promise<void> {
    await db
      .update(oauthPayloads)
      .set({ lastUsedAt: at })
      .where(and(eq(oauthPayloads.model, "Grant"), eq(oauthPayloads.id, grantId)));
  },

  async purgeExpired(db: Db, now: Date): Promise<void> {
    await db.delete(oauthPayloads).where(lt(oauthPayloads.expiresAt, now));
  },
};
