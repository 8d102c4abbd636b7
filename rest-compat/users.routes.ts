import {
  blankNameMessage,
  confirmEmailInput,
  firebaseLoginInput,
  forgotPasswordInput,
  loginInput,
  profileInput,
  registerInput,
  renameInput,
  resetPasswordInput,
  shortPasswordMessage,
} from "../src/modules/users/user.inputs.js";
import { messageSchema, refreshedTokenSchema, sessionSchema, userSchema } from "../src/modules/users/user.dto.js";
import { userMetricsSchema } from "../src/modules/executions/execution.dto.js";
import type { Services } from "../src/services.js";
import { actorOf, bodyReader, idParam, queryReader, requestMeta, userOf } from "./http.js";
import { readMultipart } from "./multipart.js";
import type { DocumentedRouter } from "./routes.js";

const ACCOUNTS = "Accounts and sessions";
const PROFILE = "Profile";

/** Accounts, sessions and profiles (api-spec.md "Accounts and sessions", "Profile"). */
export function addUserRoutes(routes: DocumentedRouter, services: Services): void {
  const { auth, users } = services;

  routes.add(
    {
      method: "post",
      path: "/users/register",
      operationId: "register",
      tag: ACCOUNTS,
      summary: "Create an account",
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
      auth: "required",
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
      auth: "required",
      success: 200,
      response: messageSchema,
    },
    async (req, res) => {
      res.json(await auth.logout(await actorOf(services, req)));
    },
  );
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

  routes.add(
    {
      method: "get",
      path: "/users/profile",
      operationId: "getProfile",
      tag: PROFILE,
      summary: "The caller's profile",
      auth: "required",
      success: 200,
      response: userSchema,
    },
    async (req, res) => {
      res.json(await users.getProfile(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/users/profile",
      operationId: "updateProfile",
      tag: PROFILE,
      summary: "Update the caller's profile",
      auth: "required",
      success: 200,
      body: profileInput,
      response: userSchema,
    },
    async (req, res) => {
      res.json(await users.updateProfile(await userOf(services, req), bodyReader(req, profileInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/metrics",
      operationId: "getMetrics",
      tag: PROFILE,
      summary: "The caller's training metrics",
      auth: "required",
      success: 200,
      response: userMetricsSchema,
    },
    async (req, res) => {
      res.type("json").send(await services.statistics.metricsJson(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/:id",
      operationId: "getUser",
      tag: PROFILE,
      summary: "A user (self, administrators, linked trainer or student)",
      auth: "required",
      success: 200,
      response: userSchema,
      errors: { 403: "Acesso negado", 404: "Usuário não encontrado" },
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await users.getUser(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "patch",
      path: "/users/:id",
      operationId: "renameUser",
      tag: PROFILE,
      summary: "Change a user's name (self or administrator)",
      auth: "required",
      success: 200,
      body: renameInput,
      response: userSchema,
      errors: { 400: "Nome não pode estar vazio", 403: "Acesso negado", 404: "Usuário não encontrado" },
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await users.rename(actor, idParam(req), bodyReader(req, renameInput, blankNameMessage)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/:userId/update-profile-photo",
      operationId: "updateProfilePhoto",
      tag: PROFILE,
      summary: "Replace the profile photo (JPG, PNG or GIF, at most 5 MB)",
      auth: "required",
      success: 200,
      multipart: { file: { description: "the image (JPG, PNG or GIF, at most 5 MB)", required: true, file: true } },
      response: userSchema,
      errors: { 400: "Arquivo inválido or too large", 403: "Acesso negado", 404: "Usuário não encontrado" },
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const userId = idParam(req, "userId");
      res.json(await users.updatePhoto(actor, userId, async () => (await readMultipart(req)).files.file));
    },
  );
}
