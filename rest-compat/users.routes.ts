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
      tag: ACCOUNTS,
      summary: "Create an account",
      auth: "none",
      success: 201,
      body: registerInput,
      errors: [400, 409, 429],
    },
    async (req, res) => {
      res.status(201).json(await auth.register(bodyReader(req, registerInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/login",
      tag: ACCOUNTS,
      summary: "Log in with e-mail and password",
      auth: "none",
      success: 200,
      body: loginInput,
      errors: [400, 404, 429],
    },
    async (req, res) => {
      res.json(await auth.login(bodyReader(req, loginInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/firebase-login",
      tag: ACCOUNTS,
      summary: "Log in with an identity provider ID token",
      auth: "none",
      success: 200,
      body: firebaseLoginInput,
      errors: [400, 404, 429],
    },
    async (req, res) => {
      res.json(await auth.firebaseLogin(bodyReader(req, firebaseLoginInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/refresh-token",
      tag: ACCOUNTS,
      summary: "Exchange a valid token for a new one (the old one is revoked)",
      auth: "required",
      success: 200,
    },
    async (req, res) => {
      res.json(await auth.refresh(await actorOf(services, req)));
    },
  );
  routes.add(
    { method: "post", path: "/users/logout", tag: ACCOUNTS, summary: "Revoke the current token", auth: "required", success: 200 },
    async (req, res) => {
      res.json(await auth.logout(await actorOf(services, req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/forgot-password",
      tag: ACCOUNTS,
      summary: "E-mail a password reset link",
      auth: "none",
      success: 200,
      body: forgotPasswordInput,
      errors: [400, 404, 429],
    },
    async (req, res) => {
      res.json(await auth.forgotPassword(bodyReader(req, forgotPasswordInput), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/users/reset-password",
      tag: ACCOUNTS,
      summary: "Set a new password with the e-mailed token",
      auth: "none",
      success: 200,
      body: resetPasswordInput,
      errors: [400, 429],
    },
    async (req, res) => {
      res.json(await auth.resetPassword(bodyReader(req, resetPasswordInput, shortPasswordMessage), requestMeta(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/confirm-email",
      tag: ACCOUNTS,
      summary: "Confirm an e-mail address with the e-mailed token",
      auth: "none",
      success: 200,
      query: { token: "the token of the confirmation link" },
      errors: [400],
    },
    async (req, res) => {
      res.json(await auth.confirmEmail(queryReader(req, confirmEmailInput)));
    },
  );

  routes.add({ method: "get", path: "/users/profile", tag: PROFILE, summary: "The caller's profile", auth: "required", success: 200 }, async (req, res) => {
    res.json(await users.getProfile(await userOf(services, req)));
  });
  routes.add(
    {
      method: "put",
      path: "/users/profile",
      tag: PROFILE,
      summary: "Update the caller's profile",
      auth: "required",
      success: 200,
      body: profileInput,
      errors: [400],
    },
    async (req, res) => {
      res.json(await users.updateProfile(await userOf(services, req), bodyReader(req, profileInput)));
    },
  );
  routes.add(
    { method: "get", path: "/users/metrics", tag: PROFILE, summary: "The caller's training metrics", auth: "required", success: 200 },
    async (req, res) => {
      res.type("json").send(await services.statistics.metricsJson(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/:id",
      tag: PROFILE,
      summary: "A user (self, administrators, linked trainer or student)",
      auth: "required",
      success: 200,
      errors: [400, 403, 404],
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
      tag: PROFILE,
      summary: "Change a user's name (self or administrator)",
      auth: "required",
      success: 200,
      body: renameInput,
      errors: [400, 403, 404],
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
      tag: PROFILE,
      summary: "Replace the profile photo (JPG, PNG or GIF, at most 5 MB)",
      auth: "required",
      success: 200,
      multipart: { file: "the image" },
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      const userId = idParam(req, "userId");
      res.json(await users.updatePhoto(actor, userId, async () => (await readMultipart(req)).files.file));
    },
  );
}
