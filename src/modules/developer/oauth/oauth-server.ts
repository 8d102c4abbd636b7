import type { IncomingMessage, ServerResponse } from "node:http";
import Provider, { errors, type AdapterPayload, type Configuration, type KoaContextWithOIDC } from "oidc-provider";
import { isScope, SCOPE_NAMES, type Scope } from "../../../platform/auth/scopes.js";
import type { Clock } from "../../../platform/clock.js";
import { open, purposeKey } from "../../../platform/crypto/sealed.js";
import { secretTokenHash } from "../../../platform/crypto/secret-tokens.js";
import type { Db } from "../../../platform/db/database.js";
import type { Logger } from "../../../platform/logger.js";
import { LruMap } from "../../../platform/lru-map.js";
import type { DelegatedCredential, DelegatedCredentials } from "../../users/delegated-credentials.js";
import type { SessionCache } from "../../users/session-cache.js";
import { emit } from "../../events/emit.js";
import { developerAppRepository } from "../developer-app.repository.js";
import { LastUsedWriter } from "../last-used.js";
import { OAuthAdapter } from "./oauth-adapter.js";
import { oauthPayloadRepository, type GonePayload } from "./oauth-payload.repository.js";
import { oauthSigningKey } from "./signing-key.js";
import { AuthorizationInteractions } from "./interactions.js";
import { escapeHtml } from "../../../platform/html.js";

/** Where the authorization server's endpoints are, under the issuer (PUBLIC_BASE_URL). */
export const OAUTH_ROUTES = {
  authorization: "/oauth/auth",
  token: "/oauth/token",
  revocation: "/oauth/revoke",
  introspection: "/oauth/introspect",
  jwks: "/oauth/jwks",
} as const;
/** The interaction pages' path: login and consent (`/oauth/interaction/<uid>`). */
export const INTERACTION_PATH = "/oauth/interaction";

const ACCESS_TOKEN_TTL_S = 3600;
const REFRESH_TOKEN_TTL_S = 30 * 86_400;
/** The API's scopes (offline_access is OpenID's: it asks for a refresh token). */
const API_SCOPES: readonly Scope[] = SCOPE_NAMES.filter((scope) => scope !== "offline_access");
const IDENTIFIED_KEPT = 10_000;

export interface OAuthServerDeps {
  db: Db;
  clock: Clock;
  logger: Logger;
  sessions: SessionCache;
  /** PUBLIC_BASE_URL: the issuer. */
  issuer: string;
  serverSecret: string;
}

export const clientSecretKey = (serverSecret: string) => purposeKey(serverSecret, "oauth-client-secret");
const sessionKeyOf = (accessTokenId: string) => `oauth:${accessTokenId}`;

/**
 * The authorization server (contract §18.1) on oidc-provider, an OpenID Certified library: discovery, authorization
 * code with PKCE (S256, required), refresh tokens rotated at each use (a reused one revokes its grant), revocation and
 * introspection. Its state is on our database (OAuthAdapter); its clients are the apps users register. Access tokens
 * are opaque, for the API (one resource), with our scopes, for an hour; AuthService authenticates them through
 * `credentials`. Every token deleted (revoked, its grant or app gone) is refused at once on every instance: the
 * session cache hears of it.
 */
export class OAuthServer {
  readonly provider: Provider;
  /** The login and consent steps, as the service's pages carry them out. */
  readonly interactions: AuthorizationInteractions;
  /** The API as a resource (RFC 8707): what every access token is for. */
  readonly resource: string;
  private readonly identified = new LruMap<DelegatedCredential>(IDENTIFIED_KEPT);
  private readonly lastUsed: LastUsedWriter;

  constructor(private readonly deps: OAuthServerDeps) {
    this.resource = `${deps.issuer}/api`;
    this.lastUsed = new LastUsedWriter(deps.clock, deps.logger, (grantId, at) => oauthPayloadRepository.touchGrant(deps.db, grantId, at));
    const secretKey = clientSecretKey(deps.serverSecret);
    const adapterDeps = {
      db: deps.db,
      clientMetadata: async (clientId: string): Promise<AdapterPayload | undefined> => {
        const app = await developerAppRepository.findByClientId(deps.db, clientId);
        if (!app) return undefined;
        return {
          client_id: app.clientId,
          client_name: app.name,
          redirect_uris: app.redirectUris,
          grant_types: ["authorization_code", "refresh_token"],
          response_types: ["code"],
          id_token_signed_response_alg: "ES256",
          ...(app.confidential && app.sealedSecret
            ? { token_endpoint_auth_method: "client_secret_basic", client_secret: open(secretKey, Buffer.from(app.sealedSecret, "base64")).toString("utf8") }
            : { token_endpoint_auth_method: "none" }),
        };
      },
      gone: (payloads: GonePayload[]) => this.announceGone(payloads),
    };
    const resource = this.resource;
    const registeredScopes = async (clientId: string) => (await developerAppRepository.findByClientId(deps.db, clientId))?.scopes ?? [];
    const configuration: Configuration = {
      adapter: (name: string) => new OAuthAdapter(name, adapterDeps),
      findAccount: async (_ctx, sub) => ({ accountId: sub, claims: async () => ({ sub }) }),
      claims: { openid: ["sub"] },
      scopes: ["openid", "offline_access"],
      jwks: { keys: [oauthSigningKey(deps.serverSecret)] },
      cookies: { keys: [purposeKey(deps.serverSecret, "oauth-cookies").toString("base64url")] },
      interactions: { url: (_ctx, interaction) => `${INTERACTION_PATH}/${interaction.uid}` },
      routes: OAUTH_ROUTES,
      responseTypes: ["code"],
      pkce: { required: () => true },
      rotateRefreshToken: true,
      issueRefreshToken: async (_ctx, client, code) =>
        client.grantTypeAllowed("refresh_token") && code.scopes.has("offline_access") && (await registeredScopes(client.clientId)).includes("offline_access"),
      ttl: {
        AccessToken: ACCESS_TOKEN_TTL_S,
        AuthorizationCode: 60,
        RefreshToken: REFRESH_TOKEN_TTL_S,
        Grant: 365 * 86_400,
        Interaction: 3600,
        Session: 14 * 86_400,
        IdToken: 3600,
      },
      features: {
        devInteractions: { enabled: false },
        userinfo: { enabled: false },
        rpInitiatedLogout: { enabled: false },
        revocation: { enabled: true },
        // Confidential apps only, about their own tokens.
        introspection: {
          enabled: true,
          allowedPolicy: async (ctx: KoaContextWithOIDC, client, token) => client.clientAuthMethod !== "none" && token.clientId === ctx.oidc.client?.clientId,
        },
        resourceIndicators: {
          enabled: true,
          defaultResource: () => resource,
          useGrantedResource: () => true,
          // What the app registered bounds what it may be granted: scopes asked beyond it are left out.
          getResourceServerInfo: async (_ctx, indicator, client) => {
            if (indicator !== resource) throw new errors.InvalidTarget();
            const scopes = await registeredScopes(client.clientId);
            return {
              scope: scopes.filter((scope) => API_SCOPES.includes(scope)).join(" "),
              audience: resource,
              accessTokenTTL: ACCESS_TOKEN_TTL_S,
              accessTokenFormat: "opaque",
            };
          },
        },
      },
      // Browser-based tools call the token endpoint from their own origin.
      clientBasedCORS: () => true,
      renderError: async (ctx, out) => {
        ctx.type = "html";
        ctx.body = errorPage(String(out.error), typeof out.error_description === "string" ? out.error_description : "");
      },
    };
    this.provider = new Provider(deps.issuer, configuration);
    this.interactions = new AuthorizationInteractions(this.provider);
    // Every absolute URL it writes is the issuer's (see `callback`), whatever address the request reached.
    this.provider.proxy = true;
    this.provider.on("server_error", (_ctx, error) => deps.logger.error({ err: error }, "authorization server error"));
  }

  /**
   * The authorization server's handler for Node's requests. Its endpoints are named after the issuer (PUBLIC_BASE_URL),
   * not after the host a request names (a load balancer's, an internal address, a client's forgery): the forwarded
   * host and protocol it reads are set to the issuer's.
   */
  callback(): (req: IncomingMessage, res: ServerResponse) => void {
    const handle = this.provider.callback();
    const issuer = new URL(this.deps.issuer);
    return (req, res) => {
      req.headers["x-forwarded-host"] = issuer.host;
      req.headers["x-forwarded-proto"] = issuer.protocol.slice(0, -1);
      void handle(req, res);
    };
  }

  /** What AuthService asks to authenticate an app's access token (opaque: never a JWT, never fit_pat_…). */
  readonly credentials: DelegatedCredentials = {
    recognizes: (token) => !token.includes(".") && !token.startsWith("fit_"),
    identify: async (token) => {
      const hash = secretTokenHash(token);
      const kept = this.identified.get(hash);
      if (kept) return kept;
      const found = await this.provider.AccessToken.find(token);
      if (!found || found.aud !== this.resource || !found.accountId || !found.grantId || !found.exp) return null;
      const userId = Number(found.accountId);
      if (!Number.isSafeInteger(userId)) return null;
      const credential: DelegatedCredential = {
        userId,
        credential: { kind: "app", clientId: found.clientId!, grantId: found.grantId },
        scopes: new Set((found.scope ?? "").split(" ").filter((name): name is Scope => isScope(name))),
        expiresAt: new Date(found.exp * 1000),
        sessionKey: sessionKeyOf(found.jti),
      };
      this.identified.set(hash, credential);
      return credential;
    },
    holds: (credential) => {
      const { grantId } = appCredentialOf(credential);
      return oauthPayloadRepository.tokenHeld(this.deps.db, "AccessToken", credential.sessionKey.slice("oauth:".length), grantId, new Date());
    },
    used: (credential) => this.lastUsed.note(appCredentialOf(credential).grantId),
  };

  /** Drops what the authorization server kept past its expiry (codes, tokens, sessions, interactions, grants). */
  async purgeExpired(): Promise<void> {
    await oauthPayloadRepository.purgeExpired(this.deps.db, new Date());
  }

  /** Deletes a grant and every token issued under it; they are refused at once on every instance. */
  async revokeGrant(grantId: string): Promise<void> {
    await this.announceGone(await oauthPayloadRepository.deleteGrant(this.deps.db, grantId));
  }

  /**
   * Tells every instance that deleted access tokens are refused from now on; and, once a user holds no grant of an app
   * any more, tells the service (`app_authorization.revoked`: the endpoints the app registered for the user go).
   */
  async announceGone(payloads: GonePayload[]): Promise<void> {
    const { db, clock, sessions } = this.deps;
    for (const { model, id, accountId, clientId } of payloads) {
      if (accountId === null) continue;
      if (model === "AccessToken") await sessions.tokenRevoked(accountId, sessionKeyOf(id));
      if (model === "Grant" && clientId !== null && (await oauthPayloadRepository.grantIdsOf(db, clientId, accountId, new Date())).length === 0) {
        await db.transaction((tx) => emit(tx, clock.now(), { type: "app_authorization.revoked", userId: accountId, clientId }));
      }
    }
  }
}

function appCredentialOf(credential: DelegatedCredential): { clientId: string; grantId: string } {
  if (credential.credential.kind !== "app") throw new Error("not an app's token");
  return credential.credential;
}

const errorPage = (error: string, description: string) =>
  `<!doctype html><html lang="pt-BR"><head><meta charset="utf-8"><title>Não foi possível autorizar</title></head>` +
  `<body><h1>Não foi possível autorizar</h1><p>${escapeHtml(error)}${description ? `: ${escapeHtml(description)}` : ""}</p></body></html>`;
