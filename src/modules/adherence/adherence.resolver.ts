import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader, listReader } from "../../graphql/arguments.js";
import { PageInput } from "../../graphql/page.js";
import { User } from "../users/user.types.js";
import { adherenceQuery, DEFAULT_ADHERENCE_WINDOW, studentAdherencePaging } from "./adherence.inputs.js";
import { Adherence, StudentAdherencePage } from "./adherence.types.js";

/** A trainer's students by adherence over GraphQL: the same service as REST's GET /personal/students/adherence. */
@Resolver()
export class AdherenceResolver {
  @Scoped("activity:read")
  @Query(() => StudentAdherencePage, { description: "The signed-in trainer's ACTIVE students with their adherence, the lowest first unless sorted otherwise" })
  studentsAdherence(
    @Arg("window", () => Int, { nullable: true, defaultValue: DEFAULT_ADHERENCE_WINDOW, description: "days: 7, 30 or 90" }) window: number | null,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.adherence.pageOfStudents(ctx.actor, listReader(studentAdherencePaging, adherenceQuery, { window }, page));
  }
}

/** `User.adherence`: for the user, its ACTIVE-linked trainer and administrators; a list of users is read in one query. */
@Resolver(() => User)
export class UserAdherenceResolver {
  @Scoped("activity:read")
  @FieldResolver(() => Adherence)
  adherence(
    @Root() user: User,
    @Arg("window", () => Int, { nullable: true, defaultValue: DEFAULT_ADHERENCE_WINDOW, description: "days: 7, 30 or 90" }) window: number | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.adherenceOfUser.load({ userId: user.id, readQuery: argumentsReader(adherenceQuery, { window }) });
  }
}
