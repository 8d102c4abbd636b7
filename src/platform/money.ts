/** Money is kept in integer cents; these are the only conversions. */

/** 4990 → 49.9, the JSON number the API shows (exact: one division of an integer, no sums of floats). */
export const centsToAmount = (cents: number): number => cents / 100;

/** 4990 → "R$ 49,90"; 123456789 → "R$ 1.234.567,89". */
export function formatBrl(cents: number): string {
  const sign = cents < 0 ? "-" : "";
  const abs = Math.abs(cents);
  const reais = Math.floor(abs / 100)
    .toString()
    .replace(/\B(?=(\d{3})+(?!\d))/g, ".");
  return `${sign}R$ ${reais},${(abs % 100).toString().padStart(2, "0")}`;
}
