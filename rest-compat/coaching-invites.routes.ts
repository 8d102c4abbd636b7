import { inviteFilter, inviteInput, invitePaging } from "../src/modules/coaching/coaching.inputs.js";
import { linkSchema, receivedInviteSchema, sentInviteSchema } from "../src/modules/coaching/coaching.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
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
      description:
        "Trainers only. The e-mail must be a student's account (400 on `studentEmail` for a trainer's, 404 when no account has it). The invite stays PENDING for 7 days and the student is e-mailed. 409 when the pair is already linked or an invite of theirs is PENDING; 422 when the trainer's ACTIVE students and PENDING invites already fill its plan's student limit.",
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
      description: "Trainers only. Newest first unless `sort` says otherwise; an invite past its expiry reads as EXPIRED.",
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
      description: "Students only. Newest first unless `sort` says otherwise; an invite past its expiry reads as EXPIRED.",
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
      description:
        "The invited student only. The invite becomes ACCEPTED and the pair's link ACTIVE (the same link, and id, when the pair was linked before); the trainer is e-mailed. 409 when the invite is no longer PENDING; 422 when the trainer's plan has no room for one more ACTIVE student (the invite stays PENDING).",
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
      description: "The invited student only. The invite becomes REJECTED and the trainer is e-mailed; 409 when it is no longer PENDING.",
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
