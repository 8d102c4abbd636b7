import { Field, Float, Int, ObjectType } from "type-graphql";
import { describedBy } from "../../graphql/described.js";
import { DateTime } from "../../graphql/scalars.js";
import { RecordKindEnum } from "../executions/execution.types.js";
import { recordSchema, type RecordDto } from "./records.dto.js";

const record = describedBy(recordSchema);

@ObjectType("ExerciseRecord", { ...record.type, simpleResolvers: true })
export class ExerciseRecord implements RecordDto {
  @Field(() => Int, record("exerciseId")) exerciseId!: number;
  @Field(() => String, record("exerciseName")) exerciseName!: string;
  @Field(() => RecordKindEnum, record("kind")) kind!: RecordDto["kind"];
  @Field(() => Float, record("value")) value!: number;
  @Field(() => String, record("unit")) unit!: RecordDto["unit"];
  @Field(() => Int, record("reps", { nullable: true })) reps!: number | null;
  @Field(() => Float, record("weight", { nullable: true })) weight!: number | null;
  @Field(() => DateTime, record("achievedAt")) achievedAt!: Date;
  @Field(() => Int, record("exerciseExecutionId")) exerciseExecutionId!: number;
  @Field(() => Int, record("trainingExecutionId", { nullable: true })) trainingExecutionId!: number | null;
  @Field(() => Int, record("setIndex", { nullable: true })) setIndex!: number | null;
  @Field(() => Float, record("previousValue", { nullable: true })) previousValue!: number | null;
}
