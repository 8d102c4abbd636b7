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
