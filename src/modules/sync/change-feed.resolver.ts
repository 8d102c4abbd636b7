import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, Int, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader } from "../../graphql/arguments.js";
import { PagedBy } from "../../graphql/list-bounds.js";
import { changeFeedQuery, DEFAULT_FEED_LIMIT, MAX_FEED_LIMIT } from "./change-feed.inputs.js";
import { ChangeFeedPage } from "./change-feed.types.js";

/** The change feed over GraphQL: the same service as REST's GET /sync/changes. */
@Resolver()
export class ChangeFeedResolver {
  @Scoped("activity:read")
  @Query(() => ChangeFeedPage, {
    description: "What changed for the signed-in user since a cursor, or (without `since`) everything it sees, then a cursor",
  })
  @PagedBy({ argument: "limit", default: DEFAULT_FEED_LIMIT, max: MAX_FEED_LIMIT })
  changes(
    @Arg("since", () => String, { nullable: true, description: "the cursor of the last page read" }) since: string | null,
    @Arg("limit", () => Int, { nullable: true, description: "changes per page: 1 to 500 (100)" }) limit: number | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.changeFeed.changes(ctx.actor, argumentsReader(changeFeedQuery, { since, limit }));
  }
}
