import { createHmac, timingSafeEqual } from "node:crypto";
import type { FeedPosition } from "./change-feed.repository.js";

/**
 * What a feed cursor carries, opaque to clients (base64url of a short dotted text and its MAC, so an altered or
 * corrupted cursor is refused rather than read from a place the service never handed out):
 * - whose feed it reads (a cursor is refused for another user: it would skip their changes);
 * - `position`: every change of the user at or before it has been handed out, together with everything the initial
 *   listing showed;
 * - `caughtUpAt`: when the reader last reached the end of its feed (ms). Rows past the position were all written after
 *   it, less the length of a transaction, so the 410 rule and the pruning job reason on it;
 * - `listing`: while an initial sync is still listing current entities, which kind and id it reached;
 * - `ahead`: transactions past the position whose rows were handed out early (they had committed while an older
 *   transaction was still running, so the position could not pass them): of each, every row up to its `id`.
 */
export interface FeedCursor {
  userId: number;
  position: FeedPosition;
  caughtUpAt: number;
  listing?: { kind: number; afterId: number };
  ahead?: FeedPosition[];
}

/** "1": position and time, or a listing's place; "2": position and time, then `ahead` as (xid past the position's, id) pairs. */
const VERSION = "1";
const VERSION_AHEAD = "2";
/** At most this many transactions handed out ahead of a cursor's position (it keeps the cursor short). */
export const MAX_AHEAD = 16;
const DIGITS = /^(0|[1-9]\d{0,19})$/;
const MAX_INT = 2_147_483_647;
const MAX_XID8 = 18_446_744_073_709_551_615n;
/**
 * A cursor is a few dozen characters, a few hundred with transactions ahead; anything longer than the longest one can
 * be (every number at 20 digits, MAX_AHEAD pairs) is not one (and is not decoded).
 */
export const MAX_CURSOR_LENGTH = 1100;

/** Bytes of the HMAC-SHA256 a cursor carries. */
const MAC_BYTES = 12;

const macOf = (key: string, text: string) => createHmac("sha256", key).update(text).digest().subarray(0, MAC_BYTES);

/** The cursor as text, authenticated with `key`. */
export function encodeCursor(cursor: FeedCursor, key: string): string {
  const ahead = cursor.ahead ?? [];
  const parts = [ahead.length > 0 ? VERSION_AHEAD : VERSION, cursor.userId, cursor.position.xid, cursor.position.id, cursor.caughtUpAt];
  if (cursor.listing) parts.push(cursor.listing.kind, cursor.listing.afterId);
  const base = BigInt(cursor.position.xid);
  for (const { xid, id } of ahead) parts.push((BigInt(xid) - base).toString(), id);
  const text = parts.join(".");
  return Buffer.concat([Buffer.from(text, "latin1"), macOf(key, text)]).toString("base64url");
}

/** The cursor `text` encodes, or null when it is not one this service wrote with `key` (any change makes it unreadable). */
export function decodeCursor(text: string, key: string, listingKinds: number): FeedCursor | null {
  if (text.length === 0 || text.length > MAX_CURSOR_LENGTH || !/^[A-Za-z0-9_-]+$/.test(text)) return null;
  const bytes = Buffer.from(text, "base64url");
  if (bytes.length <= MAC_BYTES) return null;
  const decoded = bytes.subarray(0, bytes.length - MAC_BYTES).toString("latin1");
  if (!timingSafeEqual(bytes.subarray(bytes.length - MAC_BYTES), macOf(key, decoded))) return null;
  const parts = decoded.split(".");
  const withAhead = parts[0] === VERSION_AHEAD;
  const shaped = withAhead
    ? parts.length >= 7 && parts.length % 2 === 1 && parts.length <= 5 + 2 * MAX_AHEAD
    : parts[0] === VERSION && (parts.length === 5 || parts.length === 7);
  if (!shaped) return null;
  const fields = parts.slice(1);
  if (!fields.every((field) => DIGITS.test(field))) return null;
  const [userId, id, caughtUpAt] = [Number(fields[0]), Number(fields[2]), Number(fields[3])];
  const xid = BigInt(fields[1]);
  if (userId < 1 || userId > MAX_INT || xid > MAX_XID8 || !Number.isSafeInteger(id) || !Number.isSafeInteger(caughtUpAt)) return null;
  const cursor: FeedCursor = { userId, position: { xid: xid.toString(), id }, caughtUpAt };
  if (withAhead) {
    const ahead: FeedPosition[] = [];
    for (let i = 4; i < fields.length; i += 2) {
      const [aheadXid, aheadId] = [xid + BigInt(fields[i]), Number(fields[i + 1])];
      if (aheadXid > MAX_XID8 || !Number.isSafeInteger(aheadId)) return null;
      ahead.push({ xid: aheadXid.toString(), id: aheadId });
    }
    cursor.ahead = ahead;
  } else if (fields.length === 6) {
    const [kind, afterId] = [Number(fields[4]), Number(fields[5])];
    if (kind >= listingKinds || afterId > MAX_INT) return null;
    cursor.listing = { kind, afterId };
  }
  return cursor;
}
