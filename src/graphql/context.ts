import type { Actor } from "../platform/auth/actor.js";
import type { RequestMeta } from "../modules/users/auth.service.js";
import type { Services } from "../services.js";
import type { Loaders } from "./loaders.js";

/** What every resolver gets: the services, the caller, per-request loaders and the request's origin. */
export interface Context {
  services: Services;
  actor: Actor;
  loaders: Loaders;
  meta: RequestMeta;
}
