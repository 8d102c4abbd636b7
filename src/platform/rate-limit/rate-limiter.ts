import { and, eq, lt, sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import { AppError, TOO_MANY_REQUESTS } from "../errors.js";
import { rateLimitCounters } from "./rate-limit.table.js";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
}

/** An attempt counted by `RateLimiter.reserve`. */
export interface Reservation {
  /** Uncounts the attempt. */
  giveBack(): Promise<void>;
}

/**
 * Fixed-window counters kept in the database, so every instance shares them. A key's window opens at the
 * first event it counts and lasts `windowMs` (not aligned to the clock), so a lockout reached right after
 * the window opened lasts the whole window rather than until the next minute or quarter-hour boundary.
 */
export class RateLimiter {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
  ) {}

  /** Counts one hit on `key`; throws 429 with Retry-After once the window's limit is passed. */
  async hit(key: string, rule: RateLimitRule): Promise<void> {
    const count = await this.increment(key, rule);
    if (count.value > rule.limit) throw tooManyRequests(count.retryAfterSeconds);
  }

  /**
   * Takes one of the window's `limit` attempts on `key` before the attempt is made (a login's password check, say),
   * or throws 429 with Retry-After when they are all taken. Counting and deciding are one statement, so however many
   * requests race on however many instances, at most `limit` attempts are under way or done in a window. The attempt
   * stays counted unless given back (a login that succeeded is no failure).
   */
  async reserve(key: string, rule: RateLimitRule): Promise<Reservation> {
    const now = this.clock.now();
    // A window with nothing counted (every attempt given back) is as good as none: the next attempt opens one.
    const running = sql`${this.openAt(now, rule)} and ${rateLimitCounters.count} > 0`;
    const [row] = await this.db
      .insert(rateLimitCounters)
      .values({ key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          count: sql`case when ${running} then ${rateLimitCounters.count} + 1 else 1 end`,
          windowStart: sql`case when ${running} then ${rateLimitCounters.windowStart} else excluded.window_start end`,
        },
        // No row comes back when the window is running and full.
        setWhere: sql`not (${running}) or ${rateLimitCounters.count} < ${rule.limit}`,
      })
      .returning({ windowStart: rateLimitCounters.windowStart });
    if (!row) throw tooManyRequests(await this.retryAfterOf(key, now, rule));
    const reserved = and(eq(rateLimitCounters.key, key), eq(rateLimitCounters.windowStart, row.windowStart));
    return {
      // Only in the window it was taken from: once that ran out, a new window owes it nothing. The last attempt
      // counted takes its counter along, so an attempt given back leaves no trace.
      giveBack: async () => {
        const dropped = await this.db
          .delete(rateLimitCounters)
          .where(and(reserved, eq(rateLimitCounters.count, 1)))
          .returning({ key: rateLimitCounters.key });
        if (dropped.length > 0) return;
        await this.db
          .update(rateLimitCounters)
          .set({ count: sql`${rateLimitCounters.count} - 1` })
          .where(reserved);
      },
    };
  }

  /** Drops counters whose window ended long ago. */
  async purge(olderThan: Date): Promise<void> {
    await this.db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, olderThan));
  }

  private async increment(key: string, rule: RateLimitRule): Promise<{ value: number; retryAfterSeconds: number }> {
    const now = this.clock.now();
    const open = this.openAt(now, rule);
    // One atomic upsert: once the window has run out, a new one opens now and the count restarts at 1.
    const [row] = await this.db
      .insert(rateLimitCounters)
      .values({ key, windowStart: now, count: 1 })
      .onConflictDoUpdate({
        target: rateLimitCounters.key,
        set: {
          count: sql`case when ${open} then ${rateLimitCounters.count} + 1 else 1 end`,
          windowStart: sql`case when ${open} then ${rateLimitCounters.windowStart} else excluded.window_start end`,
        },
      })
      .returning({ count: rateLimitCounters.count, windowStart: rateLimitCounters.windowStart });
    return { value: row.count, retryAfterSeconds: this.retryAfter(now, row.windowStart, rule) };
  }

  /** SQL: the key's window is still open at `now` (it began less than `windowMs` before). */
  private openAt(now: Date, rule: RateLimitRule) {
    return sql`${rateLimitCounters.windowStart} > ${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
  }

  /** Seconds until the window that refused a reservation ends (it may have ended meanwhile: then 1). */
  private async retryAfterOf(key: string, now: Date, rule: RateLimitRule): Promise<number> {
    const [row] = await this.db.select({ windowStart: rateLimitCounters.windowStart }).from(rateLimitCounters).where(eq(rateLimitCounters.key, key));
    return row ? this.retryAfter(now, row.windowStart, rule) : 1;
  }

  private retryAfter(now: Date, windowStart: Date, rule: RateLimitRule): number {
    return Math.max(1, Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000));
  }
}

const tooManyRequests = (retryAfterSeconds: number) => new AppError(429, TOO_MANY_REQUESTS, { headers: { "Retry-After": String(retryAfterSeconds) } });
