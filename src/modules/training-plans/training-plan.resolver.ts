import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { describedBy } from "../../graphql/described.js";
import { LocalDate } from "../../graphql/scalars.js";
import { userInclude } from "../users/user.include.js";
import { User } from "../users/user.types.js";
import { planInclude } from "./training-plan.include.js";
import { assignInput, assignmentFilter, assignmentPaging, planFilter, planInput, planPaging } from "./training-plan.inputs.js";
import {
  PlanAssignmentFilter,
  PlanAssignmentOrderBy,
  PlanAssignmentPage,
  PlanAssignment,
  TrainingPlanFilter,
  TrainingPlanInput,
  TrainingPlanOrderBy,
  TrainingPlanPage,
  TrainingPlan,
} from "./training-plan.types.js";

/** assignTrainingPlan's arguments stand for the REST assign body: their descriptions are its fields'. */
const assign = describedBy(assignInput);
const PLAN_ORDER = "The order: newest first (createdAt descending) unless given";

/**
 * Training plans and assignments over GraphQL: the same services as REST; each plan's trainings (their exercises, their
 * authors) read in the statement that reads the plan.
 */
@Resolver(() => TrainingPlan)
export class TrainingPlanResolver {
  @Scoped("content:read")
  @Query(() => TrainingPlan, {
    description: "A plan the caller may see: public, the caller's own, or assigned to the caller (administrators see all); FORBIDDEN otherwise",
  })
  trainingPlan(@Arg("id", () => Int, { description: "The plan's id" }) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainingPlans.get(ctx.actor, id, planInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => TrainingPlanPage, {
    description:
      "A page of the plans the caller may see, each with its trainings: public ones, the caller's own, and those assigned to the caller (administrators see all)",
  })
  trainingPlans(
    @Arg("filter", () => TrainingPlanFilter, { nullable: true, description: "What narrows the listing" }) filter: TrainingPlanFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [TrainingPlanOrderBy], { nullable: true, description: PLAN_ORDER }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const read = listReader(planPaging, planFilter, filter, page, orderBy);
    return ctx.services.trainingPlans.list(ctx.actor, read, planInclude(Selection.of(info).field("content")));
  }

  @Scoped("content:read")
  @Query(() => TrainingPlanPage, { description: "A page of the plans the caller wrote (trainers only: FORBIDDEN for students)" })
  myPlans(
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [TrainingPlanOrderBy], { nullable: true, description: PLAN_ORDER }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainingPlans.listMine(ctx.actor, pageReader(page, planPaging, orderBy), planInclude(Selection.of(info).field("content")));
  }

  @Scoped("students:read")
  @Query(() => PlanAssignmentPage, {
    description: "A page of plan assignments: those a trainer made, a student's own, or all of them for administrators",
  })
  planAssignments(
    @Arg("filter", () => PlanAssignmentFilter, { nullable: true, description: "What narrows the listing" }) filter: PlanAssignmentFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [PlanAssignmentOrderBy], { nullable: true, description: "The order: latest assigned first (assignedAt descending) unless given" })
    orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.list(ctx.actor, listReader(assignmentPaging, assignmentFilter, filter, page, orderBy));
  }

  @Scoped("content:write")
  @Mutation(() => TrainingPlan, {
    description: "Writes a plan of trainings the caller may see (trainers only: FORBIDDEN for students; NOT_FOUND for a training not visible)",
  })
  createTrainingPlan(
    @Arg("input", () => TrainingPlanInput, { description: "The plan" }) input: TrainingPlanInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainingPlans.create(ctx.actor, inputReader(planInput, input), planInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => TrainingPlan, { description: "Replaces every field of a plan: its author or an administrator (NOT_FOUND for a training not visible)" })
  updateTrainingPlan(
    @Arg("id", () => Int, { description: "The plan's id" }) id: number,
    @Arg("input", () => TrainingPlanInput, { description: "The plan as it is to be" }) input: TrainingPlanInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainingPlans.update(ctx.actor, id, inputReader(planInput, input), planInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean, {
    description:
      "Deletes a plan (its author or an administrator) with its finished assignments; CONFLICT while a PENDING or ACTIVE assignment uses it. Answers true",
  })
  async deleteTrainingPlan(@Arg("id", () => Int, { description: "The plan's id" }) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainingPlans.delete(ctx.actor, id);
    return true;
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, {
    description:
      "A trainer assigns a plan the trainer may see to an ACTIVE-linked student: PENDING until the student accepts. Another trainer's plan is assigned as the caller's own private copy",
  })
  assignTrainingPlan(
    @Arg("planId", () => Int, { description: "The plan to assign" }) planId: number,
    @Arg("studentId", () => Int, assign("studentId")) studentId: number,
    @Arg("startDate", () => LocalDate, assign("startDate", { nullable: true })) startDate: string | undefined,
    @Arg("notes", () => String, assign("notes", { nullable: true })) notes: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.assign(ctx.actor, planId, inputReader(assignInput, { studentId, startDate, notes }));
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "The student accepts: PENDING → ACTIVE" })
  acceptAssignment(@Arg("id", () => Int, { description: "The assignment's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.accept(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "Its trainer or student cancels: PENDING|ACTIVE → CANCELED" })
  cancelAssignment(@Arg("id", () => Int, { description: "The assignment's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.cancel(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "Its trainer completes: ACTIVE → COMPLETED" })
  completeAssignment(@Arg("id", () => Int, { description: "The assignment's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.complete(ctx.actor, id);
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("students:read")
  @FieldResolver(() => [PlanAssignment], {
    description: "The assignments of this plan the caller may see (those the caller is a party to; all for administrators), newest first, at most 100",
  })
  assignments(@Root() plan: TrainingPlan, @Ctx() ctx: Context) {
    return ctx.loaders.assignmentsOfPlan.load(plan.id);
  }
}

@Resolver(() => PlanAssignment)
export class PlanAssignmentRelationsResolver {
  @FieldResolver(() => TrainingPlan, { nullable: true, description: "The plan assigned; null when the caller may not see it" })
  plan(@Root() assignment: PlanAssignment, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    // One batch per selection of the plan: its trainings (their exercises, their authors) in the batch's statement.
    return ctx.loaders.trainingPlanById(planInclude(Selection.of(info))).load(assignment.planId);
  }

  @FieldResolver(() => User, { nullable: true, description: "Null when the caller may no longer read the user" })
  student(@Root() assignment: PlanAssignment, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    // One batch per selection of the user: the relations other modules embed in a user (its executions) in its statement.
    return ctx.loaders.userById(userInclude(Selection.of(info), ctx)).load(assignment.studentId);
  }

  @FieldResolver(() => User, { nullable: true, description: "Null when the caller may no longer read the user" })
  personal(@Root() assignment: PlanAssignment, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.userById(userInclude(Selection.of(info), ctx)).load(assignment.personalId);
  }
}
