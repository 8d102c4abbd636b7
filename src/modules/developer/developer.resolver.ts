import { Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { CostFree } from "../../graphql/query-limits.js";
import { Scoped } from "../../graphql/scopes.js";
import { RateLimit } from "./developer.types.js";

/** What a tool reads of its own standing over GraphQL. */
@Resolver()
export class DeveloperResolver {
  @Scoped("none")
  @CostFree()
  @Query(() => RateLimit, {
    nullable: true,
    description: "The caller's budget as this operation left it; null for a login token, which is not budgeted. Reading it costs nothing",
  })
  rateLimit(@Ctx() ctx: Context): RateLimit | null {
    const cost = ctx.cost;
    if (!cost) return null;
    return { limit: cost.maximumAvailable, cost: cost.requestedQueryCost, remaining: Math.floor(cost.currentlyAvailable), resetAt: cost.resetAt };
  }
}
