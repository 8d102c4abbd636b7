import { sql } from "drizzle-orm";
import { bigserial, check, customType, index, integer, pgTable, text } from "drizzle-orm/pg-core";
import { instant, oneOf } from "../platform/db/columns.js";
import { users } from "./user.table.js";

/**
 * The kinds of entity the change feed carries (contract §13.3), in the order an initial sync lists them: what a
 * client needs first (its profile, the library a training refers to) before what refers to it.
 */
export const SYNC_ENTITIES = [
  "profile",
  "exercise",
  "training",
  "trainingPlan",
  "planAssignment",
  "link",
  "invite",
  "trainingExecution",
  "exerciseExecution",
  "subscription",
] as const;
export type SyncEntity = (typeof SYNC_ENTITIES)[number];

/**
 * PostgreSQL's 64-bit transaction id (`xid8`, PostgreSQL 13+): never wraps around, ordered, read and written as its
 * decimal text.
 */
const xid8 = customType<{ data: string; driverData: string }>({ dataType: () => "xid8" });

/**
 * The change log behind GET /sync/changes: one row per entity changed and per user who should hear of it (its
 * audience), written by the domain services in the transaction of the change. `xid` is the writing transaction's
 * id: a cursor moves only past rows of transactions older than every transaction of this database still running when
 * it reads (change-feed.repository.ts), ordered by (xid, id), so a transaction that began earlier but commits later is
 * never skipped; rows of later transactions already committed are handed out too, and the cursor lists them.
 * Rows are kept 90 days (the pruning job), indexed for one user's rows in feed order.
 */
export const syncChanges = pgTable(
  "sync_changes",
  {
    id: bigserial("id", { mode: "number" }).primaryKey(),
    xid: xid8("xid")
      .notNull()
      .default(sql`pg_current_xact_id()`),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id, { onDelete: "cascade" }),
    entity: text("entity").$type<SyncEntity>().notNull(),
    entityId: integer("entity_id").notNull(),
    changedAt: instant("changed_at")
      .notNull()
      .default(sql`now()`),
  },
  (t) => [
    index("sync_changes_user_position_idx").on(t.userId, t.xid, t.id),
    index("sync_changes_changed_at_idx").on(t.changedAt),
    check("sync_changes_entity_check", sql`${t.entity} in (${oneOf(SYNC_ENTITIES)})`),
  ],
);
