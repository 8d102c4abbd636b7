import { requireUser, type Actor } from "../../platform/auth/actor.js";
import type { Db } from "../../platform/db/database.js";
import { notFound } from "../../platform/errors.js";
import type { InputReader } from "../../platform/validation.js";
import { toPlanDto, type PlanDto, type PlanRow } from "./billing.dto.js";
import type { PlanCatalogueFilter } from "./billing.inputs.js";
import { subscriptionRepository } from "./subscription.repository.js";
import { subscriptionPlanRepository } from "./subscription-plan.repository.js";

export const PLAN_NOT_FOUND = "Plano não encontrado";

/** The subscription plan catalogue. */
export class SubscriptionPlanService {
  constructor(private readonly deps: { db: Db }) {}

  /** The catalogue as a plain array, filtered by userType, active and interval. */
  async list(actor: Actor, readFilter: InputReader<PlanCatalogueFilter>): Promise<PlanDto[]> {
    requireUser(actor);
    const filter = readFilter();
    return (await subscriptionPlanRepository.list(this.deps.db, filter)).map(toPlanDto);
  }

  async get(actor: Actor, id: number): Promise<PlanDto> {
    requireUser(actor);
    return toPlanDto(await this.load(id));
  }

  /**
   * The student limit a trainer's ACTIVE subscription gives: its plan's maxStudents (null = unlimited), or
   * `undefined` without an active subscription (the caller applies the free allowance).
   */
  async studentLimitOf(db: Db, userId: number): Promise<number | null | undefined> {
    const subscription = await subscriptionRepository.findActiveSubscription(db, userId);
    if (!subscription) return undefined;
    return (await this.load(subscription.planId, db)).maxStudents;
  }

  /** The plan row or 404 (for the subscription use cases). */
  async load(id: number, db: Db = this.deps.db): Promise<PlanRow> {
    const row = await subscriptionPlanRepository.findById(db, id);
    if (!row) throw notFound(PLAN_NOT_FOUND);
    return row;
  }
}
