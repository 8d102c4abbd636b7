import { lt, sql } from "drizzle-orm";
import type { Clock } from "../clock.js";
import type { Db } from "../db/database.js";
import { AppError, TOO_MANY_REQUESTS } from "../errors.js";
import { rateLimitCounters } from "./rate-limit.table.js";

export interface RateLimitRule {
  limit: number;
  windowMs: number;
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

  /** Throws 429 when `key` has already reached the limit in its current window (counts nothing). */
  async ensureBelow(key: string, rule: RateLimitRule): Promise<void> {
    const now = this.clock.now();
    const [row] = await this.db
      .select({ count: rateLimitCounters.count, windowStart: rateLimitCounters.windowStart })
      .from(rateLimitCounters)
      .where(sql`${rateLimitCounters.key} = ${key}`);
    if (row && this.isOpen(row.windowStart, now, rule) && row.count >= rule.limit) {
      throw tooManyRequests(this.retryAfter(now, row.windowStart, rule));
    }
  }

  /** Counts one event on `key` (a failed login, say). */
  async record(key: string, rule: RateLimitRule): Promise<void> {
    await this.increment(key, rule);
  }

  async reset(key: string): Promise<void> {
    await this.db.delete(rateLimitCounters).where(sql`${rateLimitCounters.key} = ${key}`);
  }

  /** Drops counters whose window ended long ago. */
  async purge(olderThan: Date): Promise<void> {
    await this.db.delete(rateLimitCounters).where(lt(rateLimitCounters.windowStart, olderThan));
  }

  private async increment(key: string, rule: RateLimitRule): Promise<{ value: number; retryAfterSeconds: number }> {
    const now = this.clock.now();
    // The key's window is still open when it began after this instant.
    const openSince = sql`${new Date(now.getTime() - rule.windowMs).toISOString()}::timestamptz`;
    const open = sql`${rateLimitCounters.windowStart} > ${openSince}`;
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

  private isOpen(windowStart: Date, now: Date, rule: RateLimitRule): boolean {
    return now.getTime() < windowStart.getTime() + rule.windowMs;
  }

  private retryAfter(now: Date, windowStart: Date, rule: RateLimitRule): number {
    return Math.max(1, Math.ceil((windowStart.getTime() + rule.windowMs - now.getTime()) / 1000));
  }
}

const tooManyRequests = (retryAfterSeconds: number) =>
  new AppError(429, TOO_MANY_REQUESTS, { headers: { "Retry-After": String(retryAfterSeconds) } });
