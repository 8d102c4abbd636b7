import { eq, sql, type AnyColumn } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { apiBudgets } from "../../tables/developer.table.js";

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/** A window's SQL: its start kept while it is open at `now`, else `now` (a new window). */
const windowStart = (start: AnyColumn, now: Date, lengthMs: number) =>
  sql`case when ${start} > ${new Date(now.getTime() - lengthMs).toISOString()}::timestamptz then ${start} else ${now.toISOString()}::timestamptz end`;
const windowCount = (start: AnyColumn, count: AnyColumn, now: Date, lengthMs: number) =>
  sql`case when ${start} > ${new Date(now.getTime() - lengthMs).toISOString()}::timestamptz then ${count} + 1 else 1 end`;

/** The bucket's points at `now`: what was left, refilled since at `rate` per second, up to `max`. */
const pointsAt = (now: Date, max: number, rate: number) =>
  sql`least(${max}::float8, coalesce(${apiBudgets.points}, ${max}::float8) + greatest(0, extract(epoch from (${now.toISOString()}::timestamptz - coalesce(${apiBudgets.pointsAt}, ${now.toISOString()}::timestamptz)))) * ${rate}::float8)`;

export const apiBudgetRepository = {
  /** Counts one REST request in both windows, in one statement; answers the windows after it. */
  async countRequest(db: Db, key: string, now: Date) {
    const [row] = await db
      .insert(apiBudgets)
      .values({ key, quarterStart: now, quarterCount: 1, dayStart: now, dayCount: 1 })
      .onConflictDoUpdate({
        target: apiBudgets.key,
        set: {
          quarterStart: windowStart(apiBudgets.quarterStart, now, QUARTER_MS),
          quarterCount: windowCount(apiBudgets.quarterStart, apiBudgets.quarterCount, now, QUARTER_MS),
          dayStart: windowStart(apiBudgets.dayStart, now, DAY_MS),
          dayCount: windowCount(apiBudgets.dayStart, apiBudgets.dayCount, now, DAY_MS),
        },
      })
      .returning({
        quarterStart: apiBudgets.quarterStart,
        quarterCount: apiBudgets.quarterCount,
        dayStart: apiBudgets.dayStart,
        dayCount: apiBudgets.dayCount,
      });
    return row!;
  },

  /**
   * Takes `cost` points from the bucket if it holds them (refilled up to now), in one statement; answers what is left,
   * or null when it holds fewer (nothing taken).
   */
  async takePoints(db: Db, key: string, cost: number, now: Date, max: number, rate: number): Promise<number | null> {
    const available = pointsAt(now, max, rate);
    const [row] = await db
      .insert(apiBudgets)
      .values({ key, points: max - cost, pointsAt: now })
      .onConflictDoUpdate({
        target: apiBudgets.key,
        set: { points: sql`${available} - ${cost}::float8`, pointsAt: now },
        setWhere: sql`${available} >= ${cost}::float8`,
      })
      .returning({ points: apiBudgets.points });
    return row ? row.points! : null;
  },

  /** The bucket's points at `now`, taking nothing. */
  async pointsOf(db: Db, key: string, now: Date, max: number, rate: number): Promise<number> {
    const [row] = await db
      .select({ points: sql<number>`${pointsAt(now, max, rate)}` })
      .from(apiBudgets)
      .where(eq(apiBudgets.key, key));
    return row ? Number(row.points) : max;
  },

  /** Gives back points taken for more than was spent, up to `max`. */
  async givePoints(db: Db, key: string, points: number, max: number): Promise<void> {
    await db
      .update(apiBudgets)
      .set({ points: sql`least(${max}::float8, ${apiBudgets.points} + ${points}::float8)` })
      .where(eq(apiBudgets.key, key));
  },
};

export const BUDGET_WINDOWS = { quarterMs: QUARTER_MS, dayMs: DAY_MS };
