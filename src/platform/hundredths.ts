/*
 * Measures with two decimals (kilograms, volumes, repetitions as record values) are counted in integer hundredths,
 * so sums and comparisons are exact and a value is rounded once, on the way in. Money has its own cents (money.ts).
 */

/** A number with at most two decimals → integer hundredths: 72.5 → 7250. */
export const toHundredths = (value: number): number => Math.round(value * 100);

/** Whether a number has at most two decimals (what toHundredths keeps exactly). */
export const hasAtMostTwoDecimals = (value: number): boolean => Math.abs(toHundredths(value) - value * 100) < 1e-6;

/** Exact decimal text with at most two places (a `numeric` column) → integer hundredths: "740.5" → 74050n. */
export function parseHundredths(text: string): bigint {
  const [whole, fraction = ""] = text.split(".");
  return BigInt(whole) * 100n + BigInt(fraction.padEnd(2, "0").slice(0, 2));
}

/** Non-negative integer hundredths → exact decimal text with two places: 12345 → "123.45". */
export function hundredthsText(value: bigint | number): string {
  const hundredths = BigInt(value);
  return `${hundredths / 100n}.${(hundredths % 100n).toString().padStart(2, "0")}`;
}
