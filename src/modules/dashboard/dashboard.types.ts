import { Scoped } from "../../graphql/scopes.js";
import { Field, Float, Int, ObjectType } from "type-graphql";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { DateTime } from "../../graphql/scalars.js";
import { describedBy } from "../../graphql/described.js";
import type { AttentionReason } from "../adherence/adherence.dto.js";
import { AttentionReasonEnum } from "../adherence/adherence.types.js";
import { RecordKindEnum } from "../executions/execution.types.js";
import { recentRecordSchema, trainerDashboardSchema, type RecentRecordDto, type TrainerDashboardDto } from "./dashboard.dto.js";
import { RECENT_RECORDS_LISTED } from "./dashboard.service.js";
import type { NestedShape } from "../../graphql/answer-shapes.js";

const dashboard = describedBy(trainerDashboardSchema);
const {
  students: studentsSchema,
  assignments: assignmentsSchema,
  sessionsThisWeek,
  needsAttention,
  subscription: subscriptionSchema,
} = trainerDashboardSchema.shape;

const seats = describedBy(studentsSchema);

@ObjectType("DashboardStudents", { ...seats.type, simpleResolvers: true })
export class DashboardStudents implements NestedShape<TrainerDashboardDto, "students"> {
  @Field(() => Int, seats("active")) active!: number;
  @Field(() => Int, seats("limit", { nullable: true })) limit!: number | null;
  @Field(() => Int, seats("pendingInvites")) pendingInvites!: number;
}

const assignments = describedBy(assignmentsSchema);

@ObjectType("DashboardAssignments", { ...assignments.type, simpleResolvers: true })
export class DashboardAssignments implements NestedShape<TrainerDashboardDto, "assignments"> {
  @Field(() => Int, assignments("pending")) pending!: number;
  @Field(() => Int, assignments("active")) active!: number;
}

const sessions = describedBy(sessionsThisWeek);

@ObjectType("DashboardSessions", { ...sessions.type, simpleResolvers: true })
export class DashboardSessions implements NestedShape<TrainerDashboardDto, "sessionsThisWeek"> {
  @Field(() => Int, sessions("scheduled")) scheduled!: number;
  @Field(() => Int, sessions("completed")) completed!: number;
}

const attention = describedBy(needsAttention.element);

@ObjectType("StudentAttention", { ...attention.type, simpleResolvers: true })
export class StudentAttention implements NestedShape<TrainerDashboardDto, "needsAttention"> {
  @Field(() => Int, attention("studentId")) studentId!: number;
  @Field(() => String, attention("studentName")) studentName!: string;
  @Field(() => [AttentionReasonEnum], attention("reasons")) reasons!: AttentionReason[];
}

const record = describedBy(recentRecordSchema);

@ObjectType("RecentRecord", { ...record.type, simpleResolvers: true })
export class RecentRecord implements RecentRecordDto {
  @Field(() => Int, record("studentId")) studentId!: number;
  @Field(() => String, record("studentName")) studentName!: string;
  @Field(() => Int, record("exerciseId")) exerciseId!: number;
  @Field(() => String, record("exerciseName")) exerciseName!: string;
  @Field(() => RecordKindEnum, record("kind")) kind!: RecentRecordDto["kind"];
  @Field(() => Float, record("value")) value!: number;
  @Field(() => String, record("unit")) unit!: RecentRecordDto["unit"];
  @Field(() => DateTime, record("achievedAt")) achievedAt!: string;
}

const subscription = describedBy(subscriptionSchema.unwrap());

@ObjectType("DashboardSubscription", { description: "The trainer's own subscription", simpleResolvers: true })
export class DashboardSubscription implements NestedShape<TrainerDashboardDto, "subscription"> {
  @Field(() => String, subscription("planName")) planName!: string;
  @Field(() => String, subscription("status")) status!: string;
  @Field(() => DateTime, subscription("endDate", { nullable: true })) endDate!: string | null;
}

@ObjectType("TrainerDashboard", { ...dashboard.type, simpleResolvers: true })
export class TrainerDashboard implements TrainerDashboardDto {
  @Field(() => DashboardStudents, dashboard("students")) students!: DashboardStudents;
  @Field(() => DashboardAssignments, dashboard("assignments")) assignments!: DashboardAssignments;
  @Field(() => Float, dashboard("adherence30d", { nullable: true })) adherence30d!: number | null;
  @Field(() => DashboardSessions, dashboard("sessionsThisWeek")) sessionsThisWeek!: DashboardSessions;
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Field(() => [StudentAttention], dashboard("needsAttention"))
  needsAttention!: StudentAttention[];
  @ListBound({ cap: RECENT_RECORDS_LISTED })
  @Field(() => [RecentRecord], dashboard("recentRecords"))
  recentRecords!: RecentRecord[];
  @Scoped("billing:read")
  @Field(() => DashboardSubscription, dashboard("subscription", { nullable: true }))
  subscription!: DashboardSubscription | null;
}
