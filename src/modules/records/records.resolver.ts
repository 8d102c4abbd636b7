import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { Exercise } from "../exercises/exercise.types.js";
import { User } from "../users/user.types.js";
import { PersonalRecord } from "../executions/execution.types.js";
import { RECORD_KINDS, type RecordKind } from "../../tables/records.table.js";
import { ExerciseRecord } from "./records.types.js";
import { RecordKindEnum } from "../executions/execution.types.js";

/** The legacy personal records of contract §7 (the caller's), derived from the record kinds. */
@Resolver()
export class PersonalRecordsResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("activity:read")
  @Query(() => [PersonalRecord], { description: "The caller's records, one per exercise" })
  personalRecords(@Ctx() ctx: Context) {
    return ctx.services.records.listPersonalRecords(ctx.actor);
  }
}

/**
 * `User.records`: the user's current records (the user, their trainer, administrators), batched over a list of users;
 * `User.personalRecords`: the legacy personal records of contract §7.
 */
@Resolver(() => User)
export class UserRecordsResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("activity:read")
  @FieldResolver(() => [ExerciseRecord], { description: "Current records by exercise name, then kind; of one exercise and some kinds when asked" })
  records(
    @Root() user: User,
    @Arg("exerciseId", () => Int, { nullable: true }) exerciseId: number | null | undefined,
    @Arg("kinds", () => [RecordKindEnum], { nullable: true }) kinds: RecordKind[] | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.currentRecords.load({ userId: user.id, exerciseId: exerciseId ?? undefined, kinds: kinds ?? undefined });
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("activity:read")
  @FieldResolver(() => [PersonalRecord])
  personalRecords(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.records.listPersonalRecords(ctx.actor, user.id);
  }
}

/** `Exercise.records`: the caller's current records of the exercise, or userId's; batched over a list of exercises. */
@Resolver(() => Exercise)
export class ExerciseRecordsResolver {
  @ListBound({ cap: RECORD_KINDS.length })
  @Scoped("activity:read")
  @FieldResolver(() => [ExerciseRecord], { description: "The caller's current record of each kind, or userId's" })
  records(@Root() exercise: Exercise, @Arg("userId", () => Int, { nullable: true }) userId: number | null | undefined, @Ctx() ctx: Context) {
    return ctx.loaders.currentRecords.load({ userId: userId ?? undefined, exerciseId: exercise.id });
  }
}
