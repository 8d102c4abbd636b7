import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Info, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput } from "../../graphql/page.js";
import { trainingFilter, trainingInput, trainingPaging } from "./training.inputs.js";
import { trainingInclude } from "./training.include.js";
import { TrainingFilter, TrainingInput, TrainingPage, Training } from "./training.types.js";

/** Trainings over GraphQL: the same service as REST; each answer's author and lines' exercises read in its statement. */
@Resolver(() => Training)
export class TrainingResolver {
  @Scoped("content:read")
  @Query(() => Training)
  training(@Arg("id", () => Int) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainings.get(ctx.actor, id, trainingInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => TrainingPage)
  trainings(
    @Arg("filter", () => TrainingFilter, { nullable: true }) filter: TrainingFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.list(
      ctx.actor,
      listReader(trainingPaging, trainingFilter, filter, page),
      trainingInclude(Selection.of(info).field("content")),
    );
  }

  @Scoped("content:read")
  @Query(() => TrainingPage)
  myTrainings(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainings.listMine(ctx.actor, pageReader(page, trainingPaging), trainingInclude(Selection.of(info).field("content")));
  }

  @Scoped("content:write")
  @Mutation(() => Training)
  createTraining(@Arg("input", () => TrainingInput) input: TrainingInput, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.trainings.create(ctx.actor, inputReader(trainingInput, input), trainingInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Training)
  updateTraining(
    @Arg("id", () => Int) id: number,
    @Arg("input", () => TrainingInput) input: TrainingInput,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.trainings.update(ctx.actor, id, inputReader(trainingInput, input), trainingInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean)
  async deleteTraining(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainings.delete(ctx.actor, id);
    return true;
  }
}
