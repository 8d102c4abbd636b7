import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, Info, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { inputReader, listReader, pageReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, totalShown, type OrderBy } from "../../graphql/page.js";
import { GraphQLUpload, readUpload, type FileUpload } from "../../graphql/upload.js";
import { exerciseInclude } from "./exercise.include.js";
import { exerciseFilter, exerciseInput, exercisePaging } from "./exercise.inputs.js";
import type { ExerciseUpload } from "./exercise.service.js";
import { ExerciseCategoryEnum, ExerciseFilter, ExerciseInput, ExerciseOrderBy, ExercisePage, Exercise } from "./exercise.types.js";

/** The exercise input parsed by the schema the REST multipart's `exercise` part is parsed with. */
function uploadOf(input: ExerciseInput, file: Promise<FileUpload> | undefined): ExerciseUpload {
  const readExercise = inputReader(exerciseInput, input);
  return { readExercise: async () => readExercise(), readFile: async () => (file ? readUpload(file) : undefined) };
}

/** The exercise library over GraphQL: the same service as REST; each answer's author read in its statement. */
@Resolver(() => Exercise)
export class ExerciseResolver {
  @Scoped("content:read")
  @Query(() => Exercise, {
    description:
      "Token optional for public exercises. A private one is visible to its author, administrators, the trainer ACTIVE-linked to its student author, and students whose PENDING or ACTIVE plan assignment uses it",
  })
  exercise(@Arg("id", () => Int, { description: "The exercise's id" }) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.exercises.get(ctx.actor, id, exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:read")
  @Query(() => ExercisePage)
  exercises(
    @Arg("filter", () => ExerciseFilter, { nullable: true, description: "What narrows the listing" }) filter: ExerciseFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [ExerciseOrderBy], { nullable: true, description: "The order: by name, A to Z, unless given" }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The total is counted only when shown.
    const selection = Selection.of(info);
    const read = listReader(exercisePaging, exerciseFilter, filter, page, orderBy);
    return ctx.services.exercises.list(ctx.actor, read, exerciseInclude(selection.path("content")), totalShown(selection));
  }

  @Scoped("content:read")
  @Query(() => ExercisePage)
  myExercises(
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [ExerciseOrderBy], { nullable: true, description: "The order: by name, A to Z, unless given" }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    const selection = Selection.of(info);
    const read = pageReader(page, exercisePaging, orderBy);
    return ctx.services.exercises.listMine(ctx.actor, read, exerciseInclude(selection.path("content")), totalShown(selection));
  }

  @Scoped("none")
  @Query(() => [ExerciseCategoryEnum], { description: "The ten exercise categories, always in the same order (the apps show them so); no token needed" })
  exerciseCategories(@Ctx() ctx: Context) {
    return ctx.services.exercises.listCategories();
  }

  @Scoped("content:write")
  @Mutation(() => Exercise, {
    description: "With an optional image (GraphQL multipart). Any signed-in user; only trainers and administrators may make it public (FORBIDDEN otherwise)",
  })
  createExercise(
    @Arg("input", () => ExerciseInput, { description: "The exercise" }) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true, description: "Its image: JPG, PNG or GIF (judged from its bytes), at most 5 MB" })
    file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.exercises.create(ctx.actor, uploadOf(input, file), exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Exercise, {
    description: "Replaces every field; a new image replaces the old one (without one the image stays). Its author or an administrator",
  })
  updateExercise(
    @Arg("id", () => Int, { description: "The exercise's id" }) id: number,
    @Arg("input", () => ExerciseInput, { description: "The exercise as it is to be" }) input: ExerciseInput,
    @Arg("file", () => GraphQLUpload, { nullable: true, description: "A new image: JPG, PNG or GIF (judged from its bytes), at most 5 MB" })
    file: Promise<FileUpload> | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.exercises.update(ctx.actor, id, uploadOf(input, file), exerciseInclude(Selection.of(info)));
  }

  @Scoped("content:write")
  @Mutation(() => Boolean, {
    description: "Deletes an exercise and its image: its author or an administrator; CONFLICT while a training holds it. Answers true",
  })
  async deleteExercise(@Arg("id", () => Int, { description: "The exercise's id" }) id: number, @Ctx() ctx: Context) {
    await ctx.services.exercises.delete(ctx.actor, id);
    return true;
  }
}
