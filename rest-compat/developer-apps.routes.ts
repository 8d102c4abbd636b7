import { z } from "zod";
import { appSchema, appSecretSchema, authorizationSchema, createdAppSchema, registeredDocumentsSchema } from "../src/modules/developer/developer.dto.js";
import { appChangeInput, appDocumentsInput, appInput } from "../src/modules/developer/developer.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import { DEVELOPER } from "./personal-tokens.routes.js";
import type { DocumentedRouter } from "./routes.js";

/** Apps registered for the OAuth flow, and the authorizations a user gave apps (contract §18.1). */
export function addDeveloperAppRoutes(routes: DocumentedRouter, services: Services): void {
  const { developerApps } = services;
  const owned = { 403: "Acesso negado (another user's app)", 404: "Aplicativo não encontrado" };

  routes.add(
    {
      method: "post",
      path: "/developer/apps",
      operationId: "createDeveloperApp",
      tag: DEVELOPER,
      summary: "Registers an app (an OAuth client); a confidential app's secret is in the answer, shown only now",
      description:
        "A login token only: a personal or an app's token cannot register apps. At most 20 apps per user (409). The answer holds a confidential app's `clientSecret`: keep it, it is not shown again.",
      auth: "required",
      scope: "login",
      success: 201,
      body: appInput,
      response: createdAppSchema,
      errors: { 409: "Limite de 20 aplicativos atingido" },
    },
    async (req, res) => {
      res.status(201).json(await developerApps.create(await userOf(services, req), bodyReader(req, appInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/developer/apps",
      operationId: "listDeveloperApps",
      tag: DEVELOPER,
      summary: "The caller's apps",
      description: "The apps the caller registered, oldest first, without their secrets.",
      auth: "required",
      scope: "login",
      success: 200,
      response: z.array(appSchema),
    },
    async (req, res) => {
      res.json(await developerApps.list(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/developer/apps/:id",
      operationId: "getDeveloperApp",
      tag: DEVELOPER,
      summary: "One of the caller's apps",
      description: "The app's owner only (403 for anyone else).",
      auth: "required",
      scope: "login",
      success: 200,
      response: appSchema,
      errors: owned,
    },
    async (req, res) => {
      res.json(await developerApps.get(await userOf(services, req), idParam(req)));
    },
  );
  routes.add(
    {
      method: "patch",
      path: "/developer/apps/:id",
      operationId: "updateDeveloperApp",
      tag: DEVELOPER,
      summary: "Changes an app's name, redirect URIs, scopes, or whether its tokens run registered documents only",
      description: "A login token only; the app's owner only. Only the fields given change; the new scopes bound what the app may be granted from then on.",
      auth: "required",
      scope: "login",
      success: 200,
      body: appChangeInput,
      response: appSchema,
      errors: owned,
    },
    async (req, res) => {
      res.json(await developerApps.update(await userOf(services, req), idParam(req), bodyReader(req, appChangeInput)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/developer/apps/:id",
      operationId: "deleteDeveloperApp",
      tag: DEVELOPER,
      summary: "Deletes an app: every token it holds is refused from the next request on",
      description: "A login token only; the app's owner only. Every grant users gave it and every token it holds is revoked.",
      auth: "required",
      scope: "login",
      success: 204,
      errors: owned,
    },
    async (req, res) => {
      await developerApps.delete(await userOf(services, req), idParam(req));
      res.status(204).end();
    },
  );
  routes.add(
    {
      method: "post",
      path: "/developer/apps/:id/rotate-secret",
      operationId: "rotateDeveloperAppSecret",
      tag: DEVELOPER,
      summary: "A new secret for a confidential app; the previous one stops working at once",
      description: "A login token only; the app's owner only. 400 for a public app, which has no secret.",
      auth: "required",
      scope: "login",
      success: 200,
      response: appSecretSchema,
      errors: { ...owned, 400: "Aplicativo público não tem segredo" },
    },
    async (req, res) => {
      res.json(await developerApps.rotateSecret(await userOf(services, req), idParam(req)));
    },
  );
  routes.add(
    {
      method: "put",
      path: "/developer/apps/:id/documents",
      operationId: "registerDeveloperAppDocuments",
      tag: DEVELOPER,
      summary: "Replaces the GraphQL documents the app registered; answers their hashes (with trustedDocumentsOnly, its tokens run only these)",
      description:
        "A login token only; the app's owner only. The documents sent replace all those registered before; the answer lists each one's hash, in the order sent. With `trustedDocumentsOnly`, the app's tokens may run these documents only, by hash.",
      auth: "required",
      scope: "login",
      success: 200,
      body: appDocumentsInput,
      response: registeredDocumentsSchema,
      errors: owned,
    },
    async (req, res) => {
      res.json(await developerApps.registerDocuments(await userOf(services, req), idParam(req), bodyReader(req, appDocumentsInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/users/me/authorizations",
      operationId: "listAuthorizations",
      tag: DEVELOPER,
      summary: "The apps the caller authorized, with the scopes granted",
      description: "One entry per app the caller authorized through the consent page, with every scope granted to it.",
      auth: "required",
      scope: "login",
      success: 200,
      response: z.array(authorizationSchema),
    },
    async (req, res) => {
      res.json(await developerApps.authorizations(await userOf(services, req)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/users/me/authorizations/:clientId",
      operationId: "revokeAuthorization",
      tag: DEVELOPER,
      summary: "Revokes an app's access: every token of that app for the caller is refused at once, on every instance",
      description:
        "Deletes every grant the caller gave the app: its tokens and refresh tokens for the caller stop working at once. 404 when the caller gave that app none.",
      auth: "required",
      scope: "login",
      pathParams: { clientId: z.string().max(100).describe("The app's OAuth `client_id`, as the authorization lists it") },
      success: 204,
      errors: { 404: "Autorização não encontrada" },
    },
    async (req, res) => {
      await developerApps.revokeAuthorization(await userOf(services, req), String(req.params.clientId));
      res.status(204).end();
    },
  );
}
