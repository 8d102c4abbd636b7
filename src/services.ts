import { AccessTokens } from "./platform/auth/access-tokens.js";
import type { IdentityVerifier } from "./platform/auth/identity-provider.js";
import type { PasswordHasher } from "./platform/auth/password-hasher.js";
import type { Clock } from "./platform/clock.js";
import type { Config } from "./platform/config.js";
import type { Db } from "./platform/db/database.js";
import { RateLimiter } from "./platform/rate-limit/rate-limiter.js";
import type { FileStorage } from "./platform/storage/file-storage.js";
import { AuthService } from "./modules/users/auth.service.js";
import { UserService } from "./modules/users/user.service.js";

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  config: Config;
  hasher: PasswordHasher;
  storage: FileStorage;
  identity: IdentityVerifier;
}

/** The composition root: every domain service, wired by hand (no container). */
export function createServices(deps: ServiceDeps) {
  const { db, clock, config } = deps;
  const rateLimiter = new RateLimiter(db, clock);
  const auth = new AuthService({
    db,
    clock,
    hasher: deps.hasher,
    tokens: new AccessTokens(config.jwtSecret, clock),
    identity: deps.identity,
    rateLimiter,
    webAppUrl: config.webAppUrl,
    adminEmails: config.adminEmails,
    limits: { perMinute: config.authRateLimitPerMinute, loginFailuresPerEmail: config.loginFailuresPerEmail },
  });
  const users = new UserService({ db, clock, storage: deps.storage });
  return { auth, users, rateLimiter };
}

export type Services = ReturnType<typeof createServices>;
