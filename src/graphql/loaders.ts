import DataLoader from "dataloader";
import type { Actor } from "../platform/auth/actor.js";
import type { Services } from "../services.js";

/** Per-request DataLoaders: a list of N items resolves each relation in one query, not N. */
export function createLoaders(services: Services, actor: Actor) {
  return {
    /** Full users the caller may read (self, administrators, linked parties); null otherwise. */
    userById: new DataLoader((ids: readonly number[]) => services.users.findVisibleByIds(actor, ids)),
    /** Public author summaries. */
    authorById: new DataLoader((ids: readonly number[]) => services.users.summariesByIds(ids)),
    exerciseById: new DataLoader((ids: readonly number[]) => services.exercises.findVisibleByIds(actor, ids)),
    trainingById: new DataLoader((ids: readonly number[]) => services.trainings.findVisibleByIds(actor, ids)),
    planById: new DataLoader((ids: readonly number[]) => services.trainingPlans.findVisibleByIds(actor, ids)),
    assignmentsOfPlan: new DataLoader((ids: readonly number[]) => services.planAssignments.ofPlans(actor, ids)),
    studentsOf: new DataLoader((ids: readonly number[]) => services.coaching.activeLinksOf(actor, "personal", ids)),
    personalsOf: new DataLoader((ids: readonly number[]) => services.coaching.activeLinksOf(actor, "student", ids)),
    /** The subscription giving each user access (self and administrators; a 403 error for anyone else). */
    subscriptionOfUser: new DataLoader((ids: readonly number[]) => services.subscriptions.currentOfUsers(actor, ids)),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
