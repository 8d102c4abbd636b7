import { trainerDashboardSchema } from "../src/modules/dashboard/dashboard.dto.js";
import type { Services } from "../src/services.js";
import { userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

/** The trainer's dashboard (contract §12.3). */
export function addDashboardRoutes(routes: DocumentedRouter, services: Services): void {
  routes.add(
    {
      method: "get",
      path: "/personal/dashboard",
      operationId: "getTrainerDashboard",
      tag: "Trainer's dashboard",
      summary: "Seats, assignments, the students' adherence and who needs attention, their recent records, the trainer's subscription",
      description:
        "Trainers only. Adherence, this week's sessions, who needs attention and the records cover the trainer's ACTIVE students; the records are those of the last 7 days (UTC), newest first, at most 20.",
      auth: "required",
      scope: "activity:read",
      success: 200,
      response: trainerDashboardSchema,
      errors: [403],
    },
    async (req, res) => {
      res.json(await services.dashboard.trainerDashboard(await userOf(services, req)));
    },
  );
}
