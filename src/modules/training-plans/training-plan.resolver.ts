import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql-api.js";
import { asQuery } from "../../graphql/filters.js";
import { PageInput, pageParams } from "../../graphql/page.js";
import { LocalDate } from "../../graphql/scalars.js";
import { TrainingType } from "../trainings/training.types.js";
import { UserSummaryType, UserType } from "../users/user.types.js";
import {
  PlanAssignmentFilter,
  PlanAssignmentPage,
  PlanAssignmentType,
  PlanTrainingType,
  TrainingPlanFilter,
  TrainingPlanInputType,
  TrainingPlanPage,
  TrainingPlanType,
} from "./training-plan.types.js";

const planBody = (input: TrainingPlanInputType) => ({ ...input, trainings: input.trainings.map((item) => ({ ...item })) });

/** Training plans and assignments over GraphQL: the same services as REST. */
@Resolver(() => TrainingPlanType)
export class TrainingPlanResolver {
  @Query(() => TrainingPlanType)
  trainingPlan(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.trainingPlans.get(ctx.actor, id);
  }

  @Query(() => TrainingPlanPage)
  trainingPlans(
    @Arg("filter", () => TrainingPlanFilter, { nullable: true }) filter: TrainingPlanFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.trainingPlans.list(ctx.actor, { ...pageParams(page), ...asQuery(filter) });
  }

  @Query(() => TrainingPlanPage)
  myPlans(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context) {
    return ctx.services.trainingPlans.mine(ctx.actor, pageParams(page));
  }

  @Query(() => PlanAssignmentPage)
  planAssignments(
    @Arg("filter", () => PlanAssignmentFilter, { nullable: true }) filter: PlanAssignmentFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.list(ctx.actor, { ...pageParams(page), ...asQuery(filter) });
  }

  @Mutation(() => TrainingPlanType)
  createTrainingPlan(@Arg("input", () => TrainingPlanInputType) input: TrainingPlanInputType, @Ctx() ctx: Context) {
    return ctx.services.trainingPlans.create(ctx.actor, planBody(input));
  }

  @Mutation(() => TrainingPlanType)
  updateTrainingPlan(@Arg("id", () => Int) id: number, @Arg("input", () => TrainingPlanInputType) input: TrainingPlanInputType, @Ctx() ctx: Context) {
    return ctx.services.trainingPlans.update(ctx.actor, id, planBody(input));
  }

  @Mutation(() => Boolean)
  async deleteTrainingPlan(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainingPlans.delete(ctx.actor, id);
    return true;
  }

  @Mutation(() => PlanAssignmentType)
  assignTrainingPlan(
    @Arg("planId", () => Int) planId: number,
    @Arg("studentId", () => Int) studentId: number,
    @Arg("startDate", () => LocalDate, { nullable: true }) startDate: string | undefined,
    @Arg("notes", () => String, { nullable: true }) notes: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.planAssignments.assign(ctx.actor, planId, { studentId, startDate, notes });
  }

  @Mutation(() => PlanAssignmentType, { description: "The student accepts: PENDING → ACTIVE" })
  acceptAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.accept(ctx.actor, id);
  }

  @Mutation(() => PlanAssignmentType, { description: "Its trainer or student cancels: PENDING|ACTIVE → CANCELED" })
  cancelAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.cancel(ctx.actor, id);
  }

  @Mutation(() => PlanAssignmentType, { description: "Its trainer completes: ACTIVE → COMPLETED" })
  completeAssignment(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.planAssignments.complete(ctx.actor, id);
  }

  @FieldResolver(() => [PlanAssignmentType], { description: "The assignments of this plan the caller may see" })
  assignments(@Root() plan: TrainingPlanType, @Ctx() ctx: Context) {
    return ctx.loaders.assignmentsOfPlan.load(plan.id);
  }

  @FieldResolver(() => UserSummaryType, { nullable: true, description: "The author" })
  creator(@Root() plan: TrainingPlanType, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(plan.createdBy);
  }
}

@Resolver(() => PlanTrainingType)
export class PlanTrainingRelationsResolver {
  @FieldResolver(() => TrainingType, { nullable: true, description: "Null when the training is not visible to the caller" })
  training(@Root() item: PlanTrainingType, @Ctx() ctx: Context) {
    return ctx.loaders.trainingById.load(item.trainingId);
  }
}

@Resolver(() => PlanAssignmentType)
export class PlanAssignmentRelationsResolver {
  @FieldResolver(() => TrainingPlanType, { nullable: true })
  plan(@Root() assignment: PlanAssignmentType, @Ctx() ctx: Context) {
    return ctx.loaders.planById.load(assignment.planId);
  }

  @FieldResolver(() => UserType, { nullable: true, description: "Null when the caller may no longer read the user" })
  student(@Root() assignment: PlanAssignmentType, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(assignment.studentId);
  }

  @FieldResolver(() => UserType, { nullable: true, description: "Null when the caller may no longer read the user" })
  personal(@Root() assignment: PlanAssignmentType, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(assignment.personalId);
  }
}
