import { z } from "zod";
import type { Actor } from "../../platform/auth/actor.js";
import { requireUser } from "../../platform/auth/actor.js";
import { isScope, type Scope } from "../../platform/auth/scopes.js";
import type { Clock } from "../../platform/clock.js";
import { seal } from "../../platform/crypto/sealed.js";
import { newSecretToken, secretTokenHash } from "../../platform/crypto/secret-tokens.js";
import { lockForTransaction } from "../../platform/db/advisory-locks.js";
import type { Db } from "../../platform/db/database.js";
import { AppError, forbidden, notFound } from "../../platform/errors.js";
import type { PersonalDataHolder } from "../../platform/personal-data.js";
import type { InputReader } from "../../platform/validation.js";
import { toAppDto, type AppDto, type AuthorizationDto, type CreatedAppDto, appSchema, authorizationSchema } from "./developer.dto.js";
import type { AppChangeInput, AppDocumentsInput, AppInput } from "./developer.inputs.js";
import { developerAppDocumentRepository, developerAppRepository, type DeveloperAppRow } from "./developer-app.repository.js";
import { clientSecretKey, type OAuthServer } from "./oauth/oauth-server.js";
import { oauthPayloadRepository } from "./oauth/oauth-payload.repository.js";
import { requireLoginSession } from "./personal-token.service.js";

export const APP_NOT_FOUND = "Aplicativo não encontrado";
export const AUTHORIZATION_NOT_FOUND = "Autorização não encontrada";
/** Apps a user may register: enough for every tool, bounded so a loop cannot fill the table. */
export const MAX_APPS = 20;

export interface DeveloperAppServiceDeps {
  db: Db;
  clock: Clock;
  oauth: OAuthServer;
  serverSecret: string;
}

/** What the data export holds of this module (contract §15). */
const developerAppExport = z.object({
  developerApps: z.array(appSchema).describe("The apps the user registered (no secrets)"),
  authorizations: z.array(authorizationSchema).describe("The apps the user granted access to"),
});

/**
 * Apps users register for their tools (contract §18.1), the OAuth clients of the authorization server, and the grants
 * users gave them. Only a login session registers or changes an app. Deleting an app, or a user revoking an app's
 * authorization, deletes its grants and tokens, refused at once on every instance.
 */
export class DeveloperAppService {
  private readonly secretKey: Buffer;

  constructor(private readonly deps: DeveloperAppServiceDeps) {
    this.secretKey = clientSecretKey(deps.serverSecret);
  }

  async create(actor: Actor, readInput: InputReader<AppInput>): Promise<CreatedAppDto> {
    const caller = requireLoginSession(actor);
    const input = readInput();
    const clientSecret = input.confidential ? newSecretToken(32) : undefined;
    const now = this.deps.clock.now();
    const row = await this.deps.db.transaction(async (tx) => {
      await lockForTransaction(tx, "developer", caller.id);
      if ((await developerAppRepository.countOf(tx, caller.id)) >= MAX_APPS) throw new AppError(409, `Limite de ${MAX_APPS} aplicativos atingido`);
      return developerAppRepository.insert(tx, {
        userId: caller.id,
        clientId: `app_${newSecretToken(16)}`,
        name: input.name,
        redirectUris: input.redirectUris,
        scopes: input.scopes,
        confidential: input.confidential,
        sealedSecret: clientSecret === undefined ? null : this.sealSecret(clientSecret),
        createdAt: now,
        updatedAt: now,
      });
    });
    return { ...toAppDto(row), ...(clientSecret === undefined ? {} : { clientSecret }) };
  }

  async list(actor: Actor): Promise<AppDto[]> {
    const caller = requireUser(actor);
    return (await developerAppRepository.listOf(this.deps.db, caller.id)).map(toAppDto);
  }

  async get(actor: Actor, id: number): Promise<AppDto> {
    return toAppDto(await this.loadOwned(actor, id));
  }

  async update(actor: Actor, id: number, readInput: InputReader<AppChangeInput>): Promise<AppDto> {
    requireLoginSession(actor);
    const app = await this.loadOwned(actor, id);
    const input = readInput();
    const row = await developerAppRepository.update(this.deps.db, app.id, { ...input, updatedAt: this.deps.clock.now() });
    return toAppDto(row);
  }

  /** A new secret for a confidential app; the old one stops working at once. */
  async rotateSecret(actor: Actor, id: number): Promise<{ clientSecret: string }> {
    requireLoginSession(actor);
    const app = await this.loadOwned(actor, id);
    if (!app.confidential) throw new AppError(400, "Aplicativo público não tem segredo");
    const clientSecret = newSecretToken(32);
    await developerAppRepository.update(this.deps.db, app.id, { sealedSecret: this.sealSecret(clientSecret), updatedAt: this.deps.clock.now() });
    return { clientSecret };
  }

  /** Replaces the app's registered GraphQL documents (contract §18.5); answers their hashes, as APQ names them. */
  async registerDocuments(actor: Actor, id: number, readInput: InputReader<AppDocumentsInput>): Promise<{ hashes: string[] }> {
    requireLoginSession(actor);
    const app = await this.loadOwned(actor, id);
    const { documents } = readInput();
    const rows = [...new Map(documents.map((document) => [secretTokenHash(document), document])).entries()].map(([hash, document]) => ({ hash, document }));
    await this.deps.db.transaction((tx) => developerAppDocumentRepository.replace(tx, app.id, rows, this.deps.clock.now()));
    return { hashes: documents.map(secretTokenHash) };
  }

  /**
   * What an app's token may run (contract §18.5): for an app that runs registered documents only, its document of
   * `hash` (null when it registered none of that hash); undefined when the caller may run any document.
   */
  async trustedDocument(actor: Actor, hash: string | undefined): Promise<string | null | undefined> {
    if (actor.kind !== "user" || actor.credential.kind !== "app") return undefined;
    const found = await developerAppDocumentRepository.lookup(this.deps.db, actor.credential.clientId, hash ?? "");
    if (!found?.trustedOnly) return undefined;
    return found.document;
  }

  /** Deletes the app and every grant and token it holds. */
  async delete(actor: Actor, id: number): Promise<void> {
    const caller = requireLoginSession(actor);
    const app = await this.loadOwned(actor, id);
    await developerAppRepository.delete(this.deps.db, caller.id, app.id);
    await this.revokeGrantsOf(app.clientId, undefined);
  }

  /** The apps the caller authorized, one entry per app (its scopes, when first granted, when last used). */
  async authorizations(actor: Actor): Promise<AuthorizationDto[]> {
    return this.authorizationsOf(this.deps.db, requireUser(actor).id);
  }

  private async authorizationsOf(db: Db, userId: number): Promise<AuthorizationDto[]> {
    const grants = await oauthPayloadRepository.grantsOf(db, userId, new Date());
    const names = await developerAppRepository.namesOf(db, [...new Set(grants.map((grant) => grant.clientId!))]);
    const byClient = new Map<string, AuthorizationDto>();
    for (const grant of grants) {
      const clientId = grant.clientId!;
      const appName = names.get(clientId);
      if (appName === undefined) continue;
      const entry = byClient.get(clientId) ?? { clientId, appName, scopes: [], grantedAt: new Date(Number(grant.payload.iat) * 1000), lastUsedAt: null };
      entry.scopes = [...new Set([...entry.scopes, ...grantedScopes(grant.payload, this.deps.oauth.resource)])];
      if (grant.lastUsedAt && (!entry.lastUsedAt || grant.lastUsedAt > entry.lastUsedAt)) entry.lastUsedAt = grant.lastUsedAt;
      byClient.set(clientId, entry);
    }
    return [...byClient.values()];
  }

  /** Revokes what the caller granted an app: every token of that app for the caller is refused at once. */
  async revokeAuthorization(actor: Actor, clientId: string): Promise<void> {
    const caller = requireUser(actor);
    if (!(await this.revokeGrantsOf(clientId, caller.id))) throw notFound(AUTHORIZATION_NOT_FOUND);
  }

  /**
   * The user's apps (without secrets) and the authorizations they gave, in the export. Erasure deletes the apps (then
   * every grant others gave them) and all the authorization server kept of the user: sessions, grants, tokens.
   */
  readonly personalData: PersonalDataHolder<typeof developerAppExport> = {
    exportSections: developerAppExport,
    exportPersonalData: async (db, userId) => ({
      developerApps: (await developerAppRepository.listOf(db, userId)).map(toAppDto),
      authorizations: await this.authorizationsOf(db, userId),
    }),
    erasePersonalData: async (tx, userId) => {
      const apps = await developerAppRepository.deleteAllOf(tx, userId);
      const gone = await oauthPayloadRepository.deleteAccount(tx, userId);
      return async () => {
        await this.deps.oauth.announceGone(gone);
        for (const app of apps) await this.revokeGrantsOf(app.clientId, undefined);
      };
    },
  };

  private async revokeGrantsOf(clientId: string, userId: number | undefined): Promise<boolean> {
    const grantIds = await oauthPayloadRepository.grantIdsOf(this.deps.db, clientId, userId, new Date());
    for (const grantId of grantIds) await this.deps.oauth.revokeGrant(grantId);
    return grantIds.length > 0;
  }

  private async loadOwned(actor: Actor, id: number): Promise<DeveloperAppRow> {
    const caller = requireUser(actor);
    const app = await developerAppRepository.findById(this.deps.db, id);
    if (!app) throw notFound(APP_NOT_FOUND);
    if (app.userId !== caller.id) throw forbidden();
    return app;
  }

  private sealSecret(secret: string): string {
    return seal(this.secretKey, Buffer.from(secret, "utf8")).toString("base64");
  }
}

/** The API scopes a grant holds (its resource's), and offline_access when it lets the app refresh. */
function grantedScopes(payload: Record<string, unknown>, resource: string): Scope[] {
  const resources = (payload.resources ?? {}) as Record<string, string>;
  const openid = ((payload.openid ?? {}) as { scope?: string }).scope ?? "";
  return [...(resources[resource] ?? "").split(" "), ...openid.split(" ")].filter((name): name is Scope => isScope(name));
}
