import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import express, { Router, type Request, type RequestHandler, type Response } from "express";
import { SCOPES, type Scope } from "../src/platform/auth/scopes.js";
import { AppError } from "../src/platform/errors.js";
import { escapeHtml } from "../src/platform/html.js";
import type { Logger } from "../src/platform/logger.js";
import { loginInput } from "../src/modules/users/user.inputs.js";
import { INTERACTION_PATH } from "../src/modules/developer/oauth/oauth-server.js";
import { INTERACTION_EXPIRED, type Interaction } from "../src/modules/developer/oauth/interactions.js";
import type { Services } from "../src/services.js";
import { asAppError } from "./errors.js";
import { bodyReader, requestMeta } from "./http.js";
import { pageErrors, problemsOf, sendPage } from "./html-pages.js";

const CSRF_COOKIE = "oauth_csrf";
const FORGED = "Formulário inválido. Recarregue a página e tente novamente.";

/**
 * The authorization server on the web (contract §18.1): oidc-provider's endpoints (/oauth/…, discovery at
 * /.well-known/openid-configuration and /.well-known/oauth-authorization-server), and the service's own login and
 * consent pages, which it sends the browser to. Each form carries a CSRF token: a cookie, and a hidden input bound to
 * the cookie and the interaction.
 */
export function oauthPages(services: Services, logger: Logger, csrfKey: Buffer): Router {
  const { oauth, auth } = services;
  const { interactions } = oauth;
  const callback = oauth.callback();
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: "16kb" });
  const csrfOf = (uid: string, cookie: string) => createHmac("sha256", csrfKey).update(`${uid}.${cookie}`).digest("base64url");

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

  const showLogin = (res: Response, interaction: Interaction, problem = "", status = 200) =>
    sendPage(res, status, "Entrar", problem + loginForm(interaction.uid, interaction.appName, csrfInput(res, interaction.uid)), { formActionSelf: false });

  router.get(`${INTERACTION_PATH}/:uid`, async (req, res) => {
    const interaction = await interactions.current(req, res);
    if (interaction.step === "login") return showLogin(res, interaction);
    const page = consentForm(interaction.uid, interaction.appName, interaction.scopes, csrfInput(res, interaction.uid));
    sendPage(res, 200, "Autorizar aplicativo", page, { formActionSelf: false });
  });

  router.post(`${INTERACTION_PATH}/:uid/login`, form, async (req, res) => {
    const interaction = await interactions.current(req, res);
    checkCsrf(req, interaction.uid);
    if (interaction.step !== "login") throw new AppError(400, INTERACTION_EXPIRED);
    let userId: number;
    try {
      userId = (await auth.checkCredentials(bodyReader(req, loginInput), requestMeta(req))).id;
    } catch (error) {
      // Wrong credentials, an unknown e-mail, a lockout: the form again, with why.
      const refused = asAppError(error);
      if (!refused || refused.status >= 500) throw error;
      for (const [name, value] of Object.entries(refused.headers ?? {})) res.setHeader(name, value);
      return showLogin(res, interaction, problemsOf(refused.message, refused.errors ?? []), refused.status);
    }
    await interactions.loggedIn(req, res, interaction, userId);
  });

  router.post(`${INTERACTION_PATH}/:uid/confirm`, form, async (req, res) => {
    const interaction = await interactions.current(req, res);
    checkCsrf(req, interaction.uid);
    const decision: unknown = req.body?.decision;
    if (decision !== "approve" && decision !== "deny") throw new AppError(400, "Parâmetro inválido: decision");
    await interactions.decided(req, res, interaction, decision === "approve");
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

const consentForm = (uid: string, appName: string, scopes: Scope[], csrf: string) =>
  `<p>O aplicativo <strong>${escapeHtml(appName)}</strong> pede permissão para:</p>` +
  `<ul>${scopes.map((scope) => `<li>${escapeHtml(SCOPES[scope].pt)} <small>(${escapeHtml(scope)})</small></li>`).join("")}</ul>` +
  `<form method="post" action="${INTERACTION_PATH}/${encodeURIComponent(uid)}/confirm">${csrf}` +
  `<button type="submit" name="decision" value="approve">Autorizar</button><button type="submit" name="decision" value="deny">Negar</button></form>`;
