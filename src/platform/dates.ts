/** One UTC day. Calendar arithmetic here is in UTC, where every day has exactly this length. */
export const DAY_MS = 24 * 60 * 60 * 1000;

/** `startDate`/`endDate` filters are inclusive UTC days (contract §2): [start 00:00, day after end 00:00). */
export function dayRange(startDate?: string, endDate?: string): { from?: Date; until?: Date } {
  return {
    from: startDate ? new Date(`${startDate}T00:00:00.000Z`) : undefined,
    until: endDate ? new Date(new Date(`${endDate}T00:00:00.000Z`).getTime() + DAY_MS) : undefined,
  };
}

/** 2025-03-07T23:59:59Z → "07/03/2025" (always UTC, so the server's time zone never shifts a date). */
export function formatDateBr(date: Date): string {
  const dd = String(date.getUTCDate()).padStart(2, "0");
  const mm = String(date.getUTCMonth() + 1).padStart(2, "0");
  return `${dd}/${mm}/${date.getUTCFullYear()}`;
}
