import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql-api.js";
import { asQuery } from "../../graphql/filters.js";
import { PageInput, pageParams } from "../../graphql/page.js";
import { LocalDate } from "../../graphql/scalars.js";
import { ExerciseType } from "../exercises/exercise.types.js";
import { TrainingType } from "../trainings/training.types.js";
import { UserType } from "../users/user.types.js";
import {
  ExecutionFilter,
  ExerciseExecutionInputType,
  ExerciseExecutionType,
  ExerciseProgressType,
  PersonalRecordType,
  ProgressIntervalEnum,
  TrainingExecutionInputType,
  TrainingExecutionPage,
  TrainingExecutionType,
  TrainingStatisticsType,
  UserMetricsType,
} from "./execution.types.js";

/** Execution logs over GraphQL: the same services as REST. */
@Resolver()
export class ExecutionResolver {
  @Query(() => TrainingExecutionType)
  trainingExecution(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.executions.getTrainingExecution(ctx.actor, id);
  }

  @Query(() => [PersonalRecordType], { description: "The caller's records, one per exercise" })
  personalRecords(@Ctx() ctx: Context) {
    return ctx.services.statistics.personalRecords(ctx.actor);
  }

  @Mutation(() => TrainingExecutionType)
  logTrainingExecution(@Arg("trainingId", () => Int) trainingId: number, @Arg("input", () => TrainingExecutionInputType) input: TrainingExecutionInputType, @Ctx() ctx: Context) {
    return ctx.services.executions.logTraining(ctx.actor, trainingId, {
      ...input,
      startTime: input.startTime.toISOString(),
      endTime: input.endTime.toISOString(),
      exerciseExecutions: input.exerciseExecutions.map((item) => ({ ...item, sets: item.sets.map((set) => ({ ...set })) })),
    });
  }

  @Mutation(() => ExerciseExecutionType)
  logExerciseExecution(@Arg("exerciseId", () => Int) exerciseId: number, @Arg("input", () => ExerciseExecutionInputType) input: ExerciseExecutionInputType, @Ctx() ctx: Context) {
    return ctx.services.executions.logExercise(ctx.actor, exerciseId, { ...input, sets: input.sets.map((set) => ({ ...set })) });
  }
}

/** A user's whole picture for a trainer's dashboard: executions, records and metrics (the user, their trainer, admins). */
@Resolver(() => UserType)
export class UserExecutionsResolver {
  @FieldResolver(() => TrainingExecutionPage)
  executions(
    @Root() user: UserType,
    @Arg("filter", () => ExecutionFilter, { nullable: true }) filter: ExecutionFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.executions.userTrainingExecutions(ctx.actor, user.id, { ...pageParams(page), ...asQuery(filter) });
  }

  @FieldResolver(() => [PersonalRecordType])
  personalRecords(@Root() user: UserType, @Ctx() ctx: Context) {
    return ctx.services.statistics.personalRecords(ctx.actor, user.id);
  }

  @FieldResolver(() => UserMetricsType)
  metrics(@Root() user: UserType, @Ctx() ctx: Context) {
    return ctx.services.statistics.metrics(ctx.actor, user.id);
  }
}

@Resolver(() => TrainingType)
export class TrainingStatisticsResolver {
  @FieldResolver(() => TrainingStatisticsType, { description: "Of the caller's executions, or userId's" })
  statistics(
    @Root() training: TrainingType,
    @Arg("userId", () => Int, { nullable: true }) userId: number | undefined,
    @Arg("from", () => LocalDate, { nullable: true }) from: string | undefined,
    @Arg("to", () => LocalDate, { nullable: true }) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.trainingStatistics(ctx.actor, training.id, asQuery({ userId, startDate: from, endDate: to }));
  }
}

@Resolver(() => ExerciseType)
export class ExerciseProgressResolver {
  @FieldResolver(() => ExerciseProgressType, { description: "The caller's progress, or userId's" })
  progress(
    @Root() exercise: ExerciseType,
    @Arg("interval", () => ProgressIntervalEnum, { nullable: true }) interval: string | undefined,
    @Arg("userId", () => Int, { nullable: true }) userId: number | undefined,
    @Arg("from", () => LocalDate, { nullable: true }) from: string | undefined,
    @Arg("to", () => LocalDate, { nullable: true }) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.exerciseProgress(ctx.actor, exercise.id, asQuery({ interval, userId, startDate: from, endDate: to }));
  }
}
