/**
 * The PIX "copia e cola" payload (BR Code): EMV® QRCPS-MPM TLVs as the Banco Central's BR Code manual lays
 * them out, closed by a CRC16-CCITT-FALSE. Money arrives in integer cents and is formatted as text, never
 * through a float.
 */

/** The PIX arrangement's globally unique identifier (field 26, sub-field 00). */
export const PIX_GUI = "br.gov.bcb.pix";

const MAX_MERCHANT_NAME = 25;
const MAX_MERCHANT_CITY = 15;
const MAX_TXID = 25;
/** Field 54 holds at most 13 characters ("9999999999.99"). */
const MAX_AMOUNT_CHARS = 13;
const CRC_TAG = "6304";

export interface EmvField {
  /** Two-digit tag, e.g. "26". */
  id: string;
  value: string;
}

interface BrCodeCommon {
  merchantName: string;
  merchantCity: string;
  /** Integer cents; omitted → the payer types the amount. */
  amountCents?: number;
  /** Alphanumeric, at most 25 characters; omitted → "***" (no identifier). */
  txid?: string;
}

/** Static BR Code: the receiver's PIX key. Dynamic BR Code: the PSP's payload location (no scheme). */
export type BrCodeInput = BrCodeCommon & ({ key: string; url?: never } | { url: string; key?: never });

/** CRC16-CCITT-FALSE (poly 0x1021, init 0xFFFF, no reflection, no final XOR) as 4 uppercase hex digits. */
export function crc16(payload: string): string {
  let crc = 0xffff;
  for (const byte of Buffer.from(payload, "utf8")) {
    crc ^= byte << 8;
    for (let bit = 0; bit < 8; bit += 1) {
      crc = crc & 0x8000 ? ((crc << 1) ^ 0x1021) & 0xffff : (crc << 1) & 0xffff;
    }
  }
  return crc.toString(16).toUpperCase().padStart(4, "0");
}

/** One TLV: two-digit id, two-digit length, value (printable ASCII, at most 99 characters). */
function tlv(id: string, value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new RangeError(`BR Code field ${id} must be printable ASCII`);
  if (value.length === 0 || value.length > 99) {
    throw new RangeError(`BR Code field ${id} must have 1 to 99 characters`);
  }
  return `${id}${value.length.toString().padStart(2, "0")}${value}`;
}

/** "São Paulo – Ação" → "Sao Paulo Acao": accents dropped, other non-ASCII removed, spaces squeezed, cut to `max`. */
export function foldAscii(text: string, max: number): string {
  return text
    .normalize("NFD")
    .replace(/[\u0300-\u036f]/g, "")
    .replace(/[^\x20-\x7e]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, max)
    .trim();
}

/** 4990 → "49.90", 1 → "0.01", 123456789 → "1234567.89" (string arithmetic on the integer). */
export function formatAmount(amountCents: number): string {
  if (!Number.isSafeInteger(amountCents) || amountCents <= 0) {
    throw new RangeError("amountCents must be a positive integer");
  }
  const digits = amountCents.toString().padStart(3, "0");
  const amount = `${digits.slice(0, -2)}.${digits.slice(-2)}`;
  if (amount.length > MAX_AMOUNT_CHARS) throw new RangeError("amountCents is too large for a BR Code");
  return amount;
}

/** The complete "copia e cola" payload, CRC included. Throws RangeError on input it cannot encode. */
export function buildPixBrCode(input: BrCodeInput): string {
  const name = foldAscii(input.merchantName, MAX_MERCHANT_NAME);
  const city = foldAscii(input.merchantCity, MAX_MERCHANT_CITY);
  if (!name) throw new RangeError("merchantName is empty once folded to ASCII");
  if (!city) throw new RangeError("merchantCity is empty once folded to ASCII");

  const txid = input.txid ?? "***";
  if (input.txid !== undefined && !new RegExp(`^[A-Za-z0-9]{1,${MAX_TXID}}$`).test(input.txid)) {
    throw new RangeError(`txid must be 1 to ${MAX_TXID} letters or digits`);
  }

  const account = input.key !== undefined ? tlv("00", PIX_GUI) + tlv("01", input.key) : tlv("00", PIX_GUI) + tlv("25", input.url);

  const body =
    tlv("00", "01") +
    // Point of initiation "12" (single use) marks a dynamic code; a static code leaves the field out.
    (input.url !== undefined ? tlv("01", "12") : "") +
    tlv("26", account) +
    tlv("52", "0000") +
    tlv("53", "986") +
    (input.amountCents !== undefined ? tlv("54", formatAmount(input.amountCents)) : "") +
    tlv("58", "BR") +
    tlv("59", name) +
    tlv("60", city) +
    tlv("62", tlv("05", txid)) +
    CRC_TAG;
  return body + crc16(body);
}

/** Splits one level of TLVs (parse a template's value again for its sub-fields). Throws on malformed input. */
export function parseEmv(payload: string): EmvField[] {
  const fields: EmvField[] = [];
  let at = 0;
  while (at < payload.length) {
    const head = payload.slice(at, at + 4);
    if (!/^\d{4}$/.test(head)) throw new Error(`Malformed EMV field header at position ${at}`);
    const length = Number(head.slice(2));
    const value = payload.slice(at + 4, at + 4 + length);
    if (value.length !== length) throw new Error(`EMV field ${head.slice(0, 2)} is truncated`);
    fields.push({ id: head.slice(0, 2), value });
    at += 4 + length;
  }
  return fields;
}

/** True when the payload is well-formed TLV, starts with "000201", ends with field 63 and its CRC matches. */
export function isValidBrCode(payload: string): boolean {
  if (!/^000201/.test(payload) || !/6304[0-9A-F]{4}$/.test(payload)) return false;
  try {
    const fields = parseEmv(payload);
    if (fields.at(-1)?.id !== "63" || fields.filter((f) => f.id === "63").length !== 1) return false;
  } catch {
    return false;
  }
  return crc16(payload.slice(0, -4)) === payload.slice(-4);
}
