import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Info, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, totalShown } from "../../graphql/page.js";
import { GraphQLUpload, readUpload, type FileUpload } from "../../graphql/upload.js";
import { exerciseInclude } from "./exercise.include.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "./exercise.inputs.js";
import type { ExerciseUpload } from "./exercise.service.js";
import { ExerciseCategoryEnum, ExerciseFilter, ExerciseInput, ExercisePage, Exercise } from "./exercise.types.js";

/** The exercise input parsed by the schema the REST multipart's `exercise` part is parsed with. */
function uploadOf(input: ExerciseInput, file: Promise<FileUpload> | undefined): ExerciseUpload {
  const readExercise = inputReader(exerciseInput, input);
  return { readExercise: async () => readExercise(), readFile: async () => (file ? readUpload(file) : undefined) };
}

/** The exercise library over GraphQL: the same service as REST; each answer's author read in its statement. */
@Resolver(() => Exercise)
export class ExerciseResolver {
  @Scoped("content:read")
  @Query(() => Exercise, { description: "Token optional for public exercises" })
  exercise(@Arg("id", () => Int) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.exercises.get(ctx.actor, id, exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => ExercisePage)
  exercises(
    @Arg("filter", () => ExerciseFilter, { nullable: true }) filter: ExerciseFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The total is counted only when shown.
    const selection = Selection.of(info);
    const read = listReader(exercisePaging, exerciseFilter, filter, page);
    return ctx.services.exercises.list(ctx.actor, read, exerciseInclude(selection.path("content")), totalShown(selection));
  }

  @Scoped("content:read")
  @Query(() => ExercisePage)
  myExercises(@Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    const selection = Selection.of(info);
    return ctx.services.exercises.listMine(ctx.actor, pageReader(page, exercisePaging), exerciseInclude(selection.path("content")), totalShown(selection));
  }

  @Scoped("none")
  @Query(() => [ExerciseCategoryEnum])
  exerciseCategories(@Ctx() ctx: Context) {
    return ctx.services.exercises.listCategories();
  }

  @Scoped("content:write")
  @Mutation(() => Exercise, { description: "With an optional image (GraphQL multipart)" })
  createExercise(
    @Arg("input", () => ExerciseInput) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true }) file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.exercises.create(ctx.actor, uploadOf(input, file), exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Exercise, { description: "Replaces every field; a new image replaces the old one" })
  updateExercise(
    @Arg("id", () => Int) id: number,
    @Arg("input", () => ExerciseInput) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true }) file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.exercises.update(ctx.actor, id, uploadOf(input, file), exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean)
  async deleteExercise(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    await ctx.services.exercises.delete(ctx.actor, id);
    return true;
  }
}
