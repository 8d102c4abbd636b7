import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { PageInput } from "../../graphql/page.js";
import { Exercise } from "../exercises/exercise.types.js";
import { UserSummary } from "../users/user.types.js";
import { trainingFilter, trainingInput, trainingPaging } from "./training.inputs.js";
import type { TrainingExerciseDto } from "./training.service.js";
import { TrainingExercise, TrainingFilter, TrainingInput, TrainingPage, Training } from "./training.types.js";
import { ReadAhead } from "../../graphql/read-ahead.js";

/** Trainings over GraphQL: the same service as REST. */
@Resolver(() => Training)
export class TrainingResolver {
  @Query(() => Training)
  training(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.trainings.get(ctx.actor, id);
  }

  @Query(() => TrainingPage)
  trainings(
    @Arg("filter", () => TrainingFilter, { nullable: true }) filter: TrainingFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.trainings.list(ctx.actor, listReader(trainingPaging, trainingFilter, filter, page));
  }

  @Query(() => TrainingPage)
  myTrainings(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context) {
    return ctx.services.trainings.listMine(ctx.actor, pageReader(page, trainingPaging));
  }

  @Mutation(() => Training)
  createTraining(@Arg("input", () => TrainingInput) input: TrainingInput, @Ctx() ctx: Context) {
    return ctx.services.trainings.create(ctx.actor, inputReader(trainingInput, input));
  }

  @Mutation(() => Training)
  updateTraining(@Arg("id", () => Int) id: number, @Arg("input", () => TrainingInput) input: TrainingInput, @Ctx() ctx: Context) {
    return ctx.services.trainings.update(ctx.actor, id, inputReader(trainingInput, input));
  }

  @Mutation(() => Boolean)
  async deleteTraining(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainings.delete(ctx.actor, id);
    return true;
  }

  @FieldResolver(() => UserSummary, { nullable: true, description: "The author" })
  creator(@Root() training: Training, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(training.createdBy);
  }
}

@Resolver(() => TrainingExercise)
export class TrainingExerciseRelationsResolver {
  @FieldResolver(() => Exercise, { nullable: true, description: "Null when the exercise is not visible to the caller" })
  @ReadAhead()
  exercise(@Root() line: TrainingExerciseDto, @Ctx() ctx: Context) {
    return ctx.loaders.exerciseById.load(line.exerciseId);
  }
}
