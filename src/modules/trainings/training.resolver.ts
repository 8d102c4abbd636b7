import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql-api.js";
import { asQuery } from "../../graphql/filters.js";
import { PageInput, pageParams } from "../../graphql/page.js";
import { ExerciseType } from "../exercises/exercise.types.js";
import { UserSummaryType } from "../users/user.types.js";
import { TrainingExerciseType, TrainingFilter, TrainingInputType, TrainingPage, TrainingType } from "./training.types.js";

/** Trainings over GraphQL: the same service as REST. */
@Resolver(() => TrainingType)
export class TrainingResolver {
  @Query(() => TrainingType)
  training(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.trainings.get(ctx.actor, id);
  }

  @Query(() => TrainingPage)
  trainings(
    @Arg("filter", () => TrainingFilter, { nullable: true }) filter: TrainingFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.trainings.list(ctx.actor, { ...pageParams(page), ...asQuery(filter) });
  }

  @Query(() => TrainingPage)
  myTrainings(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context) {
    return ctx.services.trainings.mine(ctx.actor, pageParams(page));
  }

  @Mutation(() => TrainingType)
  createTraining(@Arg("input", () => TrainingInputType) input: TrainingInputType, @Ctx() ctx: Context) {
    return ctx.services.trainings.create(ctx.actor, { ...input, exercises: input.exercises.map((line) => ({ ...line })) });
  }

  @Mutation(() => TrainingType)
  updateTraining(@Arg("id", () => Int) id: number, @Arg("input", () => TrainingInputType) input: TrainingInputType, @Ctx() ctx: Context) {
    return ctx.services.trainings.update(ctx.actor, id, { ...input, exercises: input.exercises.map((line) => ({ ...line })) });
  }

  @Mutation(() => Boolean)
  async deleteTraining(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.trainings.delete(ctx.actor, id);
    return true;
  }

  @FieldResolver(() => UserSummaryType, { nullable: true, description: "The author" })
  creator(@Root() training: TrainingType, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(training.createdBy);
  }
}

@Resolver(() => TrainingExerciseType)
export class TrainingExerciseRelationsResolver {
  @FieldResolver(() => ExerciseType, { nullable: true, description: "Null when the exercise is not visible to the caller" })
  exercise(@Root() line: TrainingExerciseType, @Ctx() ctx: Context) {
    return ctx.loaders.exerciseById.load(line.exerciseId);
  }
}
