import { Field, Int, ObjectType } from "type-graphql";
import { DateTime } from "../../graphql/scalars.js";

@ObjectType("RateLimit", { description: "The caller's GraphQL budget (contract §18.4): points in a leaky bucket", simpleResolvers: true })
export class RateLimit {
  @Field(() => Int, { description: "the bucket's size in points" }) limit!: number;
  @Field(() => Int, { description: "what this operation was charged, before what it did not spend was given back" }) cost!: number;
  @Field(() => Int, { description: "points left after this operation's charge" }) remaining!: number;
  @Field(() => DateTime, { description: "when the bucket is full again at the restore rate" }) resetAt!: Date;
}
