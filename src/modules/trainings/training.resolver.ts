import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Info, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { trainingFilter, trainingInput, trainingPaging } from "./training.inputs.js";
import { trainingInclude } from "./training.include.js";
import { TrainingFilter, TrainingInput, TrainingOrderBy, TrainingPage, Training } from "./training.types.js";

const TRAINING_ORDER = "The order: newest first (createdAt descending) unless given";

/** Trainings over GraphQL: the same service as REST; each answer's author and lines' exercises read in its statement. */
@Resolver(() => Training)
export class TrainingResolver {
  @Scoped("content:read")
  @Query(() => Training, {
    description:
      "A training the caller may see (token optional for public ones): public, the caller's own, an ACTIVE-linked student's, or scheduled by the caller's PENDING or ACTIVE assignment; all for administrators",
  })
  training(@Arg("id", () => Int, { description: "The training's id" }) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainings.get(ctx.actor, id, trainingInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => TrainingPage, { description: "A page of the trainings the caller may see, as list items (exerciseCount in place of exercises)" })
  trainings(
    @Arg("filter", () => TrainingFilter, { nullable: true, description: "What narrows the listing" }) filter: TrainingFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [TrainingOrderBy], { nullable: true, description: TRAINING_ORDER }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.list(
      ctx.actor,
      listReader(trainingPaging, trainingFilter, filter, page, orderBy),
      trainingInclude(Selection.of(info).field("content")),
    );
  }

  @Scoped("content:read")
  @Query(() => TrainingPage, { description: "A page of the trainings the caller wrote, as list items" })
  myTrainings(
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [TrainingOrderBy], { nullable: true, description: TRAINING_ORDER }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.listMine(ctx.actor, pageReader(page, trainingPaging, orderBy), trainingInclude(Selection.of(info).field("content")));
  }

  @Scoped("content:write")
  @Mutation(() => Training, {
    description: "Writes a training of exercises the caller may see (NOT_FOUND for one not visible); only trainers and administrators may make it public",
  })
  createTraining(
    @Arg("input", () => TrainingInput, { description: "The training" }) input: TrainingInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.create(ctx.actor, inputReader(trainingInput, input), trainingInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Training, { description: "Replaces every field of a training: its author or an administrator" })
  updateTraining(
    @Arg("id", () => Int, { description: "The training's id" }) id: number,
    @Arg("input", () => TrainingInput, { description: "The training as it is to be" }) input: TrainingInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.update(ctx.actor, id, inputReader(trainingInput, input), trainingInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean, {
    description: "Deletes a training (its author or an administrator); CONFLICT while a plan schedules it. Answers true",
  })
  async deleteTraining(@Arg("id", () => Int, { description: "The training's id" }) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainings.delete(ctx.actor, id);
    return true;
  }
}
