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
import { describedBy } from "../../graphql/described.js";
import { recordsFilter } from "./records.inputs.js";

const recordsArgument = describedBy(recordsFilter);

/** The legacy personal records of contract §7 (the caller's), derived from the record kinds. */
@Resolver()
export class PersonalRecordsResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("activity:read")
  @Query(() => [PersonalRecord], { description: "The caller's personal records, one per exercise, by exercise name" })
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
  @FieldResolver(() => [ExerciseRecord], {
    description:
      "The user's current records (the best of each kind now), by exercise name, then kind; of one exercise and some kinds when asked. For the user, administrators and the user's ACTIVE-linked trainer (FORBIDDEN for anyone else)",
  })
  records(
    @Root() user: User,
    @Arg("exerciseId", () => Int, { nullable: true, description: "Only the records on this exercise; every exercise when left out" })
    exerciseId: number | null | undefined,
    @Arg("kinds", () => [RecordKindEnum], { nullable: true, description: "Only the records of these kinds; every kind when left out" })
    kinds: RecordKind[] | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.currentRecords.load({ userId: user.id, exerciseId: exerciseId ?? undefined, kinds: kinds ?? undefined });
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("activity:read")
  @FieldResolver(() => [PersonalRecord], {
    description:
      "The user's personal records, one per exercise, by exercise name: for the user, administrators and the user's ACTIVE-linked trainer (FORBIDDEN for anyone else)",
  })
  personalRecords(@Root() user: User, @Ctx() ctx: Context) {
    return ctx.services.records.listPersonalRecords(ctx.actor, user.id);
  }
}

/** `Exercise.records`: the caller's current records of the exercise, or userId's; batched over a list of exercises. */
@Resolver(() => Exercise)
export class ExerciseRecordsResolver {
  @ListBound({ cap: RECORD_KINDS.length })
  @Scoped("activity:read")
  @FieldResolver(() => [ExerciseRecord], { description: "The caller's current record of each kind on the exercise, or userId's, in the kinds' order" })
  records(
    @Root() exercise: Exercise,
    @Arg("userId", () => Int, recordsArgument("userId", { nullable: true })) userId: number | null | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.currentRecords.load({ userId: userId ?? undefined, exerciseId: exercise.id });
  }
}
