import { Field, Int, ObjectType } from "type-graphql";
import { ExerciseRecord } from "../records/records.types.js";

@ObjectType("AchievedRecord", { description: "A personal record just set, and whose it is" })
export class AchievedRecord extends ExerciseRecord {
  @Field(() => Int) userId!: number;
}
