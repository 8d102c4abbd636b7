import { blankNameMessage, profileInput, renameInput } from "../src/modules/users/user.inputs.js";
import { userSchema } from "../src/modules/users/user.dto.js";
import { userMetricsSchema } from "../src/modules/executions/execution.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import { readMultipart } from "./multipart.js";
import type { DocumentedRouter } from "./routes.js";

const PROFILE = "Profile";

/** The caller's profile and other users' (api-spec.md "Profile"). */
export function addProfileRoutes(routes: DocumentedRouter, services: Services): void {
  const { users } = services;

  routes.add(
    {
      method: "get",
      path: "/users/profile",
      operationId: "getProfile",
      tag: PROFILE,
      summary: "The caller's profile",
      description: "The account the token belongs to.",
      auth: "required",
      scope: "profile:read",
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
      description: "Only the fields given change; null clears an optional one. A weight given is also added to the weight history of `GET /users/metrics`.",
      auth: "required",
      scope: "profile:write",
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
      description: "The caller's counts and totals over all of their history, their last 8 weeks, weight history and personal records.",
      auth: "required",
      scope: "activity:read",
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
      description:
        "Answered to the user themself, to administrators, and to the other party of an ACTIVE trainer-student link; anyone else gets 403 `Acesso negado`.",
      auth: "required",
      scope: "students:read",
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
      description: "The user themself or an administrator. A blank or missing name answers 400 `Nome não pode estar vazio`.",
      auth: "required",
      scope: "profile:write",
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
      description:
        "The user themself or an administrator. The image type is judged from the file's bytes, never from its name or declared type. The answer's `profilePicture` is the new image's absolute address; the old image is removed.",
      auth: "required",
      scope: "profile:write",
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
