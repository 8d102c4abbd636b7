import { z } from "zod";
import { createdPersonalTokenSchema, personalTokenSchema } from "../src/modules/developer/developer.dto.js";
import { personalTokenInput } from "../src/modules/developer/developer.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

export const DEVELOPER = "Developer";

/** Personal access tokens for the caller's own tools (contract §18.3): created, listed and revoked from a login session. */
export function addPersonalTokenRoutes(routes: DocumentedRouter, services: Services): void {
  const { personalTokens } = services;

  routes.add(
    {
      method: "post",
      path: "/users/me/tokens",
      operationId: "createPersonalToken",
      tag: DEVELOPER,
      summary: "Creates a personal access token (fit_pat_…) with scopes and an expiry; the answer holds the token, shown only now",
      description:
        "A login token only: a personal or an app's token cannot create tokens. At most 50 tokens per user (409). The answer holds the token itself, shown only here: keep it.",
      auth: "required",
      scope: "login",
      success: 201,
      body: personalTokenInput,
      response: createdPersonalTokenSchema,
      errors: { 409: "Limite de 50 tokens atingido" },
    },
    async (req, res) => {
      res.status(201).json(await personalTokens.create(await userOf(services, req), bodyReader(req, personalTokenInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/me/tokens",
      operationId: "listPersonalTokens",
      tag: DEVELOPER,
      summary: "The caller's personal access tokens, without the tokens themselves",
      description: "Oldest first, expired ones included, never the tokens themselves.",
      auth: "required",
      scope: "login",
      success: 200,
      response: z.array(personalTokenSchema),
    },
    async (req, res) => {
      res.json(await personalTokens.list(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/users/me/tokens/:id",
      operationId: "deletePersonalToken",
      tag: DEVELOPER,
      summary: "Revokes a personal access token: refused from the next request on, on every instance",
      description: "The caller's own tokens only (404 otherwise). A request signed with the token answers 401 from then on.",
      auth: "required",
      scope: "login",
      success: 204,
      errors: { 404: "Token não encontrado" },
    },
    async (req, res) => {
      await personalTokens.revoke(await userOf(services, req), idParam(req));
      res.status(204).end();
    },
  );
}
