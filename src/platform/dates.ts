/** `startDate`/`endDate` filters are inclusive UTC days (contract §2): [start 00:00, day after end 00:00). */
export function dayRange(startDate?: string, endDate?: string): { from?: Date; until?: Date } {
  return {
    from: startDate ? new Date(`${startDate}T00:00:00.000Z`) : undefined,
    until: endDate ? new Date(new Date(`${endDate}T00:00:00.000Z`).getTime() + 24 * 60 * 60 * 1000) : undefined,
  };
}
