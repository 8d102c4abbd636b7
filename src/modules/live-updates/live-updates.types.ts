import { Field, Int, ObjectType } from "type-graphql";
import { ExerciseRecord } from "../records/records.types.js";

@ObjectType("AchievedRecord", { description: "A personal record just set, and whose it is", simpleResolvers: true })
export class AchievedRecord extends ExerciseRecord {
  @Field(() => Int, { description: "The id of the user who set it: the caller, or a student whose activity the caller may read" }) userId!: number;
}
