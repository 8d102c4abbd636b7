import { Field, Int, ObjectType } from "type-graphql";
import { graphqlEnum } from "../../graphql/enums.js";
import { DateTime, JSONObject } from "../../graphql/scalars.js";
import type { SyncEntity } from "../../tables/sync-change.table.js";
import { changeOp, syncEntity, type ChangeDto, type ChangeFeedPageDto, type ChangeOp } from "./change-feed.dto.js";

export const ChangeOpEnum = graphqlEnum(changeOp);
export const SyncEntityEnum = graphqlEnum(syncEntity);

@ObjectType("Change", { description: "One change of the caller's change feed (contract §13.3)", simpleResolvers: true })
export class Change implements ChangeDto {
  @Field(() => SyncEntityEnum, { description: "Which kind of entity changed" }) entity!: SyncEntity;
  @Field(() => Int, { description: "The entity's id (a profile's: its user's)" }) id!: number;
  @Field(() => ChangeOpEnum, { description: "Whether the entity is as `data` shows, or gone" }) op!: ChangeOp;
  @Field(() => DateTime, { description: "When the change was made (in an initial sync: when the sync started)" }) changedAt!: Date;
  @Field(() => JSONObject, {
    nullable: true,
    description: "UPSERT: the entity as its REST GET answers it (the OpenAPI document's `<Entity>Upsert` schemas type it); DELETE: null",
  })
  data!: object | null;
}

@ObjectType("ChangeFeedPage", { description: "A page of the change feed", simpleResolvers: true })
export class ChangeFeedPage implements ChangeFeedPageDto {
  @Field(() => [Change], { description: "In commit order; each change once" }) changes!: Change[];
  @Field(() => String, { description: "Opaque: pass it as `since` to read what changed after this page" }) cursor!: string;
  @Field(() => Boolean, { description: "true: ask again at once with `cursor`; false: caught up (poll later with `cursor`)" }) hasMore!: boolean;
}
