import { createHash } from "node:crypto";
import { AccessTokens } from "./platform/auth/access-tokens.js";
import type { IdentityVerifier } from "./platform/auth/identity-provider.js";
import type { PasswordHasher } from "./platform/auth/password-hasher.js";
import type { Clock } from "./platform/clock.js";
import type { Config } from "./platform/config.js";
import type { Db } from "./platform/db/database.js";
import type { InstanceBus } from "./platform/instance-bus.js";
import type { Logger } from "./platform/logger.js";
import { MailLinks } from "./platform/mail/mail-links.js";
import type { MailOutbox } from "./platform/mail/outbox.js";
import { RateLimiter } from "./platform/rate-limit/rate-limiter.js";
import type { ImageStorage } from "./platform/storage/image-storage.js";
import { AdherenceService } from "./modules/adherence/adherence.service.js";
import { ChargeIntents } from "./modules/billing/charge-intents.js";
import { CheckoutService } from "./modules/billing/checkout.service.js";
import { GatewayFollowUps } from "./modules/billing/gateway-follow-ups.js";
import { BillingHistoryService } from "./modules/billing/billing-history.service.js";
import type { Gateways } from "./modules/billing/gateways/create-gateways.js";
import { PaymentEventsService } from "./modules/billing/payment-events.service.js";
import { RenewalService } from "./modules/billing/renewal.service.js";
import { SubscriptionPlanService } from "./modules/billing/subscription-plan.service.js";
import { SubscriptionLifecycle } from "./modules/billing/subscription-lifecycle.js";
import { SubscriptionService } from "./modules/billing/subscription.service.js";
import { InviteService } from "./modules/coaching/invite.service.js";
import { ActivityAccess } from "./modules/access/activity-access.js";
import { LinkService } from "./modules/coaching/link.service.js";
import { DashboardService } from "./modules/dashboard/dashboard.service.js";
import { ExecutionService } from "./modules/executions/execution.service.js";
import { ExecutionLoggingService } from "./modules/executions/execution-logging.service.js";
import { projectExecutions } from "./modules/executions/execution-projections.subscriber.js";
import { StatisticsService } from "./modules/executions/statistics.service.js";
import { ExerciseService } from "./modules/exercises/exercise.service.js";
import { RecordClaiming } from "./modules/records/record-claims.subscriber.js";
import { RecordService } from "./modules/records/records.service.js";
import { PlanAssignmentService } from "./modules/training-plans/plan-assignment.service.js";
import { TrainingPlanService } from "./modules/training-plans/training-plan.service.js";
import { TrainingService } from "./modules/trainings/training.service.js";
import { ChangeFeedService } from "./modules/sync/change-feed.service.js";
import { recordInChangeFeed } from "./modules/sync/change-feed.subscriber.js";
import { subscribe } from "./modules/events/emit.js";
import { AuthService } from "./modules/users/auth.service.js";
import { PersonalTokenService } from "./modules/developer/personal-token.service.js";
import { OAuthServer } from "./modules/developer/oauth/oauth-server.js";
import { DeveloperAppService } from "./modules/developer/developer-app.service.js";
import { ApiBudgets } from "./modules/developer/api-budgets.js";
import { SessionCache } from "./modules/users/session-cache.js";
import { UserService } from "./modules/users/user.service.js";
import { LiveUpdatesService } from "./modules/live-updates/live-updates.service.js";
import { IdempotencyService } from "./modules/sync/idempotency.service.js";
import { PrivacyService } from "./modules/privacy/privacy.service.js";
import { WebhookDeliveryWorker } from "./modules/webhooks/webhook-delivery.worker.js";
import { SecretBox } from "./modules/webhooks/webhook-secrets.js";
import { dropEndpointsOfRevokedApps, WebhookService } from "./modules/webhooks/webhook.service.js";

export interface ServiceDeps {
  db: Db;
  clock: Clock;
  config: Config;
  logger: Logger;
  hasher: PasswordHasher;
  storage: ImageStorage;
  identity: IdentityVerifier;
  gateways: Gateways;
  bus: InstanceBus;
  mail: MailOutbox;
  /** Wakes the webhook delivery job, in a transaction (at its commit) or at once. */
  deliverWebhooksSoon(tx?: Db): Promise<void>;
}

/** The composition root: every domain service, wired by hand (no container). */
export function createServices(deps: ServiceDeps) {
  const { db, clock, config, logger, gateways, mail } = deps;
  const rateLimiter = new RateLimiter(db, clock);
  const sessions = new SessionCache(deps.bus, clock);
  const mailLinks = new MailLinks(config.webAppUrl, config.webAppConfigured);
  const personalTokens = new PersonalTokenService({ db, clock, logger, sessions });
  const oauth = new OAuthServer({ db, clock, logger, sessions, issuer: config.publicBaseUrl, serverSecret: config.jwtSecret });
  const developerApps = new DeveloperAppService({ db, clock, oauth, serverSecret: config.jwtSecret });
  const budgets = new ApiBudgets(db, clock, config.apiBudgets);
  const auth = new AuthService({
    db,
    clock,
    mail,
    hasher: deps.hasher,
    tokens: new AccessTokens(config.jwtSecret, clock),
    identity: deps.identity,
    rateLimiter,
    sessions,
    delegated: [personalTokens.credentials, oauth.credentials],
    links: mailLinks,
    adminEmails: config.adminEmails,
    limits: { perMinute: config.authRateLimitPerMinute, loginFailuresPerEmail: config.loginFailuresPerEmail },
  });
  const users = new UserService({ db, clock, storage: deps.storage, sessions });

  const lifecycle = new SubscriptionLifecycle(clock, users, mail, config.publicBaseUrl);
  const subscriptionPlans = new SubscriptionPlanService({ db });
  const intents = new ChargeIntents({ db, clock, logger, cardGateway: gateways.card, pixGateway: gateways.pix, lifecycle });
  const gatewayFollowUps = new GatewayFollowUps({ db, clock, logger, cardGateway: gateways.card, pixGateway: gateways.pix, lifecycle, intents, users });
  const subscriptions = new SubscriptionService({
    db,
    clock,
    logger,
    subscriptionPlans,
    cardGateway: gateways.card,
    lifecycle,
    followUps: gatewayFollowUps,
    users,
  });
  const checkouts = new CheckoutService({
    db,
    clock,
    subscriptionPlans,
    subscriptions,
    cardGateway: gateways.card,
    pixGateway: gateways.pix,
    lifecycle,
    intents,
    followUps: gatewayFollowUps,
    users,
  });
  const billingHistory = new BillingHistoryService({ db, publicBaseUrl: config.publicBaseUrl, users });
  const paymentEvents = new PaymentEventsService({
    db,
    clock,
    logger,
    pixGateway: gateways.pix,
    lifecycle,
    intents,
    followUps: gatewayFollowUps,
    pixEventSecret: config.pixEventSecret,
    cardEventSecret: config.cardEventSecret,
  });
  const renewals = new RenewalService({ db, clock, logger, lifecycle, intents, followUps: gatewayFollowUps, users, mail });
  const access = new ActivityAccess({ db });
  const links = new LinkService({ db, clock, mail, subscriptionPlans, freeTrainerMaxStudents: config.freeTrainerMaxStudents });
  const invites = new InviteService({ db, clock, mail, users, mailLinks, links, access, auth });

  const exercises = new ExerciseService({ db, clock, storage: deps.storage });
  const trainings = new TrainingService({ db, clock, exercises });
  const trainingPlans = new TrainingPlanService({ db, clock, trainings });
  const planAssignments = new PlanAssignmentService({ db, clock, plans: trainingPlans, access, users });
  const records = new RecordService({ db, access, exercises });
  const recordClaims = new RecordClaiming({ db });
  // Inside each write's transaction, its events' consumers (the outbox takes the public ones, once they have run): the
  // change feed records who hears of them; a log's read models are kept, its records claimed (before the logging use
  // case reads them back, for its answer and its public event).
  subscribe(db, recordInChangeFeed, projectExecutions, recordClaims.claimOnLog, dropEndpointsOfRevokedApps);
  const executions = new ExecutionService({ db, access, users, exercises, trainings });
  const executionLogging = new ExecutionLoggingService({ db, clock, executions, exercises, trainings, records: recordClaims });
  const statistics = new StatisticsService({ db, clock, executions, exercises, trainings, records });
  const adherence = new AdherenceService({ db, clock, users, access });
  const dashboard = new DashboardService({ clock, links, planAssignments, adherence, subscriptions, records });
  const changeFeed = new ChangeFeedService({
    db,
    clock,
    cursorKey: createHash("sha256").update(`change-feed-cursor:${config.jwtSecret}`).digest("hex"),
    sources: {
      profile: users.profileFeed,
      exercise: exercises.feed,
      training: trainings.feed,
      trainingPlan: trainingPlans.feed,
      planAssignment: planAssignments.feed,
      link: links.linkFeed,
      invite: invites.inviteFeed,
      trainingExecution: executions.trainingExecutionFeed,
      exerciseExecution: executions.exerciseExecutionFeed,
      subscription: subscriptions.feed,
    },
  });
  const idempotency = new IdempotencyService({ db, clock, logger, secret: config.jwtSecret });
  const webhookSecrets = new SecretBox(config.jwtSecret);
  // Contract §14.1: in production, https only and no private addresses unless allowed.
  const production = config.env === "production";
  const urlPolicy = { httpsOnly: production, refusePrivateAddresses: production && !config.webhooksAllowPrivateUrls };
  const webhooks = new WebhookService({ db, clock, secrets: webhookSecrets, urlPolicy, deliverSoon: deps.deliverWebhooksSoon });
  const liveUpdates = new LiveUpdatesService({ db, bus: deps.bus, access, events: { dataOf: (ids) => webhooks.eventDataOf(ids) } });
  const webhookDeliveries = new WebhookDeliveryWorker({ db, clock, logger, secrets: webhookSecrets, urlPolicy, access, mail: deps.mail, users });
  const privacy = new PrivacyService({
    db,
    clock,
    logger,
    mail,
    rateLimiter,
    users,
    auth,
    // Every module keeping a person's rows, in the order erasure asks them (PrivacyServiceDeps.holders).
    holders: [
      subscriptions.personalData,
      billingHistory.personalData,
      invites.personalData,
      planAssignments.personalData,
      trainingPlans.personalData,
      trainings.personalData,
      exercises.personalData,
      records.personalData,
      executions.personalData,
      webhooks.personalData,
      personalTokens.personalData,
      developerApps.personalData,
      users.personalData,
      changeFeed.personalData,
    ],
  });

  return {
    auth,
    users,
    personalTokens,
    oauth,
    developerApps,
    budgets,
    rateLimiter,
    subscriptionPlans,
    subscriptions,
    checkouts,
    billingHistory,
    paymentEvents,
    renewals,
    gatewayFollowUps,
    invites,
    links,
    exercises,
    trainings,
    trainingPlans,
    planAssignments,
    executions,
    executionLogging,
    statistics,
    records,
    adherence,
    dashboard,
    changeFeed,
    idempotency,
    privacy,
    webhooks,
    webhookDeliveries,
    liveUpdates,
  };
}

export type Services = ReturnType<typeof createServices>;
