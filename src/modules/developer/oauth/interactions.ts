import type { IncomingMessage, ServerResponse } from "node:http";
import type Provider from "oidc-provider";
import { SCOPE_NAMES, type Scope } from "../../../platform/auth/scopes.js";
import { AppError } from "../../../platform/errors.js";

export const INTERACTION_EXPIRED = "Esta autorização expirou ou não é mais válida. Volte ao aplicativo e comece de novo.";

type Details = Awaited<ReturnType<Provider["interactionDetails"]>>;

/** The step of an authorization a browser is at (its interaction cookie says which): log in, or decide. */
export interface Interaction {
  uid: string;
  step: "login" | "consent";
  /** The app asking, by the name it registered. */
  appName: string;
  /** The scopes the consent asks for, in the contract's order. */
  scopes: Scope[];
  readonly details: Details;
}

interface PromptDetails {
  missingOIDCScope?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/**
 * The authorization's steps the service's own pages carry out (contract §18.1), through oidc-provider's interaction
 * API: who logged in, and what the user approved (a grant of exactly the scopes the consent asked for) or denied.
 */
export class AuthorizationInteractions {
  constructor(private readonly provider: Provider) {}

  /** The step under way in this browser, or 400 when there is none (expired, no cookie, finished). */
  async current(req: IncomingMessage, res: ServerResponse): Promise<Interaction> {
    let details: Details;
    try {
      details = await this.provider.interactionDetails(req, res);
    } catch {
      throw new AppError(400, INTERACTION_EXPIRED);
    }
    const clientId = typeof details.params.client_id === "string" ? details.params.client_id : "";
    const app = clientId ? await this.provider.Client.find(clientId) : undefined;
    return {
      uid: details.uid,
      step: details.prompt.name === "login" ? "login" : "consent",
      appName: app?.clientName ?? clientId,
      scopes: askedScopes(details.prompt.details as PromptDetails),
      details,
    };
  }

  /** The user the login page signed in; the browser goes back to the authorization. */
  async loggedIn(req: IncomingMessage, res: ServerResponse, interaction: Interaction, userId: number): Promise<void> {
    if (interaction.step !== "login") throw new AppError(400, INTERACTION_EXPIRED);
    await this.provider.interactionFinished(req, res, { login: { accountId: String(userId) } }, { mergeWithLastSubmission: false });
  }

  /**
   * The user's decision: approved, a grant of what the consent asked (added to the grant the user already gave the app,
   * if any); denied, the app's redirect with `error=access_denied`.
   */
  async decided(req: IncomingMessage, res: ServerResponse, interaction: Interaction, approved: boolean): Promise<void> {
    const { details } = interaction;
    const accountId = details.session?.accountId;
    if (interaction.step !== "consent" || !accountId) throw new AppError(400, INTERACTION_EXPIRED);
    if (!approved) {
      const result = { error: "access_denied", error_description: "O usuário recusou o acesso" };
      return this.provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    const clientId = String(details.params.client_id);
    const grant = (details.grantId ? await this.provider.Grant.find(details.grantId) : undefined) ?? new this.provider.Grant({ accountId, clientId });
    const { missingOIDCScope, missingResourceScopes } = details.prompt.details as PromptDetails;
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await this.provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  }
}

/** The scopes a consent asks for, each once, in the order the contract lists them. */
function askedScopes({ missingOIDCScope = [], missingResourceScopes = {} }: PromptDetails): Scope[] {
  const asked = new Set([...missingOIDCScope, ...Object.values(missingResourceScopes).flat()]);
  return SCOPE_NAMES.filter((scope) => asked.has(scope));
}
