import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled } from "@apollo/server/plugin/disabled";
import { expressMiddleware } from "@as-integrations/express5";
import { Router } from "express";
import { formatError } from "./graphql/format-error.js";
import { complexityLimit, depthLimit } from "./graphql/query-limits.js";
import { graphqlMultipart } from "./graphql/upload.js";
import { buildGraphqlSchema } from "./graphql-schema.js";
import { adherenceLoaders } from "./modules/adherence/adherence.graphql.js";
import { billingLoaders } from "./modules/billing/billing.graphql.js";
import { coachingLoaders } from "./modules/coaching/coaching.graphql.js";
import { executionLoaders } from "./modules/executions/execution.graphql.js";
import { exerciseLoaders } from "./modules/exercises/exercise.graphql.js";
import { recordLoaders } from "./modules/records/records.graphql.js";
import { trainingPlanLoaders } from "./modules/training-plans/training-plan.graphql.js";
import { trainingLoaders } from "./modules/trainings/training.graphql.js";
import type { RequestMeta } from "./modules/users/auth.service.js";
import { userLoaders } from "./modules/users/user.graphql.js";
import type { Actor } from "./platform/auth/actor.js";
import type { Config } from "./platform/config.js";
import { idempotencyKeys, type KeptAnswer } from "./platform/http/idempotency.js";
import { jsonBody } from "./platform/http/json-body.js";
import type { Logger } from "./platform/logger.js";
import type { Services } from "./services.js";

/** Every module's per-request DataLoaders, created afresh for each request. */
function createLoaders(services: Services, actor: Actor) {
  return {
    ...userLoaders(services, actor),
    ...billingLoaders(services, actor),
    ...coachingLoaders(services, actor),
    ...exerciseLoaders(services, actor),
    ...trainingLoaders(services, actor),
    ...trainingPlanLoaders(services, actor),
    ...recordLoaders(services, actor),
    ...adherenceLoaders(services, actor),
    ...executionLoaders(services, actor),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;

/** What every resolver gets: the services, the caller, per-request loaders and the request's origin. */
export interface Context {
  services: Services;
  actor: Actor;
  loaders: Loaders;
  meta: RequestMeta;
}

export interface GraphqlApi {
  router: Router;
  /** Stops Apollo; main.ts calls it (through App.close) once requests have drained. */
  stop(): Promise<void>;
}

/** The GraphQL API mounted at /graphql: multipart uploads, JSON parsing, Apollo with every module's schema and loaders. */
export async function graphqlApi(services: Services, logger: Logger, config: Config): Promise<GraphqlApi> {
  const apollo = new ApolloServer<Context>({
    schema: buildGraphqlSchema(),
    formatError: formatError(logger),
    // Parsing stops past this many tokens (GET and POST alike), so validating what parses stays bounded: graphql's
    // OverlappingFieldsCanBeMerged is quadratic in fields sharing one response name.
    parseOptions: { maxTokens: config.graphqlMaxTokens },
    validationRules: [depthLimit(config.graphqlMaxDepth)],
    // Apollo's cache-control plugin wraps every field's resolver to gather cache hints we never give (a fifth of the
    // CPU of a read of a hundred fields); its one effect, `cache-control: no-store`, the router sets itself.
    plugins: [complexityLimit(config.graphqlMaxComplexity), ApolloServerPluginCacheControlDisabled()],
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Callers authenticate with bearer tokens, never cookies, so cross-site requests carry no credentials.
    csrfPrevention: false,
    // main.ts owns the shutdown sequence (stop taking requests, drain, then stop Apollo).
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const router = Router();
  router.use(
    (_req, res, next) => {
      res.setHeader("cache-control", "no-store");
      next();
    },
    graphqlMultipart(),
    jsonBody(),
    idempotencyKeys({
      rules: services.idempotency,
      userIdOf: async (req) => userIdOf(await graphqlActor(services, req.headers.authorization)),
      judgedStatus,
      logger,
    }),
    expressMiddleware(apollo, {
      context: async ({ req }): Promise<Context> => {
        const actor = await graphqlActor(services, req.headers.authorization);
        return { services, actor, loaders: createLoaders(services, actor), meta: { ip: req.ip ?? "unknown" } };
      },
    }),
  );
  return { router, stop: () => apollo.stop() };
}

const userIdOf = (actor: Actor) => (actor.kind === "user" ? actor.id : null);

/**
 * The status an idempotency key judges a GraphQL answer by: Apollo answers 200 to an operation whose resolver failed
 * on the server's side, with the status in the error's extensions; that answer is not kept, so a retry runs again.
 */
function judgedStatus(answer: KeptAnswer): number {
  if (answer.status >= 500 || !(answer.contentType ?? "").includes("json")) return answer.status;
  try {
    const body = JSON.parse(answer.body.toString("utf8")) as { errors?: { extensions?: { status?: unknown } }[] };
    const failed = (body.errors ?? []).some((error) => typeof error.extensions?.status === "number" && error.extensions.status >= 500);
    return failed ? 500 : answer.status;
  } catch {
    return answer.status;
  }
}

/**
 * GraphQL reads an unusable token as no token: fields that need a user then answer UNAUTHENTICATED,
 * while login and register still work for a client holding a stale token.
 */
async function graphqlActor(services: Services, authorization: string | undefined): Promise<Actor> {
  try {
    return await services.auth.authenticate(authorization);
  } catch {
    return { kind: "anonymous" };
  }
}
