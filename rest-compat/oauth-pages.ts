import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import express, { Router, type Request, type RequestHandler, type Response } from "express";
import { isScope, SCOPES } from "../src/platform/auth/scopes.js";
import { AppError } from "../src/platform/errors.js";
import { escapeHtml } from "../src/platform/html.js";
import type { Logger } from "../src/platform/logger.js";
import { loginInput } from "../src/modules/users/user.inputs.js";
import { INTERACTION_PATH } from "../src/modules/developer/oauth/oauth-server.js";
import type { Services } from "../src/services.js";
import { asAppError } from "./errors.js";
import { bodyReader, requestMeta } from "./http.js";
import { pageErrors, problemsOf, sendPage } from "./html-pages.js";

const CSRF_COOKIE = "oauth_csrf";
const EXPIRED = "Esta autorização expirou ou não é mais válida. Volte ao aplicativo e comece de novo.";
const FORGED = "Formulário inválido. Recarregue a página e tente novamente.";

/**
 * The authorization server on the web (contract §18.1): oidc-provider's endpoints (/oauth/…, discovery at
 * /.well-known/openid-configuration and /.well-known/oauth-authorization-server), and the service's own login and
 * consent pages, which it sends the browser to. Each form carries a CSRF token: a cookie, and a hidden input bound to
 * the cookie and the interaction.
 */
export function oauthPages(services: Services, logger: Logger, csrfKey: Buffer): Router {
  const { oauth, auth } = services;
  const { provider } = oauth;
  const callback = oauth.callback();
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: "16kb" });
  const csrfOf = (uid: string, cookie: string) => createHmac("sha256", csrfKey).update(`${uid}.${cookie}`).digest("base64url");

  const interaction = async (req: Request, res: Response) => {
    try {
      return await provider.interactionDetails(req, res);
    } catch {
      throw new AppError(400, EXPIRED);
    }
  };
  const appNameOf = async (clientId: unknown) => (typeof clientId === "string" ? ((await provider.Client.find(clientId))?.clientName ?? clientId) : "");

  /** A fresh CSRF cookie and the hidden input that goes with it. */
  const csrfInput = (res: Response, uid: string) => {
    const cookie = randomBytes(24).toString("base64url");
    res.cookie(CSRF_COOKIE, cookie, { httpOnly: true, sameSite: "lax", path: INTERACTION_PATH, secure: services.oauth.resource.startsWith("https:") });
    return `<input type="hidden" name="csrf" value="${csrfOf(uid, cookie)}">`;
  };
  const checkCsrf = (req: Request, uid: string) => {
    const cookie = cookieOf(req, CSRF_COOKIE);
    const sent = typeof req.body?.csrf === "string" ? Buffer.from(req.body.csrf) : Buffer.alloc(0);
    const expected = cookie ? Buffer.from(csrfOf(uid, cookie)) : Buffer.alloc(0);
    if (expected.length === 0 || sent.length !== expected.length || !timingSafeEqual(sent, expected)) throw new AppError(403, FORGED);
  };

  const showLogin = async (res: Response, uid: string, clientId: unknown, problem = "", status = 200) =>
    sendPage(res, status, "Entrar", problem + loginForm(uid, await appNameOf(clientId), csrfInput(res, uid)), { formActionSelf: false });

  router.get(`${INTERACTION_PATH}/:uid`, async (req, res) => {
    const details = await interaction(req, res);
    if (details.prompt.name === "login") return showLogin(res, details.uid, details.params.client_id);
    const asked = requestedScopes(details.prompt.details);
    sendPage(res, 200, "Autorizar aplicativo", consentForm(details.uid, await appNameOf(details.params.client_id), asked, csrfInput(res, details.uid)), {
      formActionSelf: false,
    });
  });

  router.post(`${INTERACTION_PATH}/:uid/login`, form, async (req, res) => {
    const details = await interaction(req, res);
    checkCsrf(req, details.uid);
    if (details.prompt.name !== "login") throw new AppError(400, EXPIRED);
    let userId: number;
    try {
      userId = (await auth.checkCredentials(bodyReader(req, loginInput), requestMeta(req))).id;
    } catch (error) {
      const refused = asAppError(error);
      if (!refused || refused.status >= 500) throw error;
      for (const [name, value] of Object.entries(refused.headers ?? {})) res.setHeader(name, value);
      return showLogin(res, details.uid, details.params.client_id, problemsOf(refused.message, refused.errors ?? []), refused.status);
    }
    await provider.interactionFinished(req, res, { login: { accountId: String(userId) } }, { mergeWithLastSubmission: false });
  });

  router.post(`${INTERACTION_PATH}/:uid/confirm`, form, async (req, res) => {
    const details = await interaction(req, res);
    checkCsrf(req, details.uid);
    const decision: unknown = req.body?.decision;
    if (details.prompt.name !== "consent" || !details.session?.accountId) throw new AppError(400, EXPIRED);
    if (decision === "deny") {
      const result = { error: "access_denied", error_description: "O usuário recusou o acesso" };
      return provider.interactionFinished(req, res, result, { mergeWithLastSubmission: false });
    }
    if (decision !== "approve") throw new AppError(400, "Parâmetro inválido: decision");
    const { missingOIDCScope, missingResourceScopes } = details.prompt.details as PromptDetails;
    const grant = details.grantId
      ? ((await provider.Grant.find(details.grantId)) ??
        new provider.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) }))
      : new provider.Grant({ accountId: details.session.accountId, clientId: String(details.params.client_id) });
    if (missingOIDCScope) grant.addOIDCScope(missingOIDCScope.join(" "));
    for (const [indicator, scopes] of Object.entries(missingResourceScopes ?? {})) grant.addResourceScope(indicator, scopes.join(" "));
    const grantId = await grant.save();
    await provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
  });
  router.use(INTERACTION_PATH, pageErrors(logger));

  // RFC 8414's metadata is OpenID's discovery document.
  const providerRoutes: RequestHandler = (req, res, next) => {
    if (req.path === "/.well-known/oauth-authorization-server") {
      req.url = "/.well-known/openid-configuration";
      return callback(req, res);
    }
    if (req.path === "/.well-known/openid-configuration" || (req.path.startsWith("/oauth/") && !req.path.startsWith(`${INTERACTION_PATH}/`))) {
      return callback(req, res);
    }
    next();
  };
  router.use(providerRoutes);
  return router;
}

interface PromptDetails {
  missingOIDCScope?: string[];
  missingResourceScopes?: Record<string, string[]>;
}

/** The scopes the consent asks for, each once, in the order the contract lists them. */
function requestedScopes(details: unknown): string[] {
  const { missingOIDCScope = [], missingResourceScopes = {} } = details as PromptDetails;
  const asked = new Set([...missingOIDCScope, ...Object.values(missingResourceScopes).flat()]);
  return Object.keys(SCOPES).filter((scope) => asked.has(scope));
}

function cookieOf(req: Request, name: string): string | undefined {
  for (const pair of (req.headers.cookie ?? "").split(";")) {
    const at = pair.indexOf("=");
    if (at > 0 && pair.slice(0, at).trim() === name) return pair.slice(at + 1).trim();
  }
  return undefined;
}

const loginForm = (uid: string, appName: string, csrf: string) =>
  `<p>Entre com sua conta para continuar em <strong>${escapeHtml(appName)}</strong>.</p>` +
  `<form method="post" action="${INTERACTION_PATH}/${encodeURIComponent(uid)}/login">${csrf}` +
  `<label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email">` +
  `<label for="password">Senha</label><input id="password" name="password" type="password" required autocomplete="current-password">` +
  `<button type="submit">Entrar</button></form>`;

const consentForm = (uid: string, appName: string, scopes: string[], csrf: string) =>
  `<p>O aplicativo <strong>${escapeHtml(appName)}</strong> pede permissão para:</p>` +
  `<ul>${scopes.map((scope) => `<li>${escapeHtml(isScope(scope) ? SCOPES[scope].pt : scope)} <small>(${escapeHtml(scope)})</small></li>`).join("")}</ul>` +
  `<form method="post" action="${INTERACTION_PATH}/${encodeURIComponent(uid)}/confirm">${csrf}` +
  `<button type="submit" name="decision" value="approve">Autorizar</button><button type="submit" name="decision" value="deny">Negar</button></form>`;
