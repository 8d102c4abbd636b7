import { sql, type SQL } from "drizzle-orm";
import type { SyncEntity } from "../../tables/sync-change.table.js";
import type { DomainEvent } from "../events/domain-event.js";
import type { EventSubscriber } from "../events/emit.js";
import { subscriptionsOf } from "../billing/billing.fragments.js";
import { activeLinkPartiesWith, invitePartiesOfTrainer } from "../coaching/coaching.fragments.js";
import {
  exerciseExecutionsOfExercise,
  exerciseExecutionsOfTraining,
  trainingExecutionsHoldingExercise,
  trainingExecutionsOf,
  trainingExecutionsOfTraining,
} from "../executions/execution.fragments.js";
import { exerciseFeedAudience } from "../exercises/exercise.fragments.js";
import {
  assignmentPartiesOfPlans,
  assignmentPartiesWith,
  livePartiesOfPlans,
  planFeedAudience,
  planIdsScheduling,
  planTrainingsFor,
} from "../training-plans/training-plan.fragments.js";
import { exercisesFor, livePartiesOfTheirExercises, trainingFeedAudience, trainingIdsHoldingExercise } from "../trainings/training.fragments.js";
import type { ChangeTo } from "./change-feed.repository.js";
import { recordAudience, recordChanges } from "./change-feed.recorder.js";

/** A change of `entity` for each (entity id, user id) row the SQL selects. */
type Audience = [SyncEntity, SQL];

/**
 * The change feed's audience rules (contract §13.3): for each event, which users hear of which entities. Run in the
 * emitting transaction, at the point of the change, so an audience is read from the state then (a delete's before its
 * row goes). The changes of known users go in one statement for all the events of an emit, before the audiences, each
 * one statement however many entities and users; the plan content assignments give or take back is one audience for
 * all of them.
 */
export const recordInChangeFeed: EventSubscriber = async (tx, at, events) => {
  const changes: ChangeTo[] = [];
  const audiences: Audience[] = [];
  const contentPairs: { planId: number; userIds: readonly number[] }[] = [];
  for (const event of events) {
    changes.push(...ownEntitiesOf(event));
    audiences.push(...audiencesOf(event));
    // An assignment gives its plan's content to its parties when it is made (PENDING) and takes it back when it ends;
    // accepting it changes neither.
    if (event.type === "plan_assignment.updated" && event.status !== "ACTIVE") contentPairs.push({ planId: event.planId, userIds: event.subjectUserIds });
  }
  if (contentPairs.length > 0) audiences.push(...contentAudiences(pairsOf(contentPairs)));
  await recordChanges(tx, at, ...changes);
  for (const [entity, audience] of audiences) await recordAudience(tx, at, entity, audience);
};

/** The entities an event names and the users who hear of them, when the event says who they are. */
function ownEntitiesOf(event: DomainEvent): ChangeTo[] {
  switch (event.type) {
    case "user.created":
    case "user.updated":
      return [{ entity: "profile", ids: [event.userId], userIds: [event.userId] }];
    case "exercise.created":
      return [{ entity: "exercise", ids: [event.exerciseId], userIds: [event.ownerId] }];
    case "training.created":
      return [{ entity: "training", ids: [event.trainingId], userIds: [event.ownerId] }];
    case "training_plan.created":
      return [{ entity: "trainingPlan", ids: [event.planId], userIds: [event.ownerId] }];
    case "subscription.deleted":
      return [{ entity: "subscription", ids: [event.subscriptionId], userIds: [event.userId] }];
    // A public event's entity goes to its subject users: its owner, or its two parties.
    case "training_execution.created":
      return [
        { entity: "trainingExecution", ids: [event.trainingExecutionId], userIds: event.subjectUserIds },
        { entity: "exerciseExecution", ids: event.exerciseExecutionIds, userIds: event.subjectUserIds },
      ];
    case "exercise_execution.created":
      return [{ entity: "exerciseExecution", ids: [event.exerciseExecutionId], userIds: event.subjectUserIds }];
    case "plan_assignment.updated":
      return [{ entity: "planAssignment", ids: [event.assignmentId], userIds: event.subjectUserIds }];
    case "invite.updated":
      return [{ entity: "invite", ids: [event.inviteId], userIds: event.subjectUserIds }];
    case "link.updated":
      return [{ entity: "link", ids: [event.linkId], userIds: event.subjectUserIds }];
    case "subscription.updated":
      return [{ entity: "subscription", ids: [event.subscriptionId], userIds: event.subjectUserIds }];
    default:
      return [];
  }
}

/** Who else hears of an event, as audiences read in the emitting transaction. */
function audiencesOf(event: DomainEvent): Audience[] {
  switch (event.type) {
    case "user.updated": {
      // What shows the user's name or picture in other users' feeds: ACTIVE links, the invites a trainer sent, and
      // (the name) assignments, the user's training executions and subscriptions.
      const { shown, userId } = event;
      if (!shown || (!shown.name && !shown.picture)) return [];
      return [
        ["link", activeLinkPartiesWith(userId)],
        ...(shown.userType === "PERSONAL" ? [["invite", invitePartiesOfTrainer(userId)] as Audience] : []),
        ...(shown.name
          ? ([
              ["planAssignment", assignmentPartiesWith(userId)],
              ["trainingExecution", trainingExecutionsOf(userId)],
              ["subscription", subscriptionsOf(userId)],
            ] as Audience[])
          : []),
      ];
    }
    case "exercise.updated":
      // Under the exercise's row lock, so an assignment that gives the exercise to a student either committed before
      // (and is in the audience) or waits for this commit (and records the exercise itself): TrainingPlanService.lockContent.
      // A training shows its exercises' names.
      return [
        ["exercise", exerciseFeedAudience(sql`${event.exerciseId}`)],
        ...(event.renamed ? [["training", trainingFeedAudience(trainingIdsHoldingExercise(event.exerciseId))] as Audience] : []),
      ];
    case "exercise.deleted":
      // Executions keep their history with a null exerciseId.
      return [
        ["exercise", exerciseFeedAudience(sql`${event.exerciseId}`)],
        ["exerciseExecution", exerciseExecutionsOfExercise(event.exerciseId)],
        ["trainingExecution", trainingExecutionsHoldingExercise(event.exerciseId)],
      ];
    case "training.exercises_removed":
      // The parties of live assignments scheduling it see its exercises: those it drops read as DELETE unless they
      // still see them otherwise.
      return [["exercise", livePartiesOfTheirExercises(sql`${event.trainingId}`)]];
    case "training.updated": {
      const training = sql`${event.trainingId}`;
      // A plan shows its trainings' names.
      return [
        ["exercise", livePartiesOfTheirExercises(training)],
        ["training", trainingFeedAudience(training)],
        ...(event.renamed ? [["trainingPlan", planFeedAudience(planIdsScheduling(event.trainingId))] as Audience] : []),
      ];
    }
    case "training.deleted":
      // Executions keep their history with a null trainingId.
      return [
        ["training", trainingFeedAudience(sql`${event.trainingId}`)],
        ["trainingExecution", trainingExecutionsOfTraining(event.trainingId)],
        ["exerciseExecution", exerciseExecutionsOfTraining(event.trainingId)],
      ];
    case "training_plan.trainings_removed":
      return contentAudiences(livePartiesOfPlans(sql`${event.planId}`));
    case "training_plan.updated": {
      const plan = sql`${event.planId}`;
      // The plan itself reaches its creator too, whether or not an assignment of it is live. An assignment shows its
      // plan's name, and its parties' adherence follows the plan's days, finished assignments included
      // (adherence.cache.ts reuses figures until a change is recorded for their users).
      return [...contentAudiences(livePartiesOfPlans(plan), planFeedAudience(plan)), ["planAssignment", assignmentPartiesOfPlans(plan)]];
    }
    case "training_plan.deleted":
      // Its finished assignments go with it.
      return [
        ["trainingPlan", planFeedAudience(event.planIds)],
        ["planAssignment", assignmentPartiesOfPlans(event.planIds)],
      ];
    default:
      return [];
  }
}

/**
 * For each (plan id, user id) row of `pairs`, the plan, the trainings it schedules and their exercises: what a live
 * assignment gives its parties, recorded when it starts giving it and when it stops (read then as DELETE, unless the
 * user still sees them otherwise). `planPairs`, when given, are who hear of the plan itself instead (its creator with
 * its parties, when an edit renames it).
 */
function contentAudiences(pairs: SQL, planPairs: SQL = pairs): Audience[] {
  const trainings = planTrainingsFor(pairs);
  return [
    ["trainingPlan", planPairs],
    ["training", trainings],
    ["exercise", exercisesFor(trainings)],
  ];
}

/** Each plan with each of its users, as (plan id, user id) rows. */
function pairsOf(content: { planId: number; userIds: readonly number[] }[]): SQL {
  const planIds = content.flatMap(({ planId, userIds }) => userIds.map(() => planId));
  const userIds = content.flatMap((row) => row.userIds);
  return sql`select * from unnest(${sql.param(planIds)}::int[], ${sql.param(userIds)}::int[])`;
}
