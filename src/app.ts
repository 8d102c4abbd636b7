import "reflect-metadata";
import cors from "cors";
import express, { type Express, type Response } from "express";
import helmet from "helmet";
import type { Clock as EngineClock } from "pg-boss";
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from "prom-client";
import { restApi } from "../rest-compat/index.js";
import { errorHandler, notFoundHandler } from "../rest-compat/errors.js";
import { mailPages } from "../rest-compat/mail-pages.js";
import { oauthPages } from "../rest-compat/oauth-pages.js";
import { purposeKey } from "./platform/crypto/sealed.js";
import { graphqlApi } from "./graphql-api.js";
import type { GraphqlSockets } from "./graphql/websocket.js";
import { createFirebaseVerifier, type IdentityVerifier } from "./platform/auth/identity-provider.js";
import { createPasswordHasher, type PasswordHasher } from "./platform/auth/password-hasher.js";
import type { Clock } from "./platform/clock.js";
import { dataDirFolders, type Config } from "./platform/config.js";
import { keepingAfterCommitHooks } from "./platform/db/after-commit.js";
import { BUS_CHANNEL, databaseIdentity, type DatabaseHandle, type Db } from "./platform/db/database.js";
import { openInstanceBus, type InstanceBus } from "./platform/instance-bus.js";
import { redisCarrier } from "./platform/redis-bus-carrier.js";
import { tapIdempotentRequests } from "./platform/http/idempotency.js";
import { pastAddressCapError } from "./platform/http/http-server.js";
import { requestIds } from "./platform/http/request-id.js";
import { guardingAccountWrites, withinAccountWrites } from "./platform/db/account-writes.js";
import { readRoutingOf } from "./platform/db/read-routing.js";
import { registerReplicaMetrics } from "./platform/db/replica-metrics.js";
import { httpSpans, startTracing } from "./platform/tracing.js";
import { withIsoInstants } from "./platform/http/json-answer.js";
import { JobEngine } from "./platform/jobs/job-engine.js";
import type { Logger } from "./platform/logger.js";
import { createMailTransport, type MailTransport } from "./platform/mail/mail-transport.js";
import { MAIL_DELIVERY_JOB, MailWorker } from "./platform/mail/mail-worker.js";
import { whenEventsCommitted } from "./modules/events/emit.js";
import { WEBHOOK_DELIVERY_JOB } from "./modules/webhooks/webhook-delivery.worker.js";
import { MailOutbox } from "./platform/mail/outbox.js";
import { FileStorage } from "./platform/storage/file-storage.js";
import type { ImageStorage } from "./platform/storage/image-storage.js";
import { S3Storage } from "./platform/storage/s3-storage.js";
import { createGateways, type Gateways } from "./modules/billing/gateways/create-gateways.js";
import { createServices, type Services } from "./services.js";

export interface AppDeps {
  config: Config;
  database: DatabaseHandle;
  clock: Clock;
  logger: Logger;
  /** Defaults follow the configuration; tests hand in their own. */
  mailTransport?: MailTransport;
  identity?: IdentityVerifier;
  hasher?: PasswordHasher;
  gateways?: Gateways;
  uploadsDir?: string;
  /** The job engine's timers; tests hand in pg-boss's `TestClock` so that nothing of the engine fires unless they move it. */
  jobClock?: EngineClock;
}

export interface App {
  express: Express;
  /** GraphQL subscriptions over WebSocket at /graphql: the HTTP server's `upgrade` listener, and their closing. */
  sockets: GraphqlSockets;
  services: Services;
  /** Messages between the instances of the service on this database. */
  bus: InstanceBus;
  mailWorker: MailWorker;
  /** Background work; `main` starts it, tests start it when they test it (they run the workers by hand otherwise). */
  jobs: JobEngine;
  /**
   * The first step of a shutdown: /readyz answers 503 at once (load balancers stop routing here) and WebSockets are
   * told to go away. Requests under way are still answered (the HTTP server closes their connections: drainHttpServer).
   */
  beginShutdown(): Promise<void>;
  /** Stops GraphQL, the jobs (waiting for runs under way), the instance bus, the mail transport, the image storage's connections and its own password hasher (the database and a hasher handed in belong to the caller). */
  close(): Promise<void>;
}

/** Builds the whole service on the given database: REST under /api, GraphQL at /graphql, health, metrics, uploads. */
export async function createApp(deps: AppDeps): Promise<App> {
  const { config, database, clock, logger } = deps;
  const tracing = await startTracing(config.otelEndpoint);
  const db = guardingAccountWrites(keepingAfterCommitHooks(database.db, (error) => logger.error({ err: error }, "work after a commit failed")));
  /** The replicas stale-ok reads go to, when DATABASE_REPLICA_URLS names some. */
  const routing = readRoutingOf(db);
  const hasher = deps.hasher ?? createPasswordHasher();
  const bus = await openInstanceBus(
    config.redisUrl ? await redisCarrier(config.redisUrl, `${BUS_CHANNEL}:${await databaseIdentity(db)}`) : database.busCarrier(),
  );
  const storage: ImageStorage = config.objectStorage
    ? await S3Storage.open(config.objectStorage, config.publicBaseUrl, logger)
    : new FileStorage(deps.uploadsDir ?? dataDirFolders(config.dataDir).uploads, config.publicBaseUrl);
  const identity = deps.identity ?? createFirebaseVerifier(config.firebaseProjectId, config.firebaseJwksUrl);
  const gateways = deps.gateways ?? (await createGateways(config, clock));
  const jobs = new JobEngine({ connection: database.connection, logger, clock: deps.jobClock });
  const mail = new MailOutbox((tx) => jobs.kick(MAIL_DELIVERY_JOB, tx));
  const deliverWebhooksSoon = (tx?: Db) => jobs.kick(WEBHOOK_DELIVERY_JOB, tx);
  const services = createServices({ db, clock, config, logger, hasher, storage, identity, gateways, bus, mail, deliverWebhooksSoon });

  const transport = deps.mailTransport ?? createMailTransport(config.smtpUrl, dataDirFolders(config.dataDir).mail);
  const mailWorker = new MailWorker({ db, clock, transport, from: config.mailFrom, logger });
  // Kicked by every e-mail queued; the periodic run picks up what is due again after a failed attempt (30 s at first).
  jobs.every(MAIL_DELIVERY_JOB, 30_000, () => mailWorker.runOnce());
  // Kicked by every event committed, test ping and retry asked for; the periodic run sends the scheduled retries as they
  // come due (the first after 5 s).
  jobs.every(WEBHOOK_DELIVERY_JOB, 5_000, () => services.webhookDeliveries.runOnce());
  whenEventsCommitted(db, async (events) => {
    await Promise.all([deliverWebhooksSoon(), services.liveUpdates.announce(events)]);
  });
  jobs.every("subscription-renewals", 60 * 60_000, () => services.renewals.run());
  // Gateway calls owed after a commit that failed then (a PIX charge to cancel, money to return), and charges whose
  // answer was lost (asked of the gateway once some minutes old): every minute.
  jobs.every("gateway-follow-ups", 60_000, () => services.gatewayFollowUps.run());
  jobs.every("invite-expiry", 10 * 60_000, () => services.invites.expireInvites());
  // Daily in effect: an assignment completes the day after its endDate; running hourly only catches it sooner.
  jobs.every("assignment-completion", 60 * 60_000, () => services.planAssignments.completeEnded());
  // Changes older than the 90 days the change feed keeps them (contract §13.3).
  jobs.every("change-feed-pruning", 60 * 60_000, () => services.changeFeed.prune());
  // Keys are free again once their 24 hours are over; this only deletes their rows.
  jobs.every("idempotency-expiry", 60 * 60_000, () => services.idempotency.purgeExpired());
  jobs.every("session-cleanup", 60 * 60_000, async () => {
    await services.auth.purgeExpiredRevocations();
    await services.oauth.purgeExpired();
    await services.rateLimiter.purge(new Date(clock.now().getTime() - 24 * 60 * 60_000));
    await routing?.prune();
  });

  const metrics = new Registry();
  collectDefaultMetrics({ register: metrics });
  const requestDuration = new Histogram({
    name: "http_request_duration_seconds",
    help: "HTTP request duration",
    labelNames: ["method", "route", "status"],
    registers: [metrics],
  });
  new Counter({
    name: "webhook_delivery_attempts_total",
    help: "Webhook delivery attempts this instance settled, by outcome (succeeded; failed and retried later; failed for good)",
    labelNames: ["outcome"],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [outcome, count] of Object.entries(services.webhookDeliveries.outcomes)) this.inc({ outcome }, count);
    },
  });
  new Gauge({
    name: "job_queue_depth",
    help: "Background runs per job and state (queued: waiting, active: running), read from the job engine at each scrape",
    labelNames: ["job", "state"],
    registers: [metrics],
    async collect() {
      this.reset();
      for (const { name, queued, active } of await jobs.queueDepths()) {
        this.set({ job: name, state: "queued" }, queued);
        this.set({ job: name, state: "active" }, active);
      }
    },
  });

  new Gauge({
    name: "live_subscriptions",
    help: "GraphQL subscriptions this instance serves, by the event type they follow",
    labelNames: ["event_type"],
    registers: [metrics],
    collect() {
      this.reset();
      for (const [type, count] of services.liveUpdates.followingCounts()) this.set({ event_type: type }, count);
    },
  });

  if (routing) registerReplicaMetrics(metrics, routing);

  const graphql = await graphqlApi({ services, logger, config, clock, metrics });
  /** Set once the instance begins to shut down (contract §16): not ready. */
  let draining = false;

  const app = express();
  // Every JSON answer of this app has its dates written as ISO strings first: the same text, a fraction of the CPU.
  const sendJson = app.response.json;
  app.response.json = function json(this: Response, body?: unknown) {
    return sendJson.call(this, withIsoInstants(body));
  };
  app.disable("x-powered-by");
  // Behind a load balancer (TRUST_PROXY), req.ip is the client its X-Forwarded-For names.
  app.set("trust proxy", config.trustProxy);
  app.use(requestIds());
  // Each request's transactions become its caller's writes once authenticated (contract §15: erasure wins over them).
  app.use((_req, _res, next) => withinAccountWrites(next));
  app.use(httpSpans());
  // First, before any body byte arrives: a write with an Idempotency-Key gets its body hashed as it comes.
  app.use(tapIdempotentRequests());
  app.set("query parser", "extended");
  app.use(helmet({ contentSecurityPolicy: false, crossOriginResourcePolicy: { policy: "cross-origin" } }));
  app.use(cors({ exposedHeaders: ["Retry-After", "Content-Disposition", "Idempotent-Replayed", "X-Request-Id"], maxAge: 600 }));
  // A connection past its address's cap gets a 503 for its request, whatever it asks, and is closed.
  app.use((req, _res, next) => next(pastAddressCapError(req.socket)));
  app.use((req, res, next) => {
    const stop = requestDuration.startTimer({ method: req.method });
    res.on("finish", () => stop({ route: req.route?.path ?? (res.statusCode === 404 ? "unmatched" : req.baseUrl || req.path), status: res.statusCode }));
    next();
  });

  // The two surfaces first: their requests are matched against no other route.
  app.use("/api", restApi(services, logger, config.publicBaseUrl));
  app.use("/graphql", graphql.router);

  app.get("/healthz", (_req, res) => {
    res.json({ status: "ok" });
  });
  app.get("/readyz", async (_req, res) => {
    const ready = !draining && (await database.isReady());
    res.status(ready ? 200 : 503).json({ status: ready ? "ready" : "unavailable" });
  });
  app.get("/metrics", async (_req, res) => {
    res.type(metrics.contentType).send(await metrics.metrics());
  });

  app.use("/uploads", storage.uploadsHandler);
  app.use(mailPages(services, logger));
  app.use(oauthPages(services, logger, purposeKey(config.jwtSecret, "oauth-csrf")));

  app.use(notFoundHandler);
  app.use(errorHandler(logger));

  return {
    express: app,
    sockets: graphql.sockets,
    beginShutdown() {
      draining = true;
      return graphql.sockets.close();
    },
    services,
    bus,
    mailWorker,
    jobs,
    async close() {
      await jobs.stop();
      await graphql.stop();
      await bus.close();
      if (!deps.hasher) await hasher.close();
      transport.close();
      storage.close();
      await tracing.shutdown();
    },
  };
}
