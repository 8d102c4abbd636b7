import { inviteFilter, inviteInput, invitePaging } from "../src/modules/coaching/coaching.inputs.js";
import { linkSchema, receivedInviteSchema, sentInviteSchema } from "../src/modules/coaching/coaching.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

export const COACHING = "Personal trainer and student links";

/** Invites: a trainer's sent, a student's received (api-spec.md "Personal trainer and student links"). */
export function addCoachingInviteRoutes(routes: DocumentedRouter, services: Services): void {
  const { invites } = services;

  routes.add(
    {
      method: "post",
      path: "/personal/students/invite",
      operationId: "inviteStudent",
      response: sentInviteSchema,
      tag: COACHING,
      summary: "Invite a student by e-mail",
      auth: "required",
      scope: "students:write",
      success: 201,
      body: inviteInput,
      errors: [400, 403, 404, 409, 422],
    },
    async (req, res) => {
      res.status(201).json(await invites.invite(await userOf(services, req), bodyReader(req, inviteInput)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/personal/invites",
      operationId: "listSentInvites",
      query: inviteFilter,
      paging: invitePaging,
      response: pageOf(sentInviteSchema),
      tag: COACHING,
      summary: "Invites the trainer sent",
      auth: "required",
      scope: "students:read",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await invites.listSentInvites(await userOf(services, req), listReader(req, invitePaging, inviteFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/students/invites",
      operationId: "listReceivedInvites",
      query: inviteFilter,
      paging: invitePaging,
      response: pageOf(receivedInviteSchema),
      tag: COACHING,
      summary: "Invites the student received",
      auth: "required",
      scope: "students:read",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await invites.listReceivedInvites(await userOf(services, req), listReader(req, invitePaging, inviteFilter)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/students/invites/:id/accept",
      operationId: "acceptInvite",
      response: linkSchema,
      tag: COACHING,
      summary: "Accept an invite: the link becomes ACTIVE",
      auth: "required",
      scope: "students:write",
      success: 200,
      errors: [400, 403, 404, 409, 422],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await invites.acceptInvite(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "post",
      path: "/students/invites/:id/reject",
      operationId: "rejectInvite",
      response: receivedInviteSchema,
      tag: COACHING,
      summary: "Reject an invite",
      auth: "required",
      scope: "students:write",
      success: 200,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await invites.rejectInvite(actor, idParam(req)));
    },
  );
}
