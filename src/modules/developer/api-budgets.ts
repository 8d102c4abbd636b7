import type { Actor } from "../../platform/auth/actor.js";
import type { Clock } from "../../platform/clock.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, TOO_MANY_REQUESTS } from "../../platform/errors.js";
import type { CostState } from "../../graphql/cost-budget.js";
import { apiBudgetRepository, BUDGET_WINDOWS } from "./api-budget.repository.js";

export interface BudgetLimits {
  costBucket: number;
  costRestorePerSecond: number;
  requestsPer15Min: number;
  requestsPerDay: number;
}

/**
 * The budgets of apps and personal tokens (contract §18.4), per (app or personal token, user) pair and shared by every
 * instance (api_budgets): REST requests per 15 minutes and per day, reported in the IETF RateLimit fields; GraphQL
 * points in a leaky bucket. Login tokens are not budgeted.
 */
export class ApiBudgets {
  constructor(
    private readonly db: Db,
    private readonly clock: Clock,
    private readonly limits: BudgetLimits,
  ) {}

  /** The pair a caller spends from; null when not budgeted (anonymous, a login token). */
  keyOf(actor: Actor): string | null {
    if (actor.kind !== "user") return null;
    const { credential } = actor;
    if (credential.kind === "personal-token") return `pat:${credential.tokenId}`;
    if (credential.kind === "app") return `app:${credential.clientId}:${actor.id}`;
    return null;
  }

  /**
   * Counts a REST request of a budgeted caller in both windows (one statement); answers the RateLimit fields of the
   * window nearer its limit, or throws 429 with them and Retry-After once either is passed.
   */
  async countRequest(actor: Actor): Promise<Record<string, string> | null> {
    const key = this.keyOf(actor);
    if (key === null) return null;
    const now = this.clock.now();
    const row = await apiBudgetRepository.countRequest(this.db, key, now);
    const windows = [
      { limit: this.limits.requestsPer15Min, count: row.quarterCount, endsAt: row.quarterStart!.getTime() + BUDGET_WINDOWS.quarterMs },
      { limit: this.limits.requestsPerDay, count: row.dayCount, endsAt: row.dayStart!.getTime() + BUDGET_WINDOWS.dayMs },
    ];
    const reset = (endsAt: number) => Math.max(1, Math.ceil((endsAt - now.getTime()) / 1000));
    const nearest = windows.reduce((a, b) => (b.limit - b.count < a.limit - a.count ? b : a));
    const headers = {
      "RateLimit-Limit": String(nearest.limit),
      "RateLimit-Remaining": String(Math.max(0, nearest.limit - nearest.count)),
      "RateLimit-Reset": String(reset(nearest.endsAt)),
      "RateLimit-Policy": `${this.limits.requestsPer15Min};w=${BUDGET_WINDOWS.quarterMs / 1000}, ${this.limits.requestsPerDay};w=${BUDGET_WINDOWS.dayMs / 1000}`,
    };
    const passed = windows.filter((window) => window.count > window.limit);
    if (passed.length > 0) {
      const retryAfter = Math.max(...passed.map((window) => reset(window.endsAt)));
      throw new AppError(429, TOO_MANY_REQUESTS, { headers: { ...headers, "Retry-After": String(retryAfter) } });
    }
    return headers;
  }

  /** Takes `cost` points from a budgeted caller's bucket, if it holds them (an operation above the bucket takes none). */
  async takePoints(actor: Actor, cost: number): Promise<{ taken: boolean; state: CostState; retryAfterSeconds: number }> {
    const key = this.keyOf(actor);
    if (key === null) throw new Error("not a budgeted caller");
    const { costBucket: max, costRestorePerSecond: rate } = this.limits;
    const now = this.clock.now();
    const left = cost > max ? null : await apiBudgetRepository.takePoints(this.db, key, cost, now, max, rate);
    const available = left ?? (await apiBudgetRepository.pointsOf(this.db, key, now, max, rate));
    const state: CostState = {
      requestedQueryCost: cost,
      actualQueryCost: 0,
      maximumAvailable: max,
      currentlyAvailable: available,
      restoreRate: rate,
      resetAt: new Date(now.getTime() + Math.ceil(((max - available) / rate) * 1000)),
    };
    const retryAfterSeconds = left === null && cost <= max ? Math.max(1, Math.ceil((cost - available) / rate)) : 0;
    return { taken: left !== null, state, retryAfterSeconds };
  }

  /** Gives back points taken beyond what an operation spent. */
  async givePoints(actor: Actor, points: number): Promise<void> {
    const key = this.keyOf(actor);
    if (key !== null) await apiBudgetRepository.givePoints(this.db, key, points, this.limits.costBucket);
  }
}
