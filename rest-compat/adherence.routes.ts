import { adherenceSchema, studentAdherenceSchema } from "../src/modules/adherence/adherence.dto.js";
import { adherenceQuery, studentAdherencePaging } from "../src/modules/adherence/adherence.inputs.js";
import { queryId } from "../src/platform/validation.js";
import type { Services } from "../src/services.js";
import { idParam, listReader, queryReader, userOf } from "./http.js";
import { pageOf } from "./page-schema.js";
import type { DocumentedRouter } from "./routes.js";

const TAG = "Adherence";

/** Adherence to the weekly plans (contract §12.2): a user's, and a trainer's students by adherence. */
export function addAdherenceRoutes(routes: DocumentedRouter, services: Services): void {
  const { adherence } = services;

  routes.add(
    {
      method: "get",
      path: "/users/:id/adherence",
      operationId: "getAdherence",
      pathParams: { id: queryId.describe("The user's id") },
      query: adherenceQuery,
      tag: TAG,
      summary: "A user's adherence over a window, with its weeks and assignments (the user, its ACTIVE-linked trainer, administrators)",
      description:
        "For the user, administrators and the user's ACTIVE-linked trainer (403 for anyone else; 404 for an unknown user). Counts the sessions the user's ACTIVE and COMPLETED plan assignments scheduled in the window ending today and how many were done; a `window` other than 7, 30 or 90 answers 400.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      response: adherenceSchema,
      errors: [400, 403, 404],
    },
    async (req, res) => {
      const actor = await userOf(services, req);
      res.json(await adherence.ofUser(actor, idParam(req), queryReader(req, adherenceQuery)));
    },
  );
  routes.add(
    {
      method: "get",
      path: "/personal/students/adherence",
      operationId: "listStudentsAdherence",
      query: adherenceQuery,
      paging: studentAdherencePaging,
      tag: TAG,
      summary: "The trainer's ACTIVE students with their adherence, the lowest first unless sorted otherwise",
      description:
        "Trainers only (403 otherwise). Every ACTIVE student of the caller, with the figures `GET /users/{id}/adherence` gives but its weeks and assignments; `sort` by `adherence`, `studentName` or `lastTrainingAt`, a student without that value coming last either way.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      response: pageOf(studentAdherenceSchema),
      errors: [400, 403],
    },
    async (req, res) => {
      res.json(await adherence.pageOfStudents(await userOf(services, req), listReader(req, studentAdherencePaging, adherenceQuery)));
    },
  );
}
