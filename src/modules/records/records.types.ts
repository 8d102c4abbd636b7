import { Field, Float, Int, ObjectType } from "type-graphql";
import { DateTime } from "../../graphql/scalars.js";
import { RecordKindEnum } from "../executions/execution.types.js";
import type { RecordDto } from "./records.dto.js";

@ObjectType("ExerciseRecord", { description: "A record a user set on an exercise: the set that made it and the best it beat", simpleResolvers: true })
export class ExerciseRecord implements RecordDto {
  @Field(() => Int) exerciseId!: number;
  @Field(() => String) exerciseName!: string;
  @Field(() => RecordKindEnum) kind!: RecordDto["kind"];
  @Field(() => Float, { description: "kg, or repetitions for MAX_REPS" }) value!: number;
  @Field(() => String, { description: "kg or reps" }) unit!: RecordDto["unit"];
  @Field(() => Int, { nullable: true, description: "null for BEST_SESSION_VOLUME" }) reps!: number | null;
  @Field(() => Float, { nullable: true, description: "kg; null for BEST_SESSION_VOLUME and bodyweight sets" }) weight!: number | null;
  @Field(() => DateTime) achievedAt!: Date;
  @Field(() => Int) exerciseExecutionId!: number;
  @Field(() => Int, { nullable: true }) trainingExecutionId!: number | null;
  @Field(() => Int, { nullable: true, description: "0-based; null for BEST_SESSION_VOLUME" }) setIndex!: number | null;
  @Field(() => Float, { nullable: true, description: "null for a first record" }) previousValue!: number | null;
}
