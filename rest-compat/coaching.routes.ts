import { inviteFilter, inviteInput, invitePaging, linkFilter, linkPaging } from "../src/modules/coaching/coaching.inputs.js";
import { linkSchema, receivedInviteSchema, sentInviteSchema } from "../src/modules/coaching/coaching.dto.js";
import type { Services } from "../src/services.js";
import { bodyReader, idParam, listReader, userOf } from "./http.js";
import { pageOf } from "./openapi.js";
import type { DocumentedRouter } from "./routes.js";

const TAG = "Personal trainer and student links";

/** Invites and links (api-spec.md "Personal trainer and student links"); /personal/ is for trainers, /students/ for students. */
export function addCoachingRoutes(routes: DocumentedRouter, services: Services): void {
  const { invites, links } = services;
  // The side a path prefix belongs to is checked before anything else of the request (its id, its body).
  routes.router.use("/personal", async (req, _res, next) => {
    links.requireSide(await userOf(services, req), "personal");
    next();
  });
  routes.router.use("/students", async (req, _res, next) => {
    links.requireSide(await userOf(services, req), "student");
    next();
  });

  routes.add(
    {
      method: "post",
      path: "/personal/students/invite",
      operationId: "inviteStudent",
      response: sentInviteSchema,
      tag: TAG,
      summary: "Invite a student by e-mail",
      auth: "required",
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
      tag: TAG,
      summary: "Invites the trainer sent",
      auth: "required",
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
      tag: TAG,
      summary: "Invites the student received",
      auth: "required",
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
      tag: TAG,
      summary: "Accept an invite: the link becomes ACTIVE",
      auth: "required",
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
      tag: TAG,
      summary: "Reject an invite",
      auth: "required",
      success: 200,
      errors: [400, 403, 404, 409],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await invites.rejectInvite(actor, idParam(req)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/personal/students",
      operationId: "listStudents",
      query: linkFilter,
      paging: linkPaging,
      response: pageOf(linkSchema),
      tag: TAG,
      summary: "The trainer's students (ACTIVE links unless status says otherwise)",
      auth: "required",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await links.listStudents(await userOf(services, req), listReader(req, linkPaging, linkFilter)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/students/personals",
      operationId: "listPersonals",
      query: linkFilter,
      paging: linkPaging,
      response: pageOf(linkSchema),
      tag: TAG,
      summary: "The student's trainers",
      auth: "required",
      success: 200,
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await links.listPersonals(await userOf(services, req), listReader(req, linkPaging, linkFilter)));
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/personal/students/:id",
      operationId: "removeStudent",
      tag: TAG,
      summary: "End a link (id of the link)",
      auth: "required",
      success: 204,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await links.removeStudent(actor, idParam(req));
      res.status(204).end();
    },
  );
  routes.add(
    {
      method: "delete",
      path: "/students/personals/:id",
      operationId: "removePersonal",
      tag: TAG,
      summary: "End a link (id of the link)",
      auth: "required",
      success: 204,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      await links.removePersonal(actor, idParam(req));
      res.status(204).end();
    },
  );
}
