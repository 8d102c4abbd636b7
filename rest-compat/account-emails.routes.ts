import { confirmEmailInput, forgotPasswordInput, resetPasswordInput, shortPasswordMessage } from "../src/modules/users/user.inputs.js";
import { messageSchema } from "../src/modules/users/user.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, queryReader, requestMeta } from "./http.js";
import type { DocumentedRouter } from "./routes.js";
import { ACCOUNTS } from "./sessions.routes.js";

/** What the e-mailed tokens do: password resets and e-mail confirmation (api-spec.md "Accounts and sessions"). */
export function addAccountEmailRoutes(routes: DocumentedRouter, services: Services): void {
  const { auth } = services;

  routes.add(
    {
      method: "post",
      path: "/users/forgot-password",
      operationId: "forgotPassword",
      tag: ACCOUNTS,
      summary: "E-mail a password reset link",
      description:
        "No token needed. E-mails the account a link to reset its password, valid for 1 hour and once; the links sent before it stop working. 404 when no account has the address.",
      auth: "none",
      success: 200,
      body: forgotPasswordInput,
      response: messageSchema,
      errors: { 404: "Usuário não encontrado", 429: "Muitas requisições (per address)" },
    },
    async (req, res) => {
      res.json(await auth.forgotPassword(bodyReader(req, forgotPasswordInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/reset-password",
      operationId: "resetPassword",
      tag: ACCOUNTS,
      summary: "Set a new password with the e-mailed token",
      description:
        "No token needed. Sets the password with the token of the e-mailed link, which also confirms the address; every login token issued before it stops working. A password shorter than 6 characters answers 400 `A senha deve ter pelo menos 6 caracteres`.",
      auth: "none",
      success: 200,
      body: resetPasswordInput,
      response: messageSchema,
      errors: { 400: "Token inválido ou expirado", 429: "Muitas requisições (per address)", 503: "the password hashing queue is full" },
    },
    async (req, res) => {
      res.json(await auth.resetPassword(bodyReader(req, resetPasswordInput, shortPasswordMessage), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/confirm-email",
      operationId: "confirmEmail",
      tag: ACCOUNTS,
      summary: "Confirm an e-mail address with the e-mailed token",
      description:
        "No token needed. The link e-mailed at registration (valid for 7 days, once) carries the `token`; a missing, used or expired one answers 400 `Token inválido ou expirado`.",
      auth: "none",
      success: 200,
      query: confirmEmailInput,
      response: messageSchema,
      errors: { 400: "Token inválido ou expirado" },
    },
    async (req, res) => {
      res.json(await auth.confirmEmail(queryReader(req, confirmEmailInput)));
    },
  );
}
