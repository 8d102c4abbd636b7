import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWK, type JWTPayload } from "jose";

export interface IdTokenOptions {
  /** Claims to add or override (`email: undefined` drops the e-mail claim). */
  claims?: Partial<JWTPayload> & Record<string, unknown>;
  /** Issue time; defaults to now. */
  issuedAt?: Date;
  /** Lifetime in seconds; defaults to one hour (Firebase's). */
  ttlSeconds?: number;
  /** Signs with another key pair (same kid), so the signature does not match the published key. */
  foreignKey?: boolean;
  kid?: string;
}

/**
 * A local stand-in for Google's securetoken JWKS endpoint: serves one generated RS256 public key on
 * 127.0.0.1 and signs Firebase-like ID tokens with its private half.
 */
export class JwksServer {
  readonly kid = "test-key-1";
  /** How many times the key set was fetched. */
  requests = 0;
  url = "";
  private server!: Server;
  private privateKey!: CryptoKey;
  private foreignPrivateKey!: CryptoKey;
  private jwk!: JWK;

  constructor(readonly projectId: string) {}

  async start(): Promise<string> {
    const pair = await generateKeyPair("RS256");
    const foreign = await generateKeyPair("RS256");
    this.privateKey = pair.privateKey;
    this.foreignPrivateKey = foreign.privateKey;
    this.jwk = { ...(await exportJWK(pair.publicKey)), kid: this.kid, alg: "RS256", use: "sig" };
    this.server = createServer((req, res) => {
      this.requests += 1;
      res.writeHead(200, { "content-type": "application/json", "cache-control": "public, max-age=3600" });
      res.end(JSON.stringify({ keys: [this.jwk] }));
    });
    await new Promise<void>((resolve) => this.server.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/jwks.json`;
    return this.url;
  }

  async stop(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  get issuer(): string {
    return `https://securetoken.google.com/${this.projectId}`;
  }

  /** An ID token as Firebase issues them: iss, aud, sub, email, iat, exp, RS256 with this server's kid. */
  async idToken(email: string | undefined, options: IdTokenOptions = {}): Promise<string> {
    const iat = Math.floor((options.issuedAt ?? new Date()).getTime() / 1000);
    const payload: JWTPayload = {
      iss: this.issuer,
      aud: this.projectId,
      sub: "firebase-uid-123",
      auth_time: iat,
      iat,
      exp: iat + (options.ttlSeconds ?? 3600),
      ...(email === undefined ? {} : { email, email_verified: true }),
      firebase: { sign_in_provider: "google.com" },
      ...options.claims,
    };
    for (const [key, value] of Object.entries(payload)) if (value === undefined) delete payload[key];
    return new SignJWT(payload)
      .setProtectedHeader({ alg: "RS256", kid: options.kid ?? this.kid, typ: "JWT" })
      .sign(options.foreignKey ? this.foreignPrivateKey : this.privateKey);
  }
}

/** Starts a JWKS server for `projectId`; stop it in afterAll. */
export async function startJwksServer(projectId: string): Promise<JwksServer> {
  const server = new JwksServer(projectId);
  await server.start();
  return server;
}
