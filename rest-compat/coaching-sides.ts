import type { Services } from "../src/services.js";
import { userOf } from "./http.js";
import type { DocumentedRouter } from "./routes.js";

/** /personal/ is for trainers, /students/ for students: registered before the invite and link routes under them. */
export function addCoachingSideChecks(routes: DocumentedRouter, services: Services): void {
  const { links } = services;
  // The side a path prefix belongs to is checked before anything else of the request (its id, its body).
  routes.use("/personal", async (req, _res, next) => {
    links.requireSide(await userOf(services, req), "personal");
    next();
  });
  routes.use("/students", async (req, _res, next) => {
    links.requireSide(await userOf(services, req), "student");
    next();
  });
}
