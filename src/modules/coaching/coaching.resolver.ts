import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { inputReader, listReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput } from "../../graphql/page.js";
import { UserSummary, User } from "../users/user.types.js";
import { inviteFilter, inviteInput, invitePaging, linkFilter, linkPaging } from "./coaching.inputs.js";
import { linkInclude } from "./coaching.include.js";
import { InvitePage, InviteStatusEnum, Invite, LinkFilter, LinkPage, Link } from "./coaching.types.js";

/** Invites and links over GraphQL: the same service as REST, its filters parsed as REST's (a null argument is "not given"). */
@Resolver()
export class CoachingResolver {
  @Scoped("students:read")
  @Query(() => InvitePage, { description: "Invites the signed-in trainer sent" })
  sentInvites(
    @Arg("status", () => InviteStatusEnum, { nullable: true }) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.listSentInvites(ctx.actor, listReader(invitePaging, inviteFilter, { status }, page));
  }

  @Scoped("students:read")
  @Query(() => InvitePage, { description: "Invites the signed-in student received" })
  receivedInvites(
    @Arg("status", () => InviteStatusEnum, { nullable: true }) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.listReceivedInvites(ctx.actor, listReader(invitePaging, inviteFilter, { status }, page));
  }

  @Scoped("students:read")
  @Query(() => LinkPage, { description: "The signed-in trainer's students" })
  myStudents(
    @Arg("filter", () => LinkFilter, { nullable: true }) filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The students the selection asks for (and their executions) come in the page's one statement.
    return ctx.services.links.listStudents(ctx.actor, listReader(linkPaging, linkFilter, filter, page), linkInclude(Selection.of(info).field("content"), ctx));
  }

  @Scoped("students:read")
  @Query(() => LinkPage, { description: "The signed-in student's trainers" })
  myPersonals(
    @Arg("filter", () => LinkFilter, { nullable: true }) filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.links.listPersonals(ctx.actor, listReader(linkPaging, linkFilter, filter, page), linkInclude(Selection.of(info).field("content"), ctx));
  }

  @Scoped("students:write")
  @Mutation(() => Invite)
  inviteStudent(
    @Arg("studentEmail", () => String) studentEmail: string,
    @Arg("message", () => String, { nullable: true }) message: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.invite(ctx.actor, inputReader(inviteInput, { studentEmail, message }));
  }

  @Scoped("students:write")
  @Mutation(() => Link)
  acceptInvite(@Arg("id", () => Int) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.invites.acceptInvite(ctx.actor, id, linkInclude(Selection.of(info), ctx));
  }

  @Scoped("students:write")
  @Mutation(() => Invite)
  rejectInvite(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.invites.rejectInvite(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => Boolean, { description: "A trainer ends a link (id of the link)" })
  async removeStudent(@Arg("linkId", () => Int) linkId: number, @Ctx() ctx: Context) {
    await ctx.services.links.removeStudent(ctx.actor, linkId);
    return true;
  }

  @Scoped("students:write")
  @Mutation(() => Boolean, { description: "A student ends a link (id of the link)" })
  async removePersonal(@Arg("linkId", () => Int) linkId: number, @Ctx() ctx: Context) {
    await ctx.services.links.removePersonal(ctx.actor, linkId);
    return true;
  }
}

@Resolver(() => Invite)
export class InviteRelationsResolver {
  @FieldResolver(() => UserSummary, { description: "The inviting trainer" })
  personal(@Root() invite: Invite, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(invite.personalId);
  }
}

/** `User.students` / `User.personals`: the user's ACTIVE links (the user themself and administrators). */
@Resolver(() => User)
export class UserLinksResolver {
  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("students:read")
  @FieldResolver(() => [Link])
  students(@Root() user: User, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.studentsOf(linkInclude(Selection.of(info), ctx)).load(user.id);
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("students:read")
  @FieldResolver(() => [Link])
  personals(@Root() user: User, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.personalsOf(linkInclude(Selection.of(info), ctx)).load(user.id);
  }
}
