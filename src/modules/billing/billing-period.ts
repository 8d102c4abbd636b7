import type { PlanInterval } from "../../tables/billing.table.js";

export const MONTHS_PER_INTERVAL: Record<PlanInterval, number> = { MONTHLY: 1, QUARTERLY: 3, SEMIANNUAL: 6, ANNUAL: 12 };

/** The payment-flow shape names the period in Portuguese (MENSAL …). */
export const INTERVAL_NAMES: Record<PlanInterval, string> = { MONTHLY: "MENSAL", QUARTERLY: "TRIMESTRAL", SEMIANNUAL: "SEMESTRAL", ANNUAL: "ANUAL" };

/** `start` plus the plan's interval in calendar months (UTC); a day past the target month's end clamps to its last day. */
export function periodEnd(start: Date, interval: PlanInterval): Date {
  const months = MONTHS_PER_INTERVAL[interval];
  const end = new Date(start.getTime());
  const day = end.getUTCDate();
  end.setUTCDate(1);
  end.setUTCMonth(end.getUTCMonth() + months);
  const lastDay = new Date(Date.UTC(end.getUTCFullYear(), end.getUTCMonth() + 1, 0)).getUTCDate();
  end.setUTCDate(Math.min(day, lastDay));
  return end;
}
