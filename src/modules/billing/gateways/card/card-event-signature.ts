import { createHmac } from "node:crypto";

/**
 * The card gateway event's signature (contract §8): header `Card-Signature` (or `Stripe-Signature`)
 * `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, t + "." + raw body)>`, several `v1` entries allowed (secret
 * rotation), 5-minute tolerance. Verification goes through the Stripe SDK's verifier (constant-time compare,
 * the exact scheme Stripe signs with), fed our clock; the SDK only refuses timestamps that are too old, so a
 * header dated too far in the future is refused here. The SDK is loaded with the first event that gets that far.
 */
export const CARD_EVENT_TOLERANCE_SECONDS = 300;

/** A verified gateway event: `{id, type, data:{object}}`; the object names our subscription (contract §8). */
export interface CardGatewayEvent {
  id: string;
  type: string;
  created?: number;
  data: { object: Record<string, unknown> };
}

interface ParsedHeader {
  timestamp: number;
  signatures: string[];
}

/** Strict reading of the header: one decimal `t`, at least one non-empty `v1`; other schemes are ignored. */
function parseSignatureHeader(header: string): ParsedHeader | null {
  let timestamp: number | null = null;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const eq = part.indexOf("=");
    if (eq <= 0) return null;
    const key = part.slice(0, eq).trim();
    const value = part.slice(eq + 1).trim();
    if (key === "t") {
      if (timestamp !== null || !/^\d{1,12}$/.test(value)) return null;
      timestamp = Number(value);
    } else if (key === "v1" && value !== "") {
      signatures.push(value);
    }
  }
  if (timestamp === null || signatures.length === 0) return null;
  return { timestamp, signatures };
}

function isEvent(value: unknown): value is CardGatewayEvent {
  if (typeof value !== "object" || value === null) return false;
  const event = value as Record<string, unknown>;
  const data = event.data as Record<string, unknown> | null | undefined;
  return (
    typeof event.id === "string" &&
    event.id !== "" &&
    typeof event.type === "string" &&
    event.type !== "" &&
    typeof data === "object" &&
    data !== null &&
    typeof data.object === "object" &&
    data.object !== null &&
    !Array.isArray(data.object)
  );
}

/**
 * The event of a correctly signed request, or null: missing or garbled header, no matching `v1`, a timestamp
 * more than 5 minutes from `nowSeconds` either way, an empty secret, a body that is not an event.
 */
export async function verifyCardEvent(
  rawBody: Buffer | string,
  header: string | undefined,
  secret: string,
  nowSeconds: number,
): Promise<CardGatewayEvent | null> {
  if (!header || secret.trim() === "" || rawBody.length === 0) return null;
  const parsed = parseSignatureHeader(header);
  if (!parsed) return null;
  if (Math.abs(nowSeconds - parsed.timestamp) > CARD_EVENT_TOLERANCE_SECONDS) return null;
  const { default: Stripe } = await import("stripe");
  let event: unknown;
  try {
    // receivedAt is in milliseconds: the SDK measures the age as floor(receivedAt / 1000) - t.
    // The SDK gets the header rebuilt from what was read above (it does not trim spaces around entries).
    const canonical = [`t=${parsed.timestamp}`, ...parsed.signatures.map((s) => `v1=${s}`)].join(",");
    event = Stripe.webhooks.constructEvent(rawBody, canonical, secret, CARD_EVENT_TOLERANCE_SECONDS, undefined, Math.floor(nowSeconds) * 1000);
  } catch {
    return null; // bad signature, unparsable JSON: the receiver answers 400 with an empty body
  }
  return isEvent(event) ? event : null;
}

/** The header value a gateway would send for `rawBody` at `timestampSeconds` (tests and the local fake). */
export function signCardEvent(rawBody: Buffer | string, secret: string, timestampSeconds: number): string {
  const t = Math.floor(timestampSeconds);
  const signature = createHmac("sha256", secret)
    .update(`${t}.`)
    .update(typeof rawBody === "string" ? Buffer.from(rawBody, "utf8") : rawBody)
    .digest("hex");
  return `t=${t},v1=${signature}`;
}
