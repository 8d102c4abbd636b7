import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, totalShown } from "../../graphql/page.js";
import { GraphQLUpload, readUpload, type FileUpload } from "../../graphql/upload.js";
import { UserSummary } from "../users/user.types.js";
import { exerciseInclude } from "./exercise.include.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "./exercise.inputs.js";
import type { ExerciseDto, ExerciseUpload } from "./exercise.service.js";
import { ExerciseCategoryEnum, ExerciseFilter, ExerciseInput, ExercisePage, Exercise } from "./exercise.types.js";
import { ReadAhead } from "../../graphql/read-ahead.js";

/** The exercise input parsed by the schema the REST multipart's `exercise` part is parsed with. */
function uploadOf(input: ExerciseInput, file: Promise<FileUpload> | undefined): ExerciseUpload {
  const readExercise = inputReader(exerciseInput, input);
  return { readExercise: async () => readExercise(), readFile: async () => (file ? readUpload(file) : undefined) };
}

/** The exercise library over GraphQL: the same service as REST. */
@Resolver(() => Exercise)
export class ExerciseResolver {
  @Query(() => Exercise, { description: "Token optional for public exercises" })
  exercise(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.exercises.get(ctx.actor, id);
  }

  @Query(() => ExercisePage)
  exercises(
    @Arg("filter", () => ExerciseFilter, { nullable: true }) filter: ExerciseFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The authors the selection asks for come in the page's statement; the total is counted only when shown.
    const selection = Selection.of(info);
    const include = exerciseInclude(selection.path("content")) ?? {};
    return ctx.services.exercises.list(ctx.actor, listReader(exercisePaging, exerciseFilter, filter, page), include, totalShown(selection));
  }

  @Query(() => ExercisePage)
  myExercises(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context) {
    return ctx.services.exercises.listMine(ctx.actor, pageReader(page, exercisePaging));
  }

  @Query(() => [ExerciseCategoryEnum])
  exerciseCategories(@Ctx() ctx: Context) {
    return ctx.services.exercises.listCategories();
  }

  @Mutation(() => Exercise, { description: "With an optional image (GraphQL multipart)" })
  createExercise(
    @Arg("input", () => ExerciseInput) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true }) file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.exercises.create(ctx.actor, uploadOf(input, file));
  }

  @Mutation(() => Exercise, { description: "Replaces every field; a new image replaces the old one" })
  updateExercise(
    @Arg("id", () => Int) id: number,
    @Arg("input", () => ExerciseInput) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true }) file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.exercises.update(ctx.actor, id, uploadOf(input, file));
  }

  @Mutation(() => Boolean)
  async deleteExercise(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.exercises.delete(ctx.actor, id);
    return true;
  }

  @FieldResolver(() => UserSummary, { nullable: true, description: "The author" })
  @ReadAhead()
  creator(@Root() exercise: ExerciseDto, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(exercise.createdBy);
  }
}
