import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { ListBound, PARTS_ESTIMATE } from "../../graphql/list-bounds.js";
import { PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { RECORD_KINDS } from "../../tables/records.table.js";
import { WEIGHT_HISTORY_LISTED } from "../users/user.fragments.js";
import { WEEKS_IN_METRICS } from "./statistics.repository.js";
import { RECORDS_IN_METRICS } from "./statistics.service.js";
import { PROGRESS_INTERVALS } from "./execution.inputs.js";
import type { LiteralsWidened, MergedShapes, NestedShape } from "../../graphql/answer-shapes.js";
import type {
  ExerciseExecutionDto,
  ExerciseProgressDto,
  PersonalRecordDto,
  SetDto,
  TrainingExecutionDto,
  TrainingExecutionSummaryDto,
  TrainingStatisticsDto,
  NewRecordDto,
  UserMetricsDto,
} from "./execution.dto.js";

/** The points a progress lists at most: a year of days. */
const PROGRESS_POINTS_CAP = 366;

export const ProgressIntervalEnum = graphqlEnum(PROGRESS_INTERVALS, "ProgressInterval");
export const RecordKindEnum = graphqlEnum(RECORD_KINDS, "RecordKind", "What a record measures (contract §12.1)");

@ObjectType("NewRecord", { description: "A record a logged execution just set", simpleResolvers: true })
export class NewRecord implements NewRecordDto {
  @Field(() => Int) exerciseId!: number;
  @Field(() => RecordKindEnum) kind!: NewRecordDto["kind"];
  @Field(() => Float) value!: number;
  @Field(() => String) unit!: NewRecordDto["unit"];
  @Field(() => Float, { nullable: true }) previousValue!: number | null;
}

@ObjectType("ExecutionSet", { simpleResolvers: true })
export class ExecutionSet implements SetDto {
  @Field(() => Int) repetitions!: number;
  @Field(() => Float, { nullable: true, description: "kg" }) weight!: number | null;
  @Field(() => Boolean) completed!: boolean;
}

@ObjectType("TrainingExerciseExecution", { simpleResolvers: true })
export class TrainingExerciseExecution implements NestedShape<TrainingExecutionDto, "exerciseExecutions"> {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String) exerciseName!: string;
  @Field(() => Boolean) personalRecord!: boolean;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExecutionSet])
  sets!: ExecutionSet[];
}

@ObjectType("TrainingExecution", { description: "Listings leave exerciseExecutions and userName null", simpleResolvers: true })
export class TrainingExecution implements MergedShapes<TrainingExecutionDto, TrainingExecutionSummaryDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) trainingId!: number | null;
  @Field(() => String, { nullable: true }) trainingName?: string;
  @Field(() => Int) userId!: number;
  @Field(() => String, { nullable: true }) userName?: string;
  @Field(() => DateTime) startTime!: Date;
  @Field(() => DateTime) endTime!: Date;
  @Field(() => Int, { description: "seconds" }) duration!: number;
  @Field(() => Boolean) completed!: boolean;
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => String, { nullable: true, description: "The client's id of the log (a UUID), null when it gave none" }) clientId!: string | null;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [TrainingExerciseExecution], { nullable: true })
  exerciseExecutions?: TrainingExerciseExecution[];
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [NewRecord], { nullable: true, description: "The records the log set; null outside logTrainingExecution" })
  newRecords?: NewRecord[];
}

@ObjectType("ExerciseExecution", { simpleResolvers: true })
export class ExerciseExecution implements ExerciseExecutionDto {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String, { nullable: true }) exerciseName?: string;
  @Field(() => Int) userId!: number;
  @Field(() => Int, { nullable: true }) trainingId!: number | null;
  @Field(() => String, { nullable: true }) trainingName?: string | null;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExecutionSet])
  sets!: ExecutionSet[];
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => DateTime) executedAt!: Date;
  @Field(() => Int, { nullable: true, description: "seconds" }) duration!: number | null;
  @Field(() => Boolean) personalRecord!: boolean;
  @Field(() => String, { nullable: true, description: "The client's id of a log on its own (a UUID), null when it gave none" }) clientId!: string | null;
  @ListBound({ cap: RECORD_KINDS.length })
  @Field(() => [NewRecord], { nullable: true, description: "The records the log set; null outside logExerciseExecution" })
  newRecords?: NewRecord[];
}

export const TrainingExecutionPage = PageOf(TrainingExecution, "TrainingExecutionPage");
export const ExerciseExecutionPage = PageOf(ExerciseExecution, "ExerciseExecutionPage");

@ObjectType("ExerciseStatistics", { simpleResolvers: true })
export class ExerciseStatistics implements NestedShape<TrainingStatisticsDto, "exerciseStatistics"> {
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String) exerciseName!: string;
  @Field(() => Int) totalSets!: number;
  @Field(() => Int) totalReps!: number;
  @Field(() => Float, { nullable: true }) maxWeight!: number | null;
  @Field(() => Float, { nullable: true }) averageWeight!: number | null;
  @Field(() => Float) totalVolume!: number;
}

@ObjectType("TrainingProgressPoint", { simpleResolvers: true })
export class TrainingProgressPoint implements NestedShape<TrainingStatisticsDto, "progressData"> {
  @Field(() => LocalDate) date!: string;
  @Field(() => Float) totalVolume!: number;
  @Field(() => Int) duration!: number;
}

@ObjectType("TrainingStatistics", { simpleResolvers: true })
export class TrainingStatistics implements TrainingStatisticsDto {
  @Field(() => Int) trainingId!: number;
  @Field(() => String) trainingName!: string;
  @Field(() => Int) totalExecutions!: number;
  @Field(() => Int) completedExecutions!: number;
  @Field(() => Float) averageDuration!: number;
  @Field(() => Float) totalVolume!: number;
  @ListBound({ parts: PARTS_ESTIMATE })
  @Field(() => [ExerciseStatistics])
  exerciseStatistics!: ExerciseStatistics[];
  @ListBound({ cap: PROGRESS_POINTS_CAP })
  @Field(() => [TrainingProgressPoint])
  progressData!: TrainingProgressPoint[];
}

@ObjectType("ExerciseProgressPoint", { simpleResolvers: true })
export class ExerciseProgressPoint implements NestedShape<ExerciseProgressDto, "progressData"> {
  @Field(() => LocalDate) date!: string;
  @Field(() => Float, { nullable: true }) maxWeight!: number | null;
  @Field(() => Float) totalVolume!: number;
  @Field(() => Int) totalSets!: number;
  @Field(() => Int) totalReps!: number;
  @Field(() => Float, { nullable: true }) estimatedOneRepMax!: number | null;
}

@ObjectType("RecordValue", { simpleResolvers: true })
export class RecordValue implements LiteralsWidened<NestedShape<ExerciseProgressDto, "personalRecord">> {
  @Field(() => Float) value!: number;
  @Field(() => String) unit!: string;
  @Field(() => DateTime) date!: Date;
  @Field(() => Float, { nullable: true }) estimatedOneRepMax!: number | null;
}

@ObjectType("ExerciseProgress", { simpleResolvers: true })
export class ExerciseProgress implements LiteralsWidened<ExerciseProgressDto> {
  @Field(() => Int) exerciseId!: number;
  @Field(() => String) exerciseName!: string;
  @ListBound({ cap: PROGRESS_POINTS_CAP })
  @Field(() => [ExerciseProgressPoint])
  progressData!: ExerciseProgressPoint[];
  @Field(() => RecordValue, { nullable: true }) personalRecord!: RecordValue | null;
}

@ObjectType("PersonalRecord", { simpleResolvers: true })
export class PersonalRecord extends RecordValue implements LiteralsWidened<MergedShapes<PersonalRecordDto, NestedShape<UserMetricsDto, "personalRecords">>> {
  @Field(() => Int, { nullable: true }) exerciseId?: number;
  @Field(() => String) exerciseName!: string;
}

@ObjectType("WeeklyProgress", { simpleResolvers: true })
export class WeeklyProgress implements NestedShape<UserMetricsDto, "weeklyProgress"> {
  @Field(() => LocalDate, { description: "the Monday of the ISO week" }) date!: string;
  @Field(() => Int) trainingsCount!: number;
  @Field(() => Int, { description: "seconds" }) totalTime!: number;
}

@ObjectType("WeightEntry", { simpleResolvers: true })
export class WeightEntry implements NestedShape<UserMetricsDto, "weightHistory"> {
  @Field(() => DateTime) date!: Date;
  @Field(() => Float) value!: number;
}

@ObjectType("UserMetrics", { simpleResolvers: true })
export class UserMetrics implements LiteralsWidened<UserMetricsDto> {
  @Field(() => Int) userId!: number;
  @Field(() => Int) totalTrainings!: number;
  @Field(() => Int) completedTrainings!: number;
  @Field(() => Int) totalExercises!: number;
  @Field(() => Int, { description: "seconds" }) totalTime!: number;
  @ListBound({ cap: WEEKS_IN_METRICS })
  @Field(() => [WeeklyProgress])
  weeklyProgress!: WeeklyProgress[];
  @ListBound({ cap: WEIGHT_HISTORY_LISTED })
  @Field(() => [WeightEntry])
  weightHistory!: WeightEntry[];
  @ListBound({ cap: RECORDS_IN_METRICS })
  @Field(() => [PersonalRecord])
  personalRecords!: PersonalRecord[];
}

@InputType("SetInput")
export class SetInput {
  @Field(() => Int) repetitions!: number;
  @Field(() => Float, { nullable: true }) weight?: number;
  @Field(() => Boolean) completed!: boolean;
}

@InputType("ExerciseInExecutionInput")
export class ExerciseInExecutionInput {
  @Field(() => Int) exerciseId!: number;
  @Field(() => [SetInput]) sets!: SetInput[];
  @Field(() => String, { nullable: true }) notes?: string;
}

@InputType("TrainingExecutionInput")
export class TrainingExecutionInput {
  @Field(() => DateTime) startTime!: Date;
  @Field(() => DateTime) endTime!: Date;
  @Field(() => Boolean) completed!: boolean;
  @Field(() => String, { nullable: true }) notes?: string;
  @Field(() => [ExerciseInExecutionInput]) exerciseExecutions!: ExerciseInExecutionInput[];
  @Field(() => String, { nullable: true, description: "A UUID the client gives the log: sent again, the execution logged first answers" }) clientId?: string;
}

@InputType("ExerciseExecutionInput")
export class ExerciseExecutionInput {
  @Field(() => Int) trainingId!: number;
  @Field(() => [SetInput]) sets!: SetInput[];
  @Field(() => String, { nullable: true }) notes?: string;
  @Field(() => Int, { nullable: true, description: "seconds" }) duration?: number;
  @Field(() => String, { nullable: true, description: "A UUID the client gives the log: sent again, the execution logged first answers" }) clientId?: string;
}

@InputType("ExecutionFilter")
export class ExecutionFilter {
  @Field(() => Int, { nullable: true }) trainingId?: number;
  @Field(() => Boolean, { nullable: true }) completed?: boolean;
  @Field(() => LocalDate, { nullable: true }) startDate?: string;
  @Field(() => LocalDate, { nullable: true }) endDate?: string;
}
