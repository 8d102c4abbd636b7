import { linkFilter, linkPaging } from "../src/modules/coaching/coaching.inputs.js";
import { linkSchema } from "../src/modules/coaching/coaching.dto.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, userOf } from "./http.js";
import { COACHING } from "./coaching-invites.routes.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

/** The links between trainers and students: listed from either side, ended by either (api-spec.md "Personal trainer and student links"). */
export function addCoachingLinkRoutes(routes: DocumentedRouter, services: Services): void {
  const { links } = services;

  routes.add(
    {
      method: "get",
      path: "/personal/students",
      operationId: "listStudents",
      query: linkFilter,
      paging: linkPaging,
      response: pageOf(linkSchema),
      tag: COACHING,
      summary: "The trainer's students (ACTIVE links unless status says otherwise)",
      description:
        "Trainers only. ACTIVE links unless `status` says otherwise; `name` searches the students' names. Newest first unless `sort` says otherwise. Items leave out the trainer's own e-mail and photo.",
      auth: "required",
      scope: "students:read",
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
      tag: COACHING,
      summary: "The student's trainers",
      description:
        "Students only. ACTIVE links unless `status` says otherwise; `name` searches the trainers' names. Newest first unless `sort` says otherwise. Items leave out the student's own e-mail and photo.",
      auth: "required",
      scope: "students:read",
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
      tag: COACHING,
      summary: "End a link (id of the link)",
      description:
        "Trainers only, on one of their ACTIVE links (403 on another trainer's, 404 when it is not ACTIVE). The link becomes INACTIVE, kept as history, and the student is e-mailed.",
      auth: "required",
      scope: "students:write",
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
      tag: COACHING,
      summary: "End a link (id of the link)",
      description:
        "Students only, on one of their ACTIVE links (403 on another student's, 404 when it is not ACTIVE). The link becomes INACTIVE, kept as history, and the trainer is e-mailed.",
      auth: "required",
      scope: "students:write",
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
