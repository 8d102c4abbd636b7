import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { PageOf } from "../../graphql/page.js";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { PROGRESS_INTERVALS } from "./execution.inputs.js";

export const ProgressIntervalEnum = graphqlEnum(PROGRESS_INTERVALS, "ProgressInterval");

@ObjectType("ExecutionSet")
export class SetType {
  @Field(() => Int) repetitions!: number;
  @Field(() => Float, { nullable: true, description: "kg" }) weight!: number | null;
  @Field(() => Boolean) completed!: boolean;
}

@ObjectType("TrainingExerciseExecution")
export class TrainingExerciseExecutionType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String) exerciseName!: string;
  @Field(() => Boolean) personalRecord!: boolean;
  @Field(() => [SetType]) sets!: SetType[];
}

@ObjectType("TrainingExecution", { description: "Listings leave exerciseExecutions and userName null" })
export class TrainingExecutionType {
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
  @Field(() => [TrainingExerciseExecutionType], { nullable: true }) exerciseExecutions?: TrainingExerciseExecutionType[];
}

@ObjectType("ExerciseExecution")
export class ExerciseExecutionType {
  @Field(() => Int) id!: number;
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String, { nullable: true }) exerciseName?: string;
  @Field(() => Int) userId!: number;
  @Field(() => Int, { nullable: true }) trainingId!: number | null;
  @Field(() => String, { nullable: true }) trainingName?: string | null;
  @Field(() => [SetType]) sets!: SetType[];
  @Field(() => String, { nullable: true }) notes!: string | null;
  @Field(() => DateTime) executedAt!: Date;
  @Field(() => Int, { nullable: true, description: "seconds" }) duration!: number | null;
  @Field(() => Boolean) personalRecord!: boolean;
}

export const TrainingExecutionPage = PageOf(TrainingExecutionType, "TrainingExecutionPage");
export const ExerciseExecutionPage = PageOf(ExerciseExecutionType, "ExerciseExecutionPage");

@ObjectType("ExerciseStatistics")
export class ExerciseStatisticsType {
  @Field(() => Int, { nullable: true }) exerciseId!: number | null;
  @Field(() => String) exerciseName!: string;
  @Field(() => Int) totalSets!: number;
  @Field(() => Int) totalReps!: number;
  @Field(() => Float, { nullable: true }) maxWeight!: number | null;
  @Field(() => Float, { nullable: true }) averageWeight!: number | null;
  @Field(() => Float) totalVolume!: number;
}

@ObjectType("TrainingProgressPoint")
export class TrainingProgressPointType {
  @Field(() => LocalDate) date!: string;
  @Field(() => Float) totalVolume!: number;
  @Field(() => Int) duration!: number;
}

@ObjectType("TrainingStatistics")
export class TrainingStatisticsType {
  @Field(() => Int) trainingId!: number;
  @Field(() => String) trainingName!: string;
  @Field(() => Int) totalExecutions!: number;
  @Field(() => Int) completedExecutions!: number;
  @Field(() => Float) averageDuration!: number;
  @Field(() => Float) totalVolume!: number;
  @Field(() => [ExerciseStatisticsType]) exerciseStatistics!: ExerciseStatisticsType[];
  @Field(() => [TrainingProgressPointType]) progressData!: TrainingProgressPointType[];
}

@ObjectType("ExerciseProgressPoint")
export class ExerciseProgressPointType {
  @Field(() => LocalDate) date!: string;
  @Field(() => Float, { nullable: true }) maxWeight!: number | null;
  @Field(() => Float) totalVolume!: number;
  @Field(() => Int) totalSets!: number;
  @Field(() => Int) totalReps!: number;
  @Field(() => Float, { nullable: true }) estimatedOneRepMax!: number | null;
}

@ObjectType("RecordValue")
export class RecordValueType {
  @Field(() => Float) value!: number;
  @Field(() => String) unit!: string;
  @Field(() => DateTime) date!: Date;
  @Field(() => Float, { nullable: true }) estimatedOneRepMax!: number | null;
}

@ObjectType("ExerciseProgress")
export class ExerciseProgressType {
  @Field(() => Int) exerciseId!: number;
  @Field(() => String) exerciseName!: string;
  @Field(() => [ExerciseProgressPointType]) progressData!: ExerciseProgressPointType[];
  @Field(() => RecordValueType, { nullable: true }) personalRecord!: RecordValueType | null;
}

@ObjectType("PersonalRecord")
export class PersonalRecordType extends RecordValueType {
  @Field(() => Int, { nullable: true }) exerciseId?: number;
  @Field(() => String) exerciseName!: string;
}

@ObjectType("WeeklyProgress")
export class WeeklyProgressType {
  @Field(() => LocalDate, { description: "the Monday of the ISO week" }) date!: string;
  @Field(() => Int) trainingsCount!: number;
  @Field(() => Int, { description: "seconds" }) totalTime!: number;
}

@ObjectType("WeightEntry")
export class WeightEntryType {
  @Field(() => DateTime) date!: Date;
  @Field(() => Float) value!: number;
}

@ObjectType("UserMetrics")
export class UserMetricsType {
  @Field(() => Int) userId!: number;
  @Field(() => Int) totalTrainings!: number;
  @Field(() => Int) completedTrainings!: number;
  @Field(() => Int) totalExercises!: number;
  @Field(() => Int, { description: "seconds" }) totalTime!: number;
  @Field(() => [WeeklyProgressType]) weeklyProgress!: WeeklyProgressType[];
  @Field(() => [WeightEntryType]) weightHistory!: WeightEntryType[];
  @Field(() => [PersonalRecordType]) personalRecords!: PersonalRecordType[];
}

@InputType("SetInput")
export class SetInputType {
  @Field(() => Int) repetitions!: number;
  @Field(() => Float, { nullable: true }) weight?: number;
  @Field(() => Boolean) completed!: boolean;
}

@InputType("ExerciseInExecutionInput")
export class ExerciseInExecutionInputType {
  @Field(() => Int) exerciseId!: number;
  @Field(() => [SetInputType]) sets!: SetInputType[];
  @Field(() => String, { nullable: true }) notes?: string;
}

@InputType("TrainingExecutionInput")
export class TrainingExecutionInputType {
  @Field(() => DateTime) startTime!: Date;
  @Field(() => DateTime) endTime!: Date;
  @Field(() => Boolean) completed!: boolean;
  @Field(() => String, { nullable: true }) notes?: string;
  @Field(() => [ExerciseInExecutionInputType]) exerciseExecutions!: ExerciseInExecutionInputType[];
}

@InputType("ExerciseExecutionInput")
export class ExerciseExecutionInputType {
  @Field(() => Int) trainingId!: number;
  @Field(() => [SetInputType]) sets!: SetInputType[];
  @Field(() => String, { nullable: true }) notes?: string;
  @Field(() => Int, { nullable: true, description: "seconds" }) duration?: number;
}

@InputType("ExecutionFilter")
export class ExecutionFilter {
  @Field(() => Int, { nullable: true }) trainingId?: number;
  @Field(() => Boolean, { nullable: true }) completed?: boolean;
  @Field(() => LocalDate, { nullable: true }) startDate?: string;
  @Field(() => LocalDate, { nullable: true }) endDate?: string;
}
