import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, FieldResolver, Int, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader, listReader } from "../../graphql/arguments.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { describedBy } from "../../graphql/described.js";
import { User } from "../users/user.types.js";
import { adherenceQuery, DEFAULT_ADHERENCE_WINDOW, studentAdherencePaging } from "./adherence.inputs.js";
import { Adherence, StudentAdherenceOrderBy, StudentAdherencePage } from "./adherence.types.js";

const adherenceArgument = describedBy(adherenceQuery);

/** A trainer's students by adherence over GraphQL: the same service as REST's GET /personal/students/adherence. */
@Resolver()
export class AdherenceResolver {
  @Scoped("activity:read")
  @Query(() => StudentAdherencePage, {
    description: "The signed-in trainer's ACTIVE students with their adherence, the lowest first unless sorted otherwise (trainers only: FORBIDDEN for others)",
  })
  studentsAdherence(
    @Arg("window", () => Int, { ...adherenceArgument("window", { nullable: true }), defaultValue: DEFAULT_ADHERENCE_WINDOW }) window: number | null,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [StudentAdherenceOrderBy], {
      nullable: true,
      description: "The order: the lowest adherence first, unless given; whatever the order, a student without the value sorted on comes last",
    })
    orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.adherence.pageOfStudents(ctx.actor, listReader(studentAdherencePaging, adherenceQuery, { window }, page, orderBy));
  }
}

/** `User.adherence`: for the user, its ACTIVE-linked trainer and administrators; a list of users is read in one query. */
@Resolver(() => User)
export class UserAdherenceResolver {
  @Scoped("activity:read")
  @FieldResolver(() => Adherence, {
    description:
      "The user's adherence to its weekly plans over a window, with its weeks and assignments: for the user, administrators and the user's ACTIVE-linked trainer (FORBIDDEN for anyone else)",
  })
  adherence(
    @Root() user: User,
    @Arg("window", () => Int, { ...adherenceArgument("window", { nullable: true }), defaultValue: DEFAULT_ADHERENCE_WINDOW }) window: number | null,
    @Ctx() ctx: Context,
  ) {
    return ctx.loaders.adherenceOfUser.load({ userId: user.id, readQuery: argumentsReader(adherenceQuery, { window }) });
  }
}
