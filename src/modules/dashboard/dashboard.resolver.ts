import { Scoped } from "../../graphql/scopes.js";
import { Ctx, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { TrainerDashboard } from "./dashboard.types.js";

/** The trainer's dashboard over GraphQL: the same service as REST's GET /personal/dashboard. */
@Resolver()
export class DashboardResolver {
  @Scoped("activity:read")
  @Query(() => TrainerDashboard, { description: "The signed-in trainer's dashboard" })
  trainerDashboard(@Ctx() ctx: Context) {
    return ctx.services.dashboard.trainerDashboard(ctx.actor);
  }
}
