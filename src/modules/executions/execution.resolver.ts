import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader, inputReader } from "../../graphql/arguments.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { LocalDate } from "../../graphql/scalars.js";
import { Exercise } from "../exercises/exercise.types.js";
import { Training } from "../trainings/training.types.js";
import { User } from "../users/user.types.js";
import { Embedded } from "../../graphql/embedded.js";
import { describedBy } from "../../graphql/described.js";
import { userExecutions } from "./execution.include.js";
import { exerciseExecutionInput, progressFilter, statisticsFilter, trainingExecutionInput } from "./execution.inputs.js";
import {
  ExecutionFilter,
  ExerciseExecutionInput,
  ExerciseExecution,
  ExerciseProgress,
  ProgressIntervalEnum,
  TrainingExecutionInput,
  TrainingExecutionOrderBy,
  TrainingExecutionPage,
  TrainingExecution,
  TrainingStatistics,
  UserMetrics,
} from "./execution.types.js";

const statisticsArgument = describedBy(statisticsFilter);
const progressArgument = describedBy(progressFilter);

/** Who may read a user's executions and figures. */
const READERS = "the user, administrators and the user's ACTIVE-linked trainer (FORBIDDEN for anyone else)";
/** What a clientId sent again answers (contract §13.2). */
const CLIENT_ID_AGAIN = "A clientId the caller logged before answers the execution logged first";

/** Execution logs over GraphQL: the same services as REST. */
@Resolver()
export class ExecutionResolver {
  @Scoped("activity:read")
  @Query(() => TrainingExecution, { description: `One training execution with its exercises and sets, for ${READERS}` })
  trainingExecution(@Arg("id", () => Int, { description: "The training execution's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.executions.getTrainingExecution(ctx.actor, id);
  }

  @Scoped("activity:write")
  @Mutation(() => TrainingExecution, {
    description: `Logs a session the caller did of a training it may execute (its own, or one of a plan assigned to it, PENDING or ACTIVE); each exercise also becomes an exercise execution, and the answer lists the records the session set. ${CLIENT_ID_AGAIN}`,
  })
  async logTrainingExecution(
    @Arg("trainingId", () => Int, { description: "The training done" }) trainingId: number,
    @Arg("input", () => TrainingExecutionInput, { description: "The session: when it ran and the sets done" }) input: TrainingExecutionInput,
    @Ctx() ctx: Context,
  ) {
    // The schema reads instants as REST's ISO 8601 text.
    const sent = { ...input, startTime: input.startTime.toISOString(), endTime: input.endTime.toISOString() };
    return (await ctx.services.executionLogging.logTraining(ctx.actor, trainingId, inputReader(trainingExecutionInput, sent))).execution;
  }

  @Scoped("activity:write")
  @Mutation(() => ExerciseExecution, {
    description: `Logs one exercise the caller did on its own, dated when the server receives it, within a training the caller may execute; the answer lists the records it set. ${CLIENT_ID_AGAIN}`,
  })
  async logExerciseExecution(
    @Arg("exerciseId", () => Int, { description: "The exercise done: one the caller may see" }) exerciseId: number,
    @Arg("input", () => ExerciseExecutionInput, { description: "The exercise's sets and the training it was done in" }) input: ExerciseExecutionInput,
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
  @FieldResolver(() => TrainingExecutionPage, { description: `The user's training executions, a page of them, for ${READERS}` })
  @Embedded(userExecutions)
  executions(
    @Root() user: User,
    @Arg("filter", () => ExecutionFilter, { nullable: true, description: "What narrows the listing" }) filter: ExecutionFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [TrainingExecutionOrderBy], { nullable: true, description: "The order: the latest started first, unless given" })
    orderBy: OrderBy | undefined,
  ) {
    return userExecutions.answer(user, { filter, page, orderBy });
  }

  @Scoped("activity:read")
  @FieldResolver(() => UserMetrics, { description: `The user's training figures, for ${READERS}` })
  metrics(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.statistics.metrics(ctx.actor, user.id);
  }
}

@Resolver(() => Training)
export class TrainingStatisticsResolver {
  @Scoped("activity:read")
  @FieldResolver(() => TrainingStatistics, { description: "Figures of the caller's executions of the training, or userId's" })
  statistics(
    @Root() training: Training,
    @Arg("userId", () => Int, statisticsArgument("userId", { nullable: true })) userId: number | undefined,
    @Arg("from", () => LocalDate, statisticsArgument("startDate", { nullable: true })) from: string | undefined,
    @Arg("to", () => LocalDate, statisticsArgument("endDate", { nullable: true })) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.trainingStatistics(ctx.actor, training.id, argumentsReader(statisticsFilter, { userId, startDate: from, endDate: to }));
  }
}

@Resolver(() => Exercise)
export class ExerciseProgressResolver {
  @Scoped("activity:read")
  @FieldResolver(() => ExerciseProgress, { description: "The caller's progress on the exercise, or userId's" })
  progress(
    @Root() exercise: Exercise,
    @Arg("interval", () => ProgressIntervalEnum, progressArgument("interval", { nullable: true })) interval: string | undefined,
    @Arg("userId", () => Int, progressArgument("userId", { nullable: true })) userId: number | undefined,
    @Arg("from", () => LocalDate, progressArgument("startDate", { nullable: true })) from: string | undefined,
    @Arg("to", () => LocalDate, progressArgument("endDate", { nullable: true })) to: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.statistics.exerciseProgress(
      ctx.actor,
      exercise.id,
      argumentsReader(progressFilter, { interval, userId, startDate: from, endDate: to }),
    );
  }
}
