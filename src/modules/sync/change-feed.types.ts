import { Field, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { DateTime, JSONObject } from "../../graphql/scalars.js";
import { CHANGE_OPS, type ChangeDto, type ChangeFeedPageDto, type ChangeOp } from "./change-feed.dto.js";
import { SYNC_ENTITIES, type SyncEntity } from "../../tables/sync-change.table.js";

export const ChangeOpEnum = graphqlEnum(CHANGE_OPS, "ChangeOp", "UPSERT: the entity as it is now; DELETE: gone, or no longer visible to the caller");

@ObjectType("Change", { description: "One change of the caller's change feed (contract §13.3)", simpleResolvers: true })
export class Change implements ChangeDto {
  @Field(() => String, { description: SYNC_ENTITIES.join(" | ") }) entity!: SyncEntity;
  @Field(() => Int, { description: "the entity's id (the profile: the user's)" }) id!: number;
  @Field(() => ChangeOpEnum) op!: ChangeOp;
  @Field(() => DateTime, { description: "when the change was made (for an initial sync: when it started)" }) changedAt!: Date;
  @Field(() => JSONObject, { nullable: true, description: "UPSERT: the entity's REST DTO, as the REST GET of that entity answers it; DELETE: null" })
  data!: object | null;
}

@ObjectType("ChangeFeedPage", { description: "A page of the change feed", simpleResolvers: true })
export class ChangeFeedPage implements ChangeFeedPageDto {
  @Field(() => [Change], { description: "in commit order; each change once" }) changes!: Change[];
  @Field(() => String, { description: "opaque: pass it as `since` to read what changed after this page" }) cursor!: string;
  @Field(() => Boolean, { description: "true: ask again at once with `cursor`; false: caught up (poll later with `cursor`)" }) hasMore!: boolean;
}
