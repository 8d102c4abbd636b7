import { customType, integer, pgTable } from "drizzle-orm/pg-core";
import { instant } from "./columns.js";

/** A write-ahead log position, `X/Y` as PostgreSQL writes it. */
const pgLsn = customType<{ data: string; driverData: string }>({ dataType: () => "pg_lsn" });

/**
 * Per user, the primary's WAL position their reads must see (their last write, or the last event that reached them):
 * a replica serves their stale-ok reads only once it has replayed that far (read-routing.ts). Read and written on the
 * primary only, and UNLOGGED (its migration says so): its writes cost no WAL, and it is emptied only when the primary
 * crashes or fails over, after which a user's last write may be missing from a replica for at most its lag limit.
 */
export const readPositions = pgTable("read_positions", {
  userId: integer("user_id").primaryKey(),
  lsn: pgLsn("lsn").notNull(),
  recordedAt: instant("recorded_at").notNull(),
});
