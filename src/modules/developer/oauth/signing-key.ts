import { createECDH, createHmac } from "node:crypto";
import type { JWK } from "oidc-provider";

/**
 * The ES256 key ID tokens are signed with, derived from the server's secret: every instance signs with the same key
 * and none is stored. (The API's access tokens are opaque; only ID tokens are signed.)
 */
export function oauthSigningKey(serverSecret: string): JWK {
  const d = createHmac("sha256", serverSecret).update("oauth-id-token-signing-key").digest();
  const ecdh = createECDH("prime256v1");
  ecdh.setPrivateKey(d);
  const point = ecdh.getPublicKey();
  return {
    kty: "EC",
    crv: "P-256",
    d: d.toString("base64url"),
    x: point.subarray(1, 33).toString("base64url"),
    y: point.subarray(33, 65).toString("base64url"),
    alg: "ES256",
    use: "sig",
    kid: createHmac("sha256", point).update("kid").digest("base64url").slice(0, 16),
  };
}
