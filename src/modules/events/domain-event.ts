import type { SQL } from "drizzle-orm";
import type { AssignmentStatus } from "../../tables/training-plan.table.js";
import type { UserType } from "../../tables/user.table.js";
import type { exerciseExecutions } from "../../tables/execution.table.js";
import type { DomainEventType } from "../../tables/events.table.js";

/**
 * The events of the domain: one per change, emitted by the use case that makes it, in its transaction. Each carries
 * the ids its consumers need to decide who hears of it (the change feed's audiences, contract §13.3); the public ones
 * (WEBHOOK_EVENT_RULES, contract §14.1) also carry their subject users and their data (the REST DTO a reader gets),
 * and go into the outbox for webhooks and live updates.
 *
 * A change that rewrites what an entity holds emits an event before the old content goes (`…_removed`, as a delete
 * emits before its row goes) and one after the new is in: who saw the old and who sees the new both hear of it.
 */
export type DomainEvent = PublicEvent | ChangeEvent;

/** The events stored in the outbox, delivered as webhooks and announced as live updates. */
export type PublicEvent =
  | Published<"training_execution.created", { trainingExecutionId: number; exerciseExecutionIds: readonly number[] }>
  | Published<"exercise_execution.created", { exerciseExecutionId: number }>
  | Published<"personal_record.achieved">
  | Published<"plan_assignment.updated", { assignmentId: number; planId: number; status: AssignmentStatus }>
  | Published<"invite.updated", { inviteId: number }>
  | Published<"link.updated", { linkId: number }>
  | Published<"subscription.updated", { subscriptionId: number }>
  | Published<"payment.completed">;

/** A public event: its subject users (whose activity or entity it is: its parties) and its data, with `Ids`. */
type Published<Type extends DomainEventType, Ids = unknown> = { type: Type; subjectUserIds: readonly number[]; data: object } & Ids;

/** The events only the consumers inside the service hear of (the change feed, the read models of executions). */
export type ChangeEvent =
  /**
   * Exercise executions just logged by one user, a session's (`session`) or one on its own, in memory as inserted:
   * what the read models of executions are made of (executions' monthly sums and completed weeks, the records they
   * set). The log's public event (`training_execution.created`, `exercise_execution.created`) follows it, once they
   * are made (its data carries the records set).
   */
  | { type: "exercise_executions.logged"; userId: number; exercises: readonly LoggedExercise[]; session: LoggedSession | null }
  | { type: "user.created"; userId: number }
  /** `shown`: what other users see of the user (name, picture) and whether it changed; absent when nothing of it did. */
  | { type: "user.updated"; userId: number; shown?: { userType: UserType; name: boolean; picture: boolean } }
  | { type: "exercise.created"; exerciseId: number; ownerId: number }
  | { type: "exercise.updated"; exerciseId: number; renamed: boolean }
  | { type: "exercise.deleted"; exerciseId: number }
  | { type: "training.created"; trainingId: number; ownerId: number }
  | { type: "training.exercises_removed"; trainingId: number }
  | { type: "training.updated"; trainingId: number; renamed: boolean }
  | { type: "training.deleted"; trainingId: number }
  | { type: "training_plan.created"; planId: number; ownerId: number }
  | { type: "training_plan.trainings_removed"; planId: number }
  | { type: "training_plan.updated"; planId: number }
  /** `planIds`: a selection of the plans' ids (one column), read when the event is emitted, before they go. */
  | { type: "training_plan.deleted"; planIds: SQL }
  | { type: "subscription.deleted"; subscriptionId: number; userId: number }
  /** A user's last grant to an app is gone (revoked by the user, by reuse of a refresh token, or the app deleted). */
  | { type: "app_authorization.revoked"; userId: number; clientId: string };

/** A set as logged: weight in kg. */
export interface LoggedSet {
  repetitions: number;
  weight?: number | null;
  completed: boolean;
}

/** An exercise execution just logged, its row as inserted, with its sets as sent. */
export interface LoggedExercise {
  execution: typeof exerciseExecutions.$inferSelect;
  sets: readonly LoggedSet[];
}

/** The session of a training its exercise executions were logged in. */
export interface LoggedSession {
  trainingExecutionId: number;
  trainingId: number;
  startTime: Date;
  completed: boolean;
}

export type DomainEventOf<Type extends DomainEvent["type"]> = Extract<DomainEvent, { type: Type }>;
