import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import { RECORD_KINDS } from "../../tables/records.table.js";
import { WEIGHT_HISTORY_LISTED } from "../users/user.fragments.js";
import { WEEKS_IN_METRICS } from "./statistics.repository.js";
import { RECORDS_IN_METRICS } from "./statistics.service.js";
import {
  exerciseExecutionInput,
  exerciseInExecutionInput,
  progressInterval,
  setInput,
  trainingExecutionInput,
  trainingExecutionPaging,
  userTrainingExecutionFilter,
} from "./execution.inputs.js";
import type { LiteralsWidened, MergedShapes, NestedShape } from "../../graphql/answer-shapes.js";
import {
  exerciseExecutionSchema,
  exerciseProgressPointSchema,
  exerciseProgressSchema,
  exerciseStatisticsSchema,
  newRecordSchema,
  personalRecordSchema,
  recordKind,
  recordValueSchema,
  setSchema,
  trainingExecutionSchema,
  trainingExerciseExecutionSchema,
  trainingProgressPointSchema,
  trainingStatisticsSchema,
  userMetricsSchema,
  weeklyProgressSchema,
  weightEntrySchema,
  type ExerciseExecutionDto,
  type ExerciseProgressDto,
  type PersonalRecordDto,
  type SetDto,
  type TrainingExecutionDto,
  type TrainingExecutionSummaryDto,
  type TrainingStatisticsDto,
  type NewRecordDto,
  type UserMetricsDto,
} from "./execution.dto.js";

/** The points a progress lists at most: a year of days. */
const PROGRESS_POINTS_CAP = 366;

export const ProgressIntervalEnum = graphqlEnum(progressInterval);
export const RecordKindEnum = graphqlEnum(recordKind);

const newRecord = describedBy(newRecordSchema);

@ObjectType("NewRecord", { ...newRecord.type, simpleResolvers: true })
export class NewRecord implements NewRecordDto {
  @Field(() => Int, newRecord("exerciseId")) exerciseId!: number;
  @Field(() => RecordKindEnum, newRecord("kind")) kind!: NewRecordDto["kind"];
  @Field(() => Float, newRecord("value")) value!: number;
  @Field(() => String, newRecord("unit")) unit!: NewRecordDto["unit"];
  @Field(() => Float, newRecord("previousValue", { nullable: true })) previousValue!: number | null;
}

const set = describedBy(setSchema);

@ObjectType("ExecutionSet", { ...set.type, simpleResolvers: true })
export class ExecutionSet implements SetDto {
  @Field(() => Int, set("repetitions")) repetitions!: number;
  @Field(() => Float, set("weight", { nullable: true })) weight!: number | null;
  @Field(() => Boolean, set("completed")) completed!: boolean;
}

const trainingExercise = describedBy(trainingExerciseExecutionSchema);

@ObjectType("TrainingExerciseExecution", { ...trainingExercise.type, simpleResolvers: true })
export class TrainingExerciseExecution implements NestedShape<TrainingExecutionDto, "exerciseExecutions"> {
  @Field(() => Int, trainingExercise("id")) id!: number;
  @Field(() => Int, trainingExercise("exerciseId", { nullable: true })) exerciseId!: number | null;
  @Field(() => String, trainingExercise("exerciseName")) exerciseName!: string;
  @Field(() => Boolean, trainingExercise("personalRecord")) personalRecord!: boolean;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExecutionSet], trainingExercise("sets"))
  sets!: ExecutionSet[];
}

const trainingExecution = describedBy(trainingExecutionSchema);

@ObjectType("TrainingExecution", {
  description: `${trainingExecution.type.description}. Listings leave exerciseExecutions and userName null`,
  simpleResolvers: true,
})
export class TrainingExecution implements MergedShapes<TrainingExecutionDto, TrainingExecutionSummaryDto> {
  @Field(() => Int, trainingExecution("id")) id!: number;
  @Field(() => Int, trainingExecution("trainingId", { nullable: true })) trainingId!: number | null;
  @Field(() => String, trainingExecution("trainingName", { nullable: true })) trainingName?: string;
  @Field(() => Int, trainingExecution("userId")) userId!: number;
  @Field(() => String, trainingExecution("userName", { nullable: true })) userName?: string;
  @Field(() => DateTime, trainingExecution("startTime")) startTime!: Date;
  @Field(() => DateTime, trainingExecution("endTime")) endTime!: Date;
  @Field(() => Int, trainingExecution("duration")) duration!: number;
  @Field(() => Boolean, trainingExecution("completed")) completed!: boolean;
  @Field(() => String, trainingExecution("notes", { nullable: true })) notes!: string | null;
  @Field(() => String, trainingExecution("clientId", { nullable: true })) clientId!: string | null;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [TrainingExerciseExecution], trainingExecution("exerciseExecutions", { nullable: true }))
  exerciseExecutions?: TrainingExerciseExecution[];
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [NewRecord], trainingExecution("newRecords", { nullable: true }))
  newRecords?: NewRecord[];
}

const exerciseExecution = describedBy(exerciseExecutionSchema);

@ObjectType("ExerciseExecution", { ...exerciseExecution.type, simpleResolvers: true })
export class ExerciseExecution implements ExerciseExecutionDto {
  @Field(() => Int, exerciseExecution("id")) id!: number;
  @Field(() => Int, exerciseExecution("exerciseId", { nullable: true })) exerciseId!: number | null;
  @Field(() => String, exerciseExecution("exerciseName", { nullable: true })) exerciseName?: string;
  @Field(() => Int, exerciseExecution("userId")) userId!: number;
  @Field(() => Int, exerciseExecution("trainingId", { nullable: true })) trainingId!: number | null;
  @Field(() => String, exerciseExecution("trainingName", { nullable: true })) trainingName?: string | null;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExecutionSet], exerciseExecution("sets"))
  sets!: ExecutionSet[];
  @Field(() => String, exerciseExecution("notes", { nullable: true })) notes!: string | null;
  @Field(() => DateTime, exerciseExecution("executedAt")) executedAt!: Date;
  @Field(() => Int, exerciseExecution("duration", { nullable: true })) duration!: number | null;
  @Field(() => Boolean, exerciseExecution("personalRecord")) personalRecord!: boolean;
  @Field(() => String, exerciseExecution("clientId", { nullable: true })) clientId!: string | null;
  @ListBound({ cap: RECORD_KINDS.length })
  @Field(() => [NewRecord], exerciseExecution("newRecords", { nullable: true }))
  newRecords?: NewRecord[];
}

export const TrainingExecutionPage = PageOf(TrainingExecution, "TrainingExecutionPage");
export const TrainingExecutionOrderBy = orderByEnum("TrainingExecutionOrderBy", trainingExecutionPaging, "training executions");
export const ExerciseExecutionPage = PageOf(ExerciseExecution, "ExerciseExecutionPage");

const exerciseStatistics = describedBy(exerciseStatisticsSchema);

@ObjectType("ExerciseStatistics", { ...exerciseStatistics.type, simpleResolvers: true })
export class ExerciseStatistics implements NestedShape<TrainingStatisticsDto, "exerciseStatistics"> {
  @Field(() => Int, exerciseStatistics("exerciseId", { nullable: true })) exerciseId!: number | null;
  @Field(() => String, exerciseStatistics("exerciseName")) exerciseName!: string;
  @Field(() => Int, exerciseStatistics("totalSets")) totalSets!: number;
  @Field(() => Int, exerciseStatistics("totalReps")) totalReps!: number;
  @Field(() => Float, exerciseStatistics("maxWeight", { nullable: true })) maxWeight!: number | null;
  @Field(() => Float, exerciseStatistics("averageWeight", { nullable: true })) averageWeight!: number | null;
  @Field(() => Float, exerciseStatistics("totalVolume")) totalVolume!: number;
}

const trainingPoint = describedBy(trainingProgressPointSchema);

@ObjectType("TrainingProgressPoint", { ...trainingPoint.type, simpleResolvers: true })
export class TrainingProgressPoint implements NestedShape<TrainingStatisticsDto, "progressData"> {
  @Field(() => LocalDate, trainingPoint("date")) date!: string;
  @Field(() => Float, trainingPoint("totalVolume")) totalVolume!: number;
  @Field(() => Int, trainingPoint("duration")) duration!: number;
}

const trainingStatistics = describedBy(trainingStatisticsSchema);

@ObjectType("TrainingStatistics", { ...trainingStatistics.type, simpleResolvers: true })
export class TrainingStatistics implements TrainingStatisticsDto {
  @Field(() => Int, trainingStatistics("trainingId")) trainingId!: number;
  @Field(() => String, trainingStatistics("trainingName")) trainingName!: string;
  @Field(() => Int, trainingStatistics("totalExecutions")) totalExecutions!: number;
  @Field(() => Int, trainingStatistics("completedExecutions")) completedExecutions!: number;
  @Field(() => Float, trainingStatistics("averageDuration")) averageDuration!: number;
  @Field(() => Float, trainingStatistics("totalVolume")) totalVolume!: number;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExerciseStatistics], trainingStatistics("exerciseStatistics"))
  exerciseStatistics!: ExerciseStatistics[];
  @ListBound({ cap: PROGRESS_POINTS_CAP })
  @Field(() => [TrainingProgressPoint], trainingStatistics("progressData"))
  progressData!: TrainingProgressPoint[];
}

const exercisePoint = describedBy(exerciseProgressPointSchema);

@ObjectType("ExerciseProgressPoint", { ...exercisePoint.type, simpleResolvers: true })
export class ExerciseProgressPoint implements NestedShape<ExerciseProgressDto, "progressData"> {
  @Field(() => LocalDate, exercisePoint("date")) date!: string;
  @Field(() => Float, exercisePoint("maxWeight", { nullable: true })) maxWeight!: number | null;
  @Field(() => Float, exercisePoint("totalVolume")) totalVolume!: number;
  @Field(() => Int, exercisePoint("totalSets")) totalSets!: number;
  @Field(() => Int, exercisePoint("totalReps")) totalReps!: number;
  @Field(() => Float, exercisePoint("estimatedOneRepMax", { nullable: true })) estimatedOneRepMax!: number | null;
}

const recordValue = describedBy(recordValueSchema);

@ObjectType("RecordValue", { ...recordValue.type, simpleResolvers: true })
export class RecordValue implements LiteralsWidened<NestedShape<ExerciseProgressDto, "personalRecord">> {
  @Field(() => Float, recordValue("value")) value!: number;
  @Field(() => String, recordValue("unit")) unit!: string;
  @Field(() => DateTime, recordValue("date")) date!: Date;
  @Field(() => Float, recordValue("estimatedOneRepMax", { nullable: true })) estimatedOneRepMax!: number | null;
}

const exerciseProgress = describedBy(exerciseProgressSchema);

@ObjectType("ExerciseProgress", { ...exerciseProgress.type, simpleResolvers: true })
export class ExerciseProgress implements LiteralsWidened<ExerciseProgressDto> {
  @Field(() => Int, exerciseProgress("exerciseId")) exerciseId!: number;
  @Field(() => String, exerciseProgress("exerciseName")) exerciseName!: string;
  @ListBound({ cap: PROGRESS_POINTS_CAP })
  @Field(() => [ExerciseProgressPoint], exerciseProgress("progressData"))
  progressData!: ExerciseProgressPoint[];
  @Field(() => RecordValue, exerciseProgress("personalRecord", { nullable: true })) personalRecord!: RecordValue | null;
}

const personalRecord = describedBy(personalRecordSchema);

@ObjectType("PersonalRecord", { ...personalRecord.type, simpleResolvers: true })
export class PersonalRecord extends RecordValue implements LiteralsWidened<MergedShapes<PersonalRecordDto, NestedShape<UserMetricsDto, "personalRecords">>> {
  @Field(() => Int, { nullable: true, description: `${personalRecord("exerciseId").description}; null in a user's metrics` }) exerciseId?: number;
  @Field(() => String, personalRecord("exerciseName")) exerciseName!: string;
}

const week = describedBy(weeklyProgressSchema);

@ObjectType("WeeklyProgress", { ...week.type, simpleResolvers: true })
export class WeeklyProgress implements NestedShape<UserMetricsDto, "weeklyProgress"> {
  @Field(() => LocalDate, week("date")) date!: string;
  @Field(() => Int, week("trainingsCount")) trainingsCount!: number;
  @Field(() => Int, week("totalTime")) totalTime!: number;
}

const weight = describedBy(weightEntrySchema);

@ObjectType("WeightEntry", { ...weight.type, simpleResolvers: true })
export class WeightEntry implements NestedShape<UserMetricsDto, "weightHistory"> {
  @Field(() => DateTime, weight("date")) date!: Date;
  @Field(() => Float, weight("value")) value!: number;
}

const metrics = describedBy(userMetricsSchema);

@ObjectType("UserMetrics", { ...metrics.type, simpleResolvers: true })
export class UserMetrics implements LiteralsWidened<UserMetricsDto> {
  @Field(() => Int, metrics("userId")) userId!: number;
  @Field(() => Int, metrics("totalTrainings")) totalTrainings!: number;
  @Field(() => Int, metrics("completedTrainings")) completedTrainings!: number;
  @Field(() => Int, metrics("totalExercises")) totalExercises!: number;
  @Field(() => Int, metrics("totalTime")) totalTime!: number;
  @ListBound({ cap: WEEKS_IN_METRICS })
  @Field(() => [WeeklyProgress], metrics("weeklyProgress"))
  weeklyProgress!: WeeklyProgress[];
  @ListBound({ cap: WEIGHT_HISTORY_LISTED })
  @Field(() => [WeightEntry], metrics("weightHistory"))
  weightHistory!: WeightEntry[];
  @ListBound({ cap: RECORDS_IN_METRICS })
  @Field(() => [PersonalRecord], metrics("personalRecords"))
  personalRecords!: PersonalRecord[];
}

const setIn = describedBy(setInput);

@InputType("SetInput", setIn.type)
export class SetInput {
  @Field(() => Int, setIn("repetitions")) repetitions!: number;
  @Field(() => Float, setIn("weight", { nullable: true })) weight?: number;
  @Field(() => Boolean, setIn("completed")) completed!: boolean;
}

const exerciseIn = describedBy(exerciseInExecutionInput);

@InputType("ExerciseInExecutionInput", exerciseIn.type)
export class ExerciseInExecutionInput {
  @Field(() => Int, exerciseIn("exerciseId")) exerciseId!: number;
  @Field(() => [SetInput], exerciseIn("sets")) sets!: SetInput[];
  @Field(() => String, exerciseIn("notes", { nullable: true })) notes?: string;
}

const trainingExecutionIn = describedBy(trainingExecutionInput);

@InputType("TrainingExecutionInput", trainingExecutionIn.type)
export class TrainingExecutionInput {
  @Field(() => DateTime, trainingExecutionIn("startTime")) startTime!: Date;
  @Field(() => DateTime, trainingExecutionIn("endTime")) endTime!: Date;
  @Field(() => Boolean, trainingExecutionIn("completed")) completed!: boolean;
  @Field(() => String, trainingExecutionIn("notes", { nullable: true })) notes?: string;
  @Field(() => [ExerciseInExecutionInput], trainingExecutionIn("exerciseExecutions")) exerciseExecutions!: ExerciseInExecutionInput[];
  @Field(() => String, trainingExecutionIn("clientId", { nullable: true })) clientId?: string;
}

const exerciseExecutionIn = describedBy(exerciseExecutionInput);

@InputType("ExerciseExecutionInput", exerciseExecutionIn.type)
export class ExerciseExecutionInput {
  @Field(() => Int, exerciseExecutionIn("trainingId")) trainingId!: number;
  @Field(() => [SetInput], exerciseExecutionIn("sets")) sets!: SetInput[];
  @Field(() => String, exerciseExecutionIn("notes", { nullable: true })) notes?: string;
  @Field(() => Int, exerciseExecutionIn("duration", { nullable: true })) duration?: number;
  @Field(() => String, exerciseExecutionIn("clientId", { nullable: true })) clientId?: string;
}

const executionFilter = describedBy(userTrainingExecutionFilter);

@InputType("ExecutionFilter", executionFilter.type)
export class ExecutionFilter {
  @Field(() => Int, executionFilter("trainingId", { nullable: true })) trainingId?: number;
  @Field(() => Boolean, executionFilter("completed", { nullable: true })) completed?: boolean;
  @Field(() => LocalDate, executionFilter("startDate", { nullable: true })) startDate?: string;
  @Field(() => LocalDate, executionFilter("endDate", { nullable: true })) endDate?: string;
}
