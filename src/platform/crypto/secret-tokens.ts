import { createHash, randomBytes } from "node:crypto";

/** A URL-safe random token of `bytes` random bytes, to be shown once: store only `secretTokenHash` of it. */
export const newSecretToken = (bytes: number) => randomBytes(bytes).toString("base64url");

/** What is stored of a secret token (its SHA-256, hex): enough to recognize it, useless to present. */
export const secretTokenHash = (token: string) => createHash("sha256").update(token).digest("hex");
