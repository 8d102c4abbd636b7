import { createCipheriv, createDecipheriv, createHash, createHmac, randomBytes } from "node:crypto";

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
    this.key = createHash("sha256").update(`webhook-endpoint-secrets:${serverSecret}`).digest();
  }

  seal(secret: string): string {
    const iv = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, iv);
    const sealed = Buffer.concat([cipher.update(secret, "utf8"), cipher.final()]);
    return Buffer.concat([iv, cipher.getAuthTag(), sealed]).toString("base64");
  }

  open(sealed: string): string {
    const bytes = Buffer.from(sealed, "base64");
    const decipher = createDecipheriv("aes-256-gcm", this.key, bytes.subarray(0, 12));
    decipher.setAuthTag(bytes.subarray(12, 28));
    return Buffer.concat([decipher.update(bytes.subarray(28)), decipher.final()]).toString("utf8");
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
