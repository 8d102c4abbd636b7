import { Router } from "express";
import { idempotencyKeys } from "../src/platform/http/idempotency.js";
import { jsonBody } from "../src/platform/http/json-body.js";
import type { Logger } from "../src/platform/logger.js";
import type { Services } from "../src/services.js";
import { docsRouter } from "./docs.js";
import { errorHandler, notFoundHandler } from "./errors.js";
import { openApiDocument } from "./openapi.js";
import { webhookEvents } from "../src/modules/webhooks/webhook-event.dto.js";
import { DocumentedRouter } from "./routes.js";
import { addAdherenceRoutes } from "./adherence.routes.js";
import { addSubscriptionPlanRoutes } from "./subscription-plans.routes.js";
import { addSubscriptionRoutes } from "./subscriptions.routes.js";
import { addBillingHistoryRoutes } from "./billing-history.routes.js";
import { addPaymentFlowRoutes } from "./payment-flow.routes.js";
import { addGatewayEventRoutes, rawGatewayEventBody, GATEWAY_EVENT_PATHS } from "./gateway-events.routes.js";
import { addCoachingSideChecks } from "./coaching-sides.js";
import { addCoachingInviteRoutes } from "./coaching-invites.routes.js";
import { addCoachingLinkRoutes } from "./coaching-links.routes.js";
import { addExerciseCategoryRoutes } from "./exercise-categories.routes.js";
import { addExerciseRoutes } from "./exercises.routes.js";
import { addTrainingRoutes } from "./trainings.routes.js";
import { addPlanAssignmentRoutes } from "./plan-assignments.routes.js";
import { addTrainingPlanRoutes } from "./training-plans.routes.js";
import { addDashboardRoutes } from "./dashboard.routes.js";
import { addTrainingExecutionRoutes } from "./training-executions.routes.js";
import { addExerciseExecutionRoutes } from "./exercise-executions.routes.js";
import { addPrivacyRoutes } from "./privacy.routes.js";
import { addRecordRoutes } from "./records.routes.js";
import { addSyncRoutes } from "./sync.routes.js";
import { addSessionRoutes } from "./sessions.routes.js";
import { addAccountEmailRoutes } from "./account-emails.routes.js";
import { addProfileRoutes } from "./profiles.routes.js";
import { addWebhookEndpointRoutes } from "./webhook-endpoints.routes.js";
import { addWebhookDeliveryRoutes } from "./webhook-deliveries.routes.js";
import { actorOf, callerIdOf } from "./http.js";
import { addPersonalTokenRoutes } from "./personal-tokens.routes.js";
import { addDeveloperAppRoutes } from "./developer-apps.routes.js";
import { requireScope } from "../src/platform/auth/actor.js";

/** The REST compatibility layer mounted at /api: JSON parsing, idempotency keys, every module's routes, docs, the error shape. */
export function restApi(services: Services, logger: Logger, publicBaseUrl: string): Router {
  // An invalid token is left to the operation's own answer (401); a valid one lacking the scope, or whose budget is
  // spent, is refused here.
  const routes = new DocumentedRouter(async (req, res, scope) => {
    const actor = await actorOf(services, req).catch(() => null);
    if (!actor) return;
    requireScope(actor, scope);
    const budget = await services.budgets.countRequest(actor);
    if (budget) res.set(budget);
  });
  addPrivacyRoutes(routes, services);
  addSessionRoutes(routes, services);
  addAccountEmailRoutes(routes, services);
  addProfileRoutes(routes, services);
  addSubscriptionPlanRoutes(routes, services);
  addSubscriptionRoutes(routes, services);
  addBillingHistoryRoutes(routes, services);
  addPaymentFlowRoutes(routes, services);
  addGatewayEventRoutes(routes, services);
  addCoachingSideChecks(routes, services);
  addCoachingInviteRoutes(routes, services);
  addCoachingLinkRoutes(routes, services);
  addTrainingExecutionRoutes(routes, services);
  addExerciseExecutionRoutes(routes, services);
  addRecordRoutes(routes, services);
  addExerciseCategoryRoutes(routes, services);
  addExerciseRoutes(routes, services);
  addTrainingRoutes(routes, services);
  addPlanAssignmentRoutes(routes, services);
  addTrainingPlanRoutes(routes, services);
  addAdherenceRoutes(routes, services);
  addDashboardRoutes(routes, services);
  addSyncRoutes(routes, services);
  addWebhookEndpointRoutes(routes, services);
  addWebhookDeliveryRoutes(routes, services);
  addPersonalTokenRoutes(routes, services);
  addDeveloperAppRoutes(routes, services);
  const document = openApiDocument(routes.operations, publicBaseUrl, GATEWAY_EVENT_PATHS, webhookEvents);

  const api = Router();
  api.post(GATEWAY_EVENT_PATHS, rawGatewayEventBody);
  api.use(jsonBody());
  // Every write but the gateways' events takes Idempotency-Key (contract §13.1), once its body parsed.
  api.use(idempotencyKeys({ rules: services.idempotency, userIdOf: (req) => callerIdOf(services, req), except: GATEWAY_EVENT_PATHS, logger }));
  api.use(routes.router);
  api.get("/openapi.json", (_req, res) => {
    res.json(document);
  });
  api.use(docsRouter());
  api.use(notFoundHandler);
  api.use(errorHandler(logger));
  return api;
}
