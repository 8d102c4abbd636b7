import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader, inputReader } from "../../graphql/arguments.js";
import { PageInput } from "../../graphql/page.js";
import { LocalDate } from "../../graphql/scalars.js";
import { Exercise } from "../exercises/exercise.types.js";
import { Training } from "../trainings/training.types.js";
import { User } from "../users/user.types.js";
import { Embedded } from "../../graphql/embedded.js";
import { userExecutions } from "./execution.include.js";
import { exerciseExecutionInput, progressFilter, statisticsFilter, trainingExecutionInput } from "./execution.inputs.js";
import {
  ExecutionFilter,
  ExerciseExecutionInput,
  ExerciseExecution,
  ExerciseProgress,
  ProgressIntervalEnum,
  TrainingExecutionInput,
  TrainingExecutionPage,
  TrainingExecution,
  TrainingStatistics,
  UserMetrics,
} from "./execution.types.js";

/** Execution logs over GraphQL: the same services as REST. */
@Resolver()
export class ExecutionResolver {
  @Scoped("activity:read")
  @Query(() => TrainingExecution)
  trainingExecution(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.executions.getTrainingExecution(ctx.actor, id);
  }

  @Scoped("activity:write")
  @Mutation(() => TrainingExecution, { description: "A clientId the caller logged before answers the execution logged first" })
  async logTrainingExecution(
    @Arg("trainingId", () => Int) trainingId: number,
    @Arg("input", () => TrainingExecutionInput) input: TrainingExecutionInput,
    @Ctx() ctx: Context,
  ) {
    // The schema reads instants as REST's ISO 8601 text.
    const sent = { ...input, startTime: input.startTime.toISOString(), endTime: input.endTime.toISOString() };
    return (await ctx.services.executionLogging.logTraining(ctx.actor, trainingId, inputReader(trainingExecutionInput, sent))).execution;
  }

  @Scoped("activity:write")
  @Mutation(() => ExerciseExecution, { description: "A clientId the caller logged before answers the execution logged first" })
  async logExerciseExecution(
    @Arg("exerciseId", () => Int) exerciseId: number,
    @Arg("input", () => ExerciseExecutionInput) input: ExerciseExecutionInput,
    @Ctx() ctx: Context,
  ) {
    return (await ctx.services.executionLogging.logExercise(ctx.actor, exerciseId, inputReader(exerciseExecutionInput, input))).execution;
  }
}

/** A user's whole picture for a trainer's dashboard: executions, records and metrics (the user, their trainer, admins). */
@Resolver(() => User)
export class UserExecutionsResolver {
  // Read in the statement that reads the user (userExecutions): answerEmbedded answers it as this does, without
  // type-graphql's wrapper; the arguments declare the field's.
  @Scoped("activity:read")
  @FieldResolver(() => TrainingExecutionPage)
  @Embedded(userExecutions)
  executions(
    @Root() user: User,
    @Arg("filter", () => ExecutionFilter, { nullable: true }) filter: ExecutionFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
  ) {
    return userExecutions.answer(user, { filter, page });
  }

  @Scoped("activity:read")
  @FieldResolver(() => UserMetrics)
  metrics(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.statistics.metrics(ctx.actor, user.id);
  }
}

@Resolver(() => Training)
export class TrainingStatisticsResolver {
  @Scoped("activity:read")
  @FieldResolver(() => TrainingStatistics, { description: "Of the caller's executions, or userId's" })
  statistics(
    @Root() training: Training,
    @Arg("userId", () => Int, { nullable: true }) userId: number | undefined,
    @Arg("from", () => LocalDate, { nullable: true }) from: string | undefined,
    @Arg("to", () => LocalDate, { nullable: true }) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.trainingStatistics(ctx.actor, training.id, argumentsReader(statisticsFilter, { userId, startDate: from, endDate: to }));
  }
}

@Resolver(() => Exercise)
export class ExerciseProgressResolver {
  @Scoped("activity:read")
  @FieldResolver(() => ExerciseProgress, { description: "The caller's progress, or userId's" })
  progress(
    @Root() exercise: Exercise,
    @Arg("interval", () => ProgressIntervalEnum, { nullable: true }) interval: string | undefined,
    @Arg("userId", () => Int, { nullable: true }) userId: number | undefined,
    @Arg("from", () => LocalDate, { nullable: true }) from: string | undefined,
    @Arg("to", () => LocalDate, { nullable: true }) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.exerciseProgress(
      ctx.actor,
      exercise.id,
      argumentsReader(progressFilter, { interval, userId, startDate: from, endDate: to }),
    );
  }
}
