import { Scoped } from "../../graphql/scopes.js";
import { Arg, Int, Resolver, Root, Subscription, type ResolverData } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { Invite } from "../coaching/coaching.types.js";
import { TrainingExecution } from "../executions/execution.types.js";
import { PlanAssignment } from "../training-plans/training-plan.types.js";
import type { LiveField } from "./live-updates.service.js";
import { AchievedRecord } from "./live-updates.types.js";

/** Each field's stream: the subscriber's events of `field` (contract §14.2), from its app's LiveUpdatesService. */
const follow =
  (field: LiveField) =>
  ({ args, context }: Omit<ResolverData<Context>, "root">) =>
    context.services.liveUpdates.follow(context.actor, field, (args as { studentId?: number | null }).studentId);

const studentIdArgument = { nullable: true, description: "Only this student's events: one whose activity the caller may read (FORBIDDEN otherwise)" } as const;

/** Live updates over the WebSocket at /graphql (graphql-transport-ws); each event is the data its webhook carries. */
@Resolver()
export class LiveUpdatesResolver {
  @Scoped("activity:read")
  @Subscription(() => TrainingExecution, {
    subscribe: follow("trainingExecutionLogged"),
    description: "A training execution logged by the caller or a student the caller follows (ACTIVE link)",
  })
  trainingExecutionLogged(@Root() execution: TrainingExecution, @Arg("studentId", () => Int, studentIdArgument) _studentId?: number): TrainingExecution {
    return execution;
  }

  @Scoped("activity:read")
  @Subscription(() => AchievedRecord, {
    subscribe: follow("personalRecordAchieved"),
    description: "A personal record set by the caller or a student the caller follows (ACTIVE link)",
  })
  personalRecordAchieved(@Root() record: AchievedRecord, @Arg("studentId", () => Int, studentIdArgument) _studentId?: number): AchievedRecord {
    return record;
  }

  @Scoped("students:read")
  @Subscription(() => Invite, { subscribe: follow("inviteUpdated"), description: "An invite the caller sent or received, created or changed" })
  inviteUpdated(@Root() invite: Invite): Invite {
    return invite;
  }

  @Scoped("students:read")
  @Subscription(() => PlanAssignment, {
    subscribe: follow("assignmentUpdated"),
    description: "A plan assignment the caller made or received, created or changed",
  })
  assignmentUpdated(@Root() assignment: PlanAssignment): PlanAssignment {
    return assignment;
  }
}
