import { deleteAccountInput } from "../src/modules/privacy/privacy.inputs.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

const DATA_RIGHTS = "Data rights (LGPD)";

/** The data subject's rights of contract §15; declared before /users/:id so `me` never reads as an id. */
export function addPrivacyRoutes(routes: DocumentedRouter, services: Services): void {
  const { privacy } = services;

  routes.add(
    {
      method: "get",
      path: "/users/me/export",
      operationId: "exportMyData",
      tag: DATA_RIGHTS,
      summary: "Everything kept of the caller, as a JSON attachment dados-<id>.json (once a minute)",
      description:
        "The data subject's copy (LGPD art. 18, contract §15): the profile and weight history, what the caller wrote, was assigned and logged, its links and invites, billing and webhook endpoints, all from one snapshot; no secret. A login session only; one per minute.",
      auth: "required",
      scope: "login",
      success: 200,
      response: privacy.exportDocument,
      errors: { 429: "Muitas requisições (one export per user per minute)" },
    },
    async (req, res) => {
      const { fileName, document } = await privacy.exportMine(await userOf(services, req));
      res.setHeader("Content-Disposition", `attachment; filename="${fileName}"`).json(document);
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/users/me",
      operationId: "deleteMyAccount",
      tag: DATA_RIGHTS,
      summary: "Erase the caller's account (its password, or an identity provider's ID token of its e-mail)",
      description:
        "Erases the person and keeps what the law requires (contract §15): the name and e-mail are anonymized, personal data, private content, executions and records deleted, links ended, the subscription canceled, every token revoked; payments and invoices stay. A confirmation goes to the old address.",
      auth: "required",
      scope: "login",
      success: 204,
      body: deleteAccountInput,
      errors: { 400: "Credenciais inválidas", 429: "Muitas requisições (too many wrong passwords, as at login)" },
    },
    async (req, res) => {
      await privacy.deleteMyAccount(await userOf(services, req), bodyReader(req, deleteAccountInput));
      res.status(204).end();
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/users/:id",
      operationId: "deleteUser",
      tag: DATA_RIGHTS,
      summary: "Erase a user's account (administrators)",
      description: "The same erasure as DELETE /users/me, by an administrator, with no proof asked.",
      auth: "required",
      scope: "login",
      success: 204,
      errors: { 403: "Acesso negado (administrators only)", 404: "Usuário não encontrado" },
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await privacy.deleteUser(actor, idParam(req));
      res.status(204).end();
    },
  );
}
