import { firebaseLoginInput, loginInput, registerInput } from "../src/modules/users/user.inputs.js";
import { messageSchema, refreshedTokenSchema, sessionSchema } from "../src/modules/users/user.dto.js";
import type { Services } from "../src/services.js";
import { actorOf, bodyReader, requestMeta } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

export const ACCOUNTS = "Accounts and sessions";

/** Registration, logins, token refresh and logout (api-spec.md "Accounts and sessions"). */
export function addSessionRoutes(routes: DocumentedRouter, services: Services): void {
  const { auth } = services;

  routes.add(
    {
      method: "post",
      path: "/users/register",
      operationId: "register",
      tag: ACCOUNTS,
      summary: "Create an account",
      description:
        "No token needed. Creates the account and signs it in. Unless it comes from the web app with `confirmed: true`, it starts with `emailConfirmed: false` and a confirmation link is e-mailed; an unconfirmed user may still log in.",
      auth: "none",
      success: 201,
      body: registerInput,
      response: sessionSchema,
      errors: { 409: "Email já cadastrado", 429: "Muitas requisições (per address)", 503: "the password hashing queue is full" },
    },
    async (req, res) => {
      res.status(201).json(await auth.register(bodyReader(req, registerInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/login",
      operationId: "login",
      tag: ACCOUNTS,
      summary: "Log in with e-mail and password",
      description:
        "No token needed. The answer's token is valid for 24 hours. A wrong password answers 400 `Credenciais inválidas`; after repeated failures for one e-mail (5 in 15 minutes by default) the e-mail is locked out for a while (429).",
      auth: "none",
      success: 200,
      body: loginInput,
      response: sessionSchema,
      errors: {
        400: "Credenciais inválidas",
        404: "Usuário não encontrado",
        429: "Muitas requisições (per address)",
        503: "the password hashing queue is full",
      },
    },
    async (req, res) => {
      res.json(await auth.login(bodyReader(req, loginInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/firebase-login",
      operationId: "firebaseLogin",
      tag: ACCOUNTS,
      summary: "Log in with an identity provider ID token",
      description:
        "No token needed. The identity provider's ID token is verified (signature, issuer, audience, expiry) and its `email` claim names the account: 400 when it does not verify (or no provider is configured), 404 when no account has that e-mail.",
      auth: "none",
      success: 200,
      body: firebaseLoginInput,
      response: sessionSchema,
      errors: { 400: "the identity token is invalid", 404: "Usuário não encontrado", 429: "Muitas requisições (per address)" },
    },
    async (req, res) => {
      res.json(await auth.firebaseLogin(bodyReader(req, firebaseLoginInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/refresh-token",
      operationId: "refreshToken",
      tag: ACCOUNTS,
      summary: "Exchange a valid token for a new one (the old one is revoked)",
      description:
        "A login token only, not a personal or an app's token. The answer's token is valid for 24 hours; the one sent is revoked, so refreshing it again answers 401.",
      auth: "required",
      scope: "login",
      success: 200,
      response: refreshedTokenSchema,
    },
    async (req, res) => {
      res.json(await auth.refresh(await actorOf(services, req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/logout",
      operationId: "logout",
      tag: ACCOUNTS,
      summary: "Revoke the current token",
      description: "A login token only, not a personal or an app's token. The token sent is refused from then on (401), on every instance.",
      auth: "required",
      scope: "login",
      success: 200,
      response: messageSchema,
    },
    async (req, res) => {
      res.json(await auth.logout(await actorOf(services, req)));
    },
  );
}
