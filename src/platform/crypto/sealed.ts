import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";

const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A 256-bit key for `seal` derived from the server's secret for one purpose: each purpose has a key of its own. */
export function purposeKey(serverSecret: string, purpose: string): Buffer {
  return createHash("sha256").update(`${purpose}:${serverSecret}`).digest();
}

/**
 * What is stored instead of a secret or a private answer: AES-256-GCM under `key`, as iv (12 bytes) | tag (16) |
 * ciphertext. Reading it back needs the key, which the database never holds; a changed byte fails `open`.
 */
export function seal(key: Buffer, plain: Buffer): Buffer {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const sealed = Buffer.concat([cipher.update(plain), cipher.final()]);
  return Buffer.concat([iv, cipher.getAuthTag(), sealed]);
}

/** The bytes `seal` sealed under `key`; throws when they were sealed under another key or altered. */
export function open(key: Buffer, sealed: Buffer): Buffer {
  const decipher = createDecipheriv("aes-256-gcm", key, sealed.subarray(0, IV_BYTES));
  decipher.setAuthTag(sealed.subarray(IV_BYTES, IV_BYTES + TAG_BYTES));
  return Buffer.concat([decipher.update(sealed.subarray(IV_BYTES + TAG_BYTES)), decipher.final()]);
}
