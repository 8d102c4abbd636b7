import { eq, sql, type AnyColumn } from "drizzle-orm";
import type { Db } from "../../platform/db/database.js";
import { preparedStatement } from "../../platform/db/prepared.js";
import { apiBudgets } from "../../tables/developer.table.js";

const QUARTER_MS = 15 * 60_000;
const DAY_MS = 86_400_000;

/*
 * Every request of a tool's token runs one of these: built once (preparedStatement), their values bound at each call.
 * A window opens at the first request it counts (`excluded`, the inserted row's values: now) and runs while it began
 * after the cutoff bound for it (now less its length).
 */
const windowStart = (start: AnyColumn, cutoff: string) =>
  sql`case when ${start} > ${sql.placeholder(cutoff)}::timestamptz then ${start} else excluded.${sql.identifier(start.name)} end`;
const windowCount = (start: AnyColumn, count: AnyColumn, cutoff: string) =>
  sql`case when ${start} > ${sql.placeholder(cutoff)}::timestamptz then ${count} + 1 else 1 end`;

const countRequest = preparedStatement((db) =>
  db
    .insert(apiBudgets)
    .values({ key: sql.placeholder("key"), quarterStart: sql.placeholder("now"), quarterCount: 1, dayStart: sql.placeholder("now"), dayCount: 1 })
    .onConflictDoUpdate({
      target: apiBudgets.key,
      set: {
        quarterStart: windowStart(apiBudgets.quarterStart, "quarterCutoff"),
        quarterCount: windowCount(apiBudgets.quarterStart, apiBudgets.quarterCount, "quarterCutoff"),
        dayStart: windowStart(apiBudgets.dayStart, "dayCutoff"),
        dayCount: windowCount(apiBudgets.dayStart, apiBudgets.dayCount, "dayCutoff"),
      },
    })
    .returning({ quarterStart: apiBudgets.quarterStart, quarterCount: apiBudgets.quarterCount, dayStart: apiBudgets.dayStart, dayCount: apiBudgets.dayCount })
    .prepare("api_budget_count_request"),
);

/** The bucket's points at `now`: what was left, refilled since at `rate` per second, up to `max` (all bound). */
const pointsNow = sql`least(${sql.placeholder("max")}::float8, coalesce(${apiBudgets.points}, ${sql.placeholder("max")}::float8)
  + greatest(0, extract(epoch from (${sql.placeholder("now")}::timestamptz - coalesce(${apiBudgets.pointsAt}, ${sql.placeholder("now")}::timestamptz))))
  * ${sql.placeholder("rate")}::float8)`;

const takePoints = preparedStatement((db) =>
  db
    .insert(apiBudgets)
    .values({ key: sql.placeholder("key"), points: sql.placeholder("left"), pointsAt: sql.placeholder("at") })
    .onConflictDoUpdate({
      target: apiBudgets.key,
      set: { points: sql`${pointsNow} - ${sql.placeholder("cost")}::float8`, pointsAt: sql`excluded.points_at` },
      setWhere: sql`${pointsNow} >= ${sql.placeholder("cost")}::float8`,
    })
    .returning({ points: apiBudgets.points })
    .prepare("api_budget_take_points"),
);

const pointsAvailable = preparedStatement((db) =>
  db
    .select({ points: sql<number>`${pointsNow}` })
    .from(apiBudgets)
    .where(eq(apiBudgets.key, sql.placeholder("key")))
    .prepare("api_budget_points"),
);

const iso = (at: Date) => at.toISOString();

export const apiBudgetRepository = {
  /** Counts one REST request in both windows, in one statement; answers the windows after it. */
  async countRequest(db: Db, key: string, now: Date) {
    const [row] = await countRequest(db).execute({
      key,
      now,
      quarterCutoff: iso(new Date(now.getTime() - QUARTER_MS)),
      dayCutoff: iso(new Date(now.getTime() - DAY_MS)),
    });
    return row!;
  },

  /**
   * Takes `cost` points from the bucket if it holds them (refilled up to now), in one statement; answers what is left,
   * or null when it holds fewer (nothing taken).
   */
  async takePoints(db: Db, key: string, cost: number, now: Date, max: number, rate: number): Promise<number | null> {
    const [row] = await takePoints(db).execute({ key, left: max - cost, at: now, now: iso(now), max, rate, cost });
    return row ? row.points! : null;
  },

  /** The bucket's points at `now`, taking nothing. */
  async pointsOf(db: Db, key: string, now: Date, max: number, rate: number): Promise<number> {
    const [row] = await pointsAvailable(db).execute({ key, now: iso(now), max, rate });
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
