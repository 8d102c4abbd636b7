import { Scoped } from "../../graphql/scopes.js";
import { Field, Float, Int, ObjectType } from "type-graphql";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { DateTime } from "../../graphql/scalars.js";
import type { AttentionReason } from "../adherence/adherence.dto.js";
import { AttentionReasonEnum } from "../adherence/adherence.types.js";
import { RecordKindEnum } from "../executions/execution.types.js";
import type { RecentRecordDto, TrainerDashboardDto } from "./dashboard.dto.js";
import { RECENT_RECORDS_LISTED } from "./dashboard.service.js";
import type { NestedShape } from "../../graphql/answer-shapes.js";

@ObjectType("DashboardStudents", { description: "A trainer's seats", simpleResolvers: true })
export class DashboardStudents implements NestedShape<TrainerDashboardDto, "students"> {
  @Field(() => Int) active!: number;
  @Field(() => Int, { nullable: true, description: "the seat limit of the trainer's plan; null = unlimited" }) limit!: number | null;
  @Field(() => Int) pendingInvites!: number;
}

@ObjectType("DashboardAssignments", { simpleResolvers: true })
export class DashboardAssignments implements NestedShape<TrainerDashboardDto, "assignments"> {
  @Field(() => Int) pending!: number;
  @Field(() => Int) active!: number;
}

@ObjectType("DashboardSessions", { description: "This ISO week's sessions up to today", simpleResolvers: true })
export class DashboardSessions implements NestedShape<TrainerDashboardDto, "sessionsThisWeek"> {
  @Field(() => Int) scheduled!: number;
  @Field(() => Int) completed!: number;
}

@ObjectType("StudentAttention", { description: "A student who needs attention, and why", simpleResolvers: true })
export class StudentAttention implements NestedShape<TrainerDashboardDto, "needsAttention"> {
  @Field(() => Int) studentId!: number;
  @Field(() => String) studentName!: string;
  @Field(() => [AttentionReasonEnum]) reasons!: AttentionReason[];
}

@ObjectType("RecentRecord", { description: "A record one of the trainer's students set", simpleResolvers: true })
export class RecentRecord implements RecentRecordDto {
  @Field(() => Int) studentId!: number;
  @Field(() => String) studentName!: string;
  @Field(() => Int) exerciseId!: number;
  @Field(() => String) exerciseName!: string;
  @Field(() => RecordKindEnum) kind!: RecentRecordDto["kind"];
  @Field(() => Float, { description: "kg, or repetitions for MAX_REPS" }) value!: number;
  @Field(() => String, { description: "kg or reps" }) unit!: RecentRecordDto["unit"];
  @Field(() => DateTime) achievedAt!: string;
}

@ObjectType("DashboardSubscription", { description: "The trainer's own subscription", simpleResolvers: true })
export class DashboardSubscription implements NestedShape<TrainerDashboardDto, "subscription"> {
  @Field(() => String) planName!: string;
  @Field(() => String) status!: string;
  @Field(() => DateTime, { nullable: true }) endDate!: string | null;
}

@ObjectType("TrainerDashboard", { description: "A trainer's students, assignments, adherence, records and subscription at a glance", simpleResolvers: true })
export class TrainerDashboard implements TrainerDashboardDto {
  @Field(() => DashboardStudents) students!: DashboardStudents;
  @Field(() => DashboardAssignments) assignments!: DashboardAssignments;
  @Field(() => Float, { nullable: true, description: "mean 30-day adherence of the ACTIVE students that have one" }) adherence30d!: number | null;
  @Field(() => DashboardSessions) sessionsThisWeek!: DashboardSessions;
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Field(() => [StudentAttention])
  needsAttention!: StudentAttention[];
  @ListBound({ cap: RECENT_RECORDS_LISTED })
  @Field(() => [RecentRecord], { description: "the last 7 days, newest first, at most 20" })
  recentRecords!: RecentRecord[];
  @Scoped("billing:read")
  @Field(() => DashboardSubscription, { nullable: true })
  subscription!: DashboardSubscription | null;
}
