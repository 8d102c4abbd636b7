import type { Adapter, AdapterPayload } from "oidc-provider";
import type { Db } from "../../../platform/db/database.js";
import { oauthPayloadRepository, type GonePayload } from "./oauth-payload.repository.js";

export interface OAuthAdapterDeps {
  db: Db;
  /** The registered app behind a client id, as the authorization server reads a client's metadata. */
  clientMetadata(clientId: string): Promise<AdapterPayload | undefined>;
  /** Told of every grant and token deleted (revoked, consumed twice, an app or a user gone), after the delete. */
  gone(payloads: GonePayload[]): Promise<void>;
}

/**
 * oidc-provider's storage on our database (its adapter interface): every model's payload in oauth_payloads, clients
 * from the apps users registered. Times are the real clock's, as the library's own are.
 */
export class OAuthAdapter implements Adapter {
  constructor(
    private readonly model: string,
    private readonly deps: OAuthAdapterDeps,
  ) {}

  async upsert(id: string, payload: AdapterPayload, expiresIn: number): Promise<void> {
    const accountId = Number(payload.accountId);
    await oauthPayloadRepository.upsert(this.deps.db, {
      model: this.model,
      id,
      payload: payload as Record<string, unknown>,
      grantId: payload.grantId ?? null,
      uid: payload.uid ?? null,
      accountId: Number.isSafeInteger(accountId) ? accountId : null,
      clientId: payload.clientId ?? null,
      expiresAt: expiresIn ? new Date(Date.now() + expiresIn * 1000) : null,
    });
  }

  async find(id: string): Promise<AdapterPayload | undefined> {
    if (this.model === "Client") return this.deps.clientMetadata(id);
    return (await oauthPayloadRepository.find(this.deps.db, this.model, id, new Date())) as AdapterPayload | undefined;
  }

  async findByUid(uid: string): Promise<AdapterPayload | undefined> {
    return (await oauthPayloadRepository.findByUid(this.deps.db, this.model, uid, new Date())) as AdapterPayload | undefined;
  }

  async findByUserCode(): Promise<undefined> {
    // The device flow is not offered.
    return undefined;
  }

  /**
   * A code or refresh token used twice at once (two instances, each having read it unused) is a reuse like any other:
   * the loser revokes the grant, so neither request's new tokens hold.
   */
  async consume(id: string): Promise<void> {
    const { consumedNow, grantId } = await oauthPayloadRepository.consume(this.deps.db, this.model, id, new Date());
    if (!consumedNow && grantId !== null) await this.deps.gone(await oauthPayloadRepository.deleteGrant(this.deps.db, grantId));
  }

  async destroy(id: string): Promise<void> {
    await this.deps.gone(await oauthPayloadRepository.destroy(this.deps.db, this.model, id));
  }

  async revokeByGrantId(grantId: string): Promise<void> {
    await this.deps.gone(await oauthPayloadRepository.revokeByGrantId(this.deps.db, this.model, grantId));
  }
}
