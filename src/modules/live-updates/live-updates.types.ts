import { Field, Int, ObjectType } from "type-graphql";
import { ExerciseRecord } from "../records/records.types.js";

@ObjectType("AchievedRecord", { description: "A personal record just set, and whose it is", simpleResolvers: true })
export class AchievedRecord extends ExerciseRecord {
  @Field(() => Int) userId!: number;
}
