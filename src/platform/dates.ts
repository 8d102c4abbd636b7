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

/** The last millisecond of year 9999: later (and pre-1970) instants are rare enough for Date's own formatting. */
const YEAR_10000 = 253_402_300_800_000;
/** The character codes of the tens and the units digit of `n` (a whole number), and of the ISO separators. */
const tens = (n: number) => 48 + (Math.floor(n / 10) % 10);
const units = (n: number) => 48 + (n % 10);
const [DASH, T, COLON, DOT, Z] = Array.from("-T:.Z", (c) => c.charCodeAt(0));

/** `date.toISOString()` (null for an invalid date, as `toJSON`), computed from the epoch milliseconds. */
export function isoInstant(date: Date): string | null {
  const time = date.getTime();
  if (!(time >= 0 && time < YEAR_10000)) return Number.isNaN(time) ? null : date.toISOString();
  const days = Math.floor(time / DAY_MS);
  const ms = time - days * DAY_MS;
  // Days since 1970-01-01 to a civil date (Howard Hinnant's days_from_civil, inverted), in 400-year eras from 0000-03-01.
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  const hour = Math.floor(ms / 3_600_000);
  const minute = Math.floor(ms / 60_000) % 60;
  const second = Math.floor(ms / 1000) % 60;
  const milli = ms % 1000;
  const century = Math.floor(year / 100);
  const centi = Math.floor(milli / 10);
  // One 24-character string, where concatenation would make a dozen short-lived pieces for the garbage collector.
  // prettier-ignore
  return String.fromCharCode(
    tens(century), units(century), tens(year), units(year), DASH, tens(month), units(month), DASH, tens(day), units(day),
    T, tens(hour), units(hour), COLON, tens(minute), units(minute), COLON, tens(second), units(second),
    DOT, tens(centi), units(centi), units(milli), Z,
  );
}
