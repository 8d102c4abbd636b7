import { createHmac, randomBytes } from "node:crypto";
import { open, purposeKey, seal } from "../../platform/crypto/sealed.js";

const SECRET_PREFIX = "whsec_";

/** A new signing secret: `whsec_` + base64 of 24 random bytes (Standard Webhooks). */
export const newWebhookSecret = () => SECRET_PREFIX + randomBytes(24).toString("base64");

/**
 * Seals endpoint secrets for storage: AES-256-GCM under a key derived from the server's secret with its own purpose
 * label, so a database dump alone does not give them away. A sealed value is base64 of iv (12) | tag (16) | ciphertext.
 */
export class SecretBox {
  private readonly key: Buffer;

  constructor(serverSecret: string) {
    this.key = purposeKey(serverSecret, "webhook-endpoint-secrets");
  }

  seal(secret: string): string {
    return seal(this.key, Buffer.from(secret, "utf8")).toString("base64");
  }

  open(sealed: string): string {
    return open(this.key, Buffer.from(sealed, "base64")).toString("utf8");
  }
}

/**
 * The `webhook-signature` header of Standard Webhooks: one `v1,<base64 HMAC-SHA256>` of `id.timestamp.body` per
 * secret (the key is the base64-decoded part after `whsec_`), space-separated.
 */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => {
      const key = Buffer.from(secret.slice(SECRET_PREFIX.length), "base64");
      return `v1,${createHmac("sha256", key).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`;
    })
    .join(" ");
}
