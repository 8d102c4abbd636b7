import type { SQL } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { changeFeedRepository, type ChangeTo } from "./change-feed.repository.js";
import type { SyncEntity } from "../../tables/sync-change.table.js";

/*
 * How the change feed records changes (contract §13.3): inside the transaction of a write, its subscriber to the
 * domain's events (change-feed.subscriber.ts) records which entities changed and who should hear of it, as mail goes
 * into the outbox. Whether a change reaches its reader as UPSERT or DELETE is decided when it is read (what the reader
 * may see then), so a write records every entity it touched for everyone who saw it before or sees it after: an
 * assignment canceled records its plan for its student, who reads it as a DELETE unless another assignment still
 * gives it.
 *
 * `at` is the service clock's moment of the write (the database's `now()` when not given).
 */

/** Records the changes: each id of each entry for each of its users (nothing for an empty list of either). */
export async function recordChanges(db: Db, at: Date | undefined, ...changes: ChangeTo[]): Promise<void> {
  const seen = new Set<string>();
  const rows: { userId: number; entity: SyncEntity; entityId: number }[] = [];
  for (const { entity, ids, userIds } of changes) {
    for (const entityId of ids) {
      for (const userId of userIds) {
        const key = `${entity}:${entityId}:${userId}`;
        if (seen.has(key)) continue;
        seen.add(key);
        rows.push({ userId, entity, entityId });
      }
    }
  }
  await changeFeedRepository.insert(db, at, rows);
}

/**
 * Records a change of `entity` for each (entity id, user id) row `audience` selects (its two columns, whatever their
 * names): one statement, however many entities and users, for audiences the owning module writes as SQL
 * (its *.fragments.ts).
 */
export function recordAudience(db: Db, at: Date | undefined, entity: SyncEntity, audience: SQL): Promise<void> {
  return changeFeedRepository.insertAudience(db, at, entity, audience);
}
