/**
 * JSON answers leave with their instants already ISO strings, the text `JSON.stringify` would write for them (a Date's
 * `toJSON`: its ISO string, null when invalid). V8's JSON.stringify leaves its fast path for an object holding a Date and
 * pays ~1 µs a date, ~0.13 µs here: a metrics answer with a few hundred dates spent about a third of its CPU there.
 * Plain objects and arrays are copied with their dates replaced (an answer may share objects with a cache); anything else
 * (a class instance, an object with its own toJSON) is left as it is.
 */
export function withIsoInstants(value: unknown): unknown {
  if (value === null || typeof value !== "object") return value;
  if (value instanceof Date) return isoInstant(value);
  if (Array.isArray(value)) return value.map(withIsoInstants);
  const prototype = Object.getPrototypeOf(value) as unknown;
  if ((prototype !== Object.prototype && prototype !== null) || typeof (value as { toJSON?: unknown }).toJSON === "function") return value;
  const copy: Record<string, unknown> = {};
  for (const key in value) copy[key] = withIsoInstants((value as Record<string, unknown>)[key]);
  return copy;
}

/** The last millisecond of year 9999: later (and pre-1970) instants are rare enough for Date's own formatting. */
const YEAR_10000 = 253_402_300_800_000;
const DAY_MS = 86_400_000;
const pad2 = (n: number) => (n < 10 ? `0${n}` : String(n));
const pad3 = (n: number) => (n < 10 ? `00${n}` : n < 100 ? `0${n}` : String(n));

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
  const clock = `${pad2(Math.floor(ms / 3_600_000))}:${pad2(Math.floor(ms / 60_000) % 60)}:${pad2(Math.floor(ms / 1000) % 60)}.${pad3(ms % 1000)}`;
  return `${year}-${pad2(month)}-${pad2(day)}T${clock}Z`;
}
