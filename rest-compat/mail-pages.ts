import express, { Router } from "express";
import { invalidParameter } from "../src/platform/errors.js";
import { escapeHtml } from "../src/platform/html.js";
import type { Logger } from "../src/platform/logger.js";
import { pageErrors, problemsOf, sendPage } from "./html-pages.js";
import { MAIL_PAGES } from "../src/platform/mail/mail-links.js";
import type { Services } from "../src/services.js";
import { confirmEmailInput, loginInput, resetPasswordInput, shortPasswordMessage } from "../src/modules/users/user.inputs.js";
import { asAppError } from "./errors.js";
import { bodyReader, idParam, queryReader, requestMeta } from "./http.js";

/**
 * The pages e-mail links open when no web app is configured (WEB_APP_URL unset, contract §9): each does what the link
 * promises through the same services as REST and says so in Portuguese. They stand alone (inline CSS, no script, no
 * asset from elsewhere) and need no cookie: a link's token, or the password typed in the form, is the credential the
 * form posts back, so another site cannot make a visitor's browser act. Not REST operations: outside the OpenAPI document.
 */
export function mailPages(services: Services, logger: Logger): Router {
  const { auth, invites } = services;
  const router = Router();
  const form = express.urlencoded({ extended: false, limit: "16kb" });

  router.get(MAIL_PAGES.confirmEmail, async (req, res) => {
    await auth.confirmEmail(queryReader(req, confirmEmailInput));
    sendPage(res, 200, "E-mail confirmado", "<p>Seu endereço de e-mail foi confirmado. Você já pode fechar esta página.</p>");
  });

  router.get(MAIL_PAGES.resetPassword, async (req, res) => {
    const { token } = await auth.checkResetLink(queryReader(req, confirmEmailInput));
    sendPage(res, 200, "Redefinir senha", resetForm(token));
  });
  router.post(MAIL_PAGES.resetPassword, form, async (req, res) => {
    try {
      await auth.resetPassword(bodyReader(req, resetPasswordInput, shortPasswordMessage), requestMeta(req));
    } catch (error) {
      // A password the rules refuse: the same form again, with why, while the token still works.
      const refused = asAppError(error);
      if (!refused?.errors || typeof req.body?.token !== "string") throw error;
      sendPage(res, refused.status, "Redefinir senha", problemsOf(refused.message, refused.errors) + resetForm(req.body.token));
      return;
    }
    sendPage(res, 200, "Senha redefinida", "<p>Sua senha foi alterada. Entre no aplicativo com a nova senha.</p>");
  });

  router.get(`${MAIL_PAGES.invites}/:id`, (req, res) => {
    sendPage(res, 200, "Convite de personal trainer", inviteForm(idParam(req)));
  });
  router.post(`${MAIL_PAGES.invites}/:id`, form, async (req, res) => {
    const id = idParam(req);
    const decision: unknown = req.body?.decision;
    if (decision !== "accept" && decision !== "reject") throw invalidParameter("decision");
    const accept = decision === "accept";
    await invites.answerSignedIn(bodyReader(req, loginInput), requestMeta(req), id, accept);
    sendPage(
      res,
      200,
      accept ? "Convite aceito" : "Convite recusado",
      accept ? "<p>Convite aceito: agora você é aluno(a) deste personal trainer.</p>" : "<p>Convite recusado. O personal trainer foi avisado.</p>",
    );
  });

  router.use(pageErrors(logger));
  return router;
}

const resetForm = (token: string) =>
  `<form method="post" action="${MAIL_PAGES.resetPassword}"><input type="hidden" name="token" value="${escapeHtml(token)}">` +
  `<label for="password">Nova senha (pelo menos 6 caracteres)</label><input id="password" name="password" type="password" required minlength="6" autocomplete="new-password">` +
  `<button type="submit">Salvar nova senha</button></form>`;

const inviteForm = (id: number) =>
  `<p>Entre com o e-mail e a senha da sua conta de aluno(a) para responder ao convite.</p>` +
  `<form method="post" action="${MAIL_PAGES.invites}/${id}"><label for="email">E-mail</label><input id="email" name="email" type="email" required autocomplete="email">` +
  `<label for="password">Senha</label><input id="password" name="password" type="password" required autocomplete="current-password">` +
  `<button type="submit" name="decision" value="accept">Aceitar convite</button><button type="submit" name="decision" value="reject">Recusar</button></form>`;
