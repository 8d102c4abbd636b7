import { integer, pgTable, text } from "drizzle-orm/pg-core";
import { instant } from "../db/columns.js";

/** Fixed-window counters shared by every instance (contract §2). */
export const rateLimitCounters = pgTable("rate_limit_counters", {
  key: text("key").primaryKey(),
  windowStart: instant("window_start").notNull(),
  count: integer("count").notNull(),
});
