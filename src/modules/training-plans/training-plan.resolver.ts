import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput } from "../../graphql/page.js";
import { LocalDate } from "../../graphql/scalars.js";
import { userInclude } from "../users/user.include.js";
import { User } from "../users/user.types.js";
import { planInclude } from "./training-plan.include.js";
import { assignInput, assignmentFilter, assignmentPaging, planFilter, planInput, planPaging } from "./training-plan.inputs.js";
import {
  PlanAssignmentFilter,
  PlanAssignmentPage,
  PlanAssignment,
  TrainingPlanFilter,
  TrainingPlanInput,
  TrainingPlanPage,
  TrainingPlan,
} from "./training-plan.types.js";

/**
 * Training plans and assignments over GraphQL: the same services as REST; each plan's trainings (their exercises, their
 * authors) read in the statement that reads the plan.
 */
@Resolver(() => TrainingPlan)
export class TrainingPlanResolver {
  @Scoped("content:read")
  @Query(() => TrainingPlan)
  trainingPlan(@Arg("id", () => Int) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainingPlans.get(ctx.actor, id, planInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => TrainingPlanPage)
  trainingPlans(
    @Arg("filter", () => TrainingPlanFilter, { nullable: true }) filter: TrainingPlanFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainingPlans.list(ctx.actor, listReader(planPaging, planFilter, filter, page), planInclude(Selection.of(info).field("content")));
  }

  @Scoped("content:read")
  @Query(() => TrainingPlanPage)
  myPlans(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainingPlans.listMine(ctx.actor, pageReader(page, planPaging), planInclude(Selection.of(info).field("content")));
  }

  @Scoped("students:read")
  @Query(() => PlanAssignmentPage)
  planAssignments(
    @Arg("filter", () => PlanAssignmentFilter, { nullable: true }) filter: PlanAssignmentFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.list(ctx.actor, listReader(assignmentPaging, assignmentFilter, filter, page));
  }

  @Scoped("content:write")
  @Mutation(() => TrainingPlan)
  createTrainingPlan(@Arg("input", () => TrainingPlanInput) input: TrainingPlanInput, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainingPlans.create(ctx.actor, inputReader(planInput, input), planInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => TrainingPlan)
  updateTrainingPlan(
    @Arg("id", () => Int) id: number,
    @Arg("input", () => TrainingPlanInput) input: TrainingPlanInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainingPlans.update(ctx.actor, id, inputReader(planInput, input), planInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean)
  async deleteTrainingPlan(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainingPlans.delete(ctx.actor, id);
    return true;
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment)
  assignTrainingPlan(
    @Arg("planId", () => Int) planId: number,
    @Arg("studentId", () => Int) studentId: number,
    @Arg("startDate", () => LocalDate, { nullable: true }) startDate: string | undefined,
    @Arg("notes", () => String, { nullable: true }) notes: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.assign(ctx.actor, planId, inputReader(assignInput, { studentId, startDate, notes }));
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "The student accepts: PENDING → ACTIVE" })
  acceptAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.accept(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "Its trainer or student cancels: PENDING|ACTIVE → CANCELED" })
  cancelAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.cancel(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => PlanAssignment, { description: "Its trainer completes: ACTIVE → COMPLETED" })
  completeAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.complete(ctx.actor, id);
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("students:read")
  @FieldResolver(() => [PlanAssignment], { description: "The assignments of this plan the caller may see" })
  assignments(@Root() plan: TrainingPlan, @Ctx() ctx: Context) {
    return ctx.loaders.assignmentsOfPlan.load(plan.id);
  }
}

@Resolver(() => PlanAssignment)
export class PlanAssignmentRelationsResolver {
  @FieldResolver(() => TrainingPlan, { nullable: true })
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
