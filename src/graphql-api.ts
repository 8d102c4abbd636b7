import { ApolloServer } from "@apollo/server";
import { ApolloServerPluginCacheControlDisabled, ApolloServerPluginLandingPageDisabled } from "@apollo/server/plugin/disabled";
import { Router } from "express";
import type { Registry } from "prom-client";
import { compiledExecution } from "./graphql/compiled-execution.js";
import type { Context } from "./graphql/context.js";
import { contextFailure, formatError, retryAfterUnavailable } from "./graphql/format-error.js";
import { apolloHandler } from "./graphql/http-handler.js";
import { graphqlIde } from "./graphql/ide.js";
import { graphqlObservability } from "./graphql/observability.js";
import { graphqlSockets, type GraphqlSockets } from "./graphql/websocket.js";
import { answerSizeLimit, complexityLimit, depthLimit } from "./graphql/query-limits.js";
import { costBudget } from "./graphql/cost-budget.js";
import { trustedDocuments } from "./graphql/trusted-documents.js";
import { graphqlMultipart } from "./graphql/upload.js";
import { buildGraphqlSchema } from "./graphql-schema.js";
import { adherenceLoaders } from "./modules/adherence/adherence.graphql.js";
import { billingLoaders } from "./modules/billing/billing.graphql.js";
import { coachingLoaders } from "./modules/coaching/coaching.graphql.js";
import { recordLoaders } from "./modules/records/records.graphql.js";
import { trainingPlanLoaders } from "./modules/training-plans/training-plan.graphql.js";
import { userLoaders } from "./modules/users/user.graphql.js";
import type { Actor } from "./platform/auth/actor.js";
import type { Clock } from "./platform/clock.js";
import type { Config } from "./platform/config.js";
import { databaseUnavailable } from "./platform/db/database-unavailable.js";
import { idempotencyKeys, type KeptAnswer } from "./platform/http/idempotency.js";
import { jsonBody } from "./platform/http/json-body.js";
import type { Logger } from "./platform/logger.js";
import type { Services } from "./services.js";

/** Every module's per-request DataLoaders, created afresh for each request. */
export function createLoaders(services: Services, actor: Actor) {
  return {
    ...userLoaders(services, actor),
    ...billingLoaders(services, actor),
    ...coachingLoaders(services, actor),
    ...trainingPlanLoaders(services, actor),
    ...recordLoaders(services, actor),
    ...adherenceLoaders(services, actor),
  };
}

// Named apart from the context's Services and Loaders, which the block below fills in with them.
type ComposedServices = Services;
type ModuleLoaders = ReturnType<typeof createLoaders>;

/**
 * The context's services and loaders (src/graphql/context.ts) are the composition root's and every module's: the
 * modules' resolvers read them fully typed without importing this assembly, which imports them.
 */
declare module "./graphql/context.js" {
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Services extends ComposedServices {}
  // eslint-disable-next-line @typescript-eslint/no-empty-object-type
  interface Loaders extends ModuleLoaders {}
}

export interface GraphqlApi {
  router: Router;
  /** Subscriptions over WebSocket at the same path (contract §14.2). */
  sockets: GraphqlSockets;
  /** Stops Apollo and closes the sockets; main.ts calls it (through App.close) once requests have drained. */
  stop(): Promise<void>;
}

/** The GraphQL API mounted at /graphql: multipart uploads, JSON parsing, Apollo with every module's schema and loaders. */
export interface GraphqlApiDeps {
  services: Services;
  logger: Logger;
  config: Config;
  clock: Clock;
  /** The app's Prometheus registry, which GraphQL operations report to. */
  metrics: Registry;
}

export async function graphqlApi({ services, logger, config, clock, metrics }: GraphqlApiDeps): Promise<GraphqlApi> {
  const schema = buildGraphqlSchema();
  const apollo = new ApolloServer<Context>({
    gateway: compiledExecution(schema, metrics),
    formatError: formatError(logger),
    // Parsing stops past this many tokens (GET and POST alike), so validating what parses stays bounded: graphql's
    // OverlappingFieldsCanBeMerged is quadratic in fields sharing one response name.
    parseOptions: { maxTokens: config.graphqlMaxTokens },
    validationRules: [depthLimit(config.graphqlMaxDepth)],
    // Apollo's cache-control plugin wraps every field's resolver to gather cache hints we never give (a fifth of the
    // CPU of a read of a hundred fields); its one effect, `cache-control: no-store`, the router sets itself.
    // Browsers get our own IDE (src/graphql/ide.ts), not Apollo's landing page, which loads Sandbox from a CDN.
    plugins: [
      trustedDocuments((context, hash) => services.developerApps.trustedDocument(context.actor, hash)),
      complexityLimit(config.graphqlMaxComplexity),
      costBudget({
        budgeted: (context) => services.budgets.keyOf(context.actor) !== null,
        take: (context, cost) => services.budgets.takePoints(context.actor, cost),
        giveBack: (context, points) => services.budgets.givePoints(context.actor, points),
      }),
      answerSizeLimit(config.graphqlMaxResponseBytes),
      ApolloServerPluginCacheControlDisabled(),
      ApolloServerPluginLandingPageDisabled(),
      graphqlObservability(metrics),
      retryAfterUnavailable(),
    ],
    introspection: true,
    includeStacktraceInErrorResponses: false,
    // Callers authenticate with bearer tokens, never cookies, so cross-site requests carry no credentials.
    csrfPrevention: false,
    // main.ts owns the shutdown sequence (stop taking requests, drain, then stop Apollo).
    stopOnTerminationSignals: false,
  });
  await apollo.start();

  const router = Router();
  const ide = graphqlIde();
  router.use(ide.assets);
  router.get("/", ide.page);
  router.use(
    (_req, res, next) => {
      res.setHeader("cache-control", "no-store");
      // One route whatever the operation, for traces.
      res.locals.route = "/graphql";
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
    apolloHandler(apollo, async (req): Promise<Context> => {
      const actor = await graphqlActor(services, req.headers.authorization).catch((error: unknown) => {
        throw contextFailure(error);
      });
      return {
        services,
        actor,
        loaders: createLoaders(services, actor),
        meta: { ip: req.ip ?? "unknown" },
        listItems: { max: config.graphqlMaxListItems, left: config.graphqlMaxListItems },
      };
    }),
  );
  const sockets = graphqlSockets({
    schema,
    authenticate: (authorization) => services.auth.authenticate(authorization),
    onSessionsChanged: (watcher) => services.auth.onSessionsChanged(watcher),
    config,
    clock,
    logger,
    contextFor: (actor, request): Context => ({
      services,
      actor,
      loaders: createLoaders(services, actor),
      meta: { ip: request.socket.remoteAddress ?? "unknown" },
    }),
  });
  return {
    router,
    sockets,
    async stop() {
      await sockets.close();
      await apollo.stop();
    },
  };
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
 * while login and register still work for a client holding a stale token. The database out of reach is no verdict
 * on the token: the request is refused as any other is then (503 with Retry-After).
 */
async function graphqlActor(services: Services, authorization: string | undefined): Promise<Actor> {
  try {
    return await services.auth.authenticateRequest(authorization);
  } catch (error) {
    const unavailable = databaseUnavailable(error);
    if (unavailable) throw unavailable;
    return { kind: "anonymous" };
  }
}
