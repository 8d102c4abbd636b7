import type * as Jose from "jose";

/** Verifies an identity provider's ID token and names the e-mail it vouches for; null when it is not valid. */
export interface IdentityVerifier {
  verifiedEmail(idToken: string): Promise<string | null>;
}

/**
 * Firebase ID tokens (contract §3): RS256, issuer `https://securetoken.google.com/<project>`, audience the
 * project, keys from a JWKS URL (fetched once and cached by jose, refreshed when an unknown `kid` appears).
 * A token whose `email_verified` is false is refused. jose is loaded with the first token to verify: most instances
 * see none for long, and some never.
 */
export function createFirebaseVerifier(projectId: string | undefined, jwksUrl: string): IdentityVerifier {
  if (!projectId) return { verifiedEmail: async () => null };
  const jwks = new URL(jwksUrl);
  let verifier: Promise<{ jwtVerify: typeof Jose.jwtVerify; keys: ReturnType<typeof Jose.createRemoteJWKSet> }> | undefined;
  const loaded = () =>
    (verifier ??= import("jose").then(({ createRemoteJWKSet, jwtVerify }) => ({
      jwtVerify,
      keys: createRemoteJWKSet(jwks, { timeoutDuration: 5000, cooldownDuration: 30_000 }),
    })));
  return {
    async verifiedEmail(idToken) {
      try {
        const { jwtVerify, keys } = await loaded();
        const { payload } = await jwtVerify(idToken, keys, {
          algorithms: ["RS256"],
          issuer: `https://securetoken.google.com/${projectId}`,
          audience: projectId,
          requiredClaims: ["sub", "exp", "iat"],
        });
        // An address the provider says is unverified could belong to anyone: it names no account here.
        if (payload.email_verified === false) return null;
        return typeof payload.email === "string" && payload.email.length > 0 ? payload.email.toLowerCase() : null;
      } catch {
        return null;
      }
    },
  };
}
