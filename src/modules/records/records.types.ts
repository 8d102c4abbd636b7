import { Field, Float, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { DateTime } from "../../graphql/scalars.js";
import type { NewRecordDto, RecordDto } from "./records.dto.js";
import { RECORD_KINDS } from "../../tables/records.table.js";

export const RecordKindEnum = graphqlEnum(RECORD_KINDS, "RecordKind", "What a record measures (contract §12.1)");

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

@ObjectType("NewRecord", { description: "A record a logged execution just set", simpleResolvers: true })
export class NewRecord implements NewRecordDto {
  @Field(() => Int) exerciseId!: number;
  @Field(() => RecordKindEnum) kind!: NewRecordDto["kind"];
  @Field(() => Float) value!: number;
  @Field(() => String) unit!: NewRecordDto["unit"];
  @Field(() => Float, { nullable: true }) previousValue!: number | null;
}
