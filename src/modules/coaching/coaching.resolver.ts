import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { HISTORY_LIST_CAP, ListBound } from "../../graphql/list-bounds.js";
import { inputReader, listReader } from "../../graphql/arguments.js";
import { Selection } from "../../graphql/look-ahead.js";
import { PageInput, type OrderBy } from "../../graphql/page.js";
import { describedBy } from "../../graphql/described.js";
import { UserSummary, User } from "../users/user.types.js";
import { inviteFilter, inviteInput, invitePaging, linkFilter, linkPaging } from "./coaching.inputs.js";
import { linkInclude } from "./coaching.include.js";
import { InviteOrderBy, InvitePage, InviteStatusEnum, Invite, LinkFilter, LinkOrderBy, LinkPage, Link } from "./coaching.types.js";

const inviteArgs = describedBy(inviteInput);
const inviteFilterArgs = describedBy(inviteFilter);
const NEWEST_FIRST = "The order: newest first (by createdAt) unless given";

/** Invites and links over GraphQL: the same service as REST, its filters parsed as REST's (a null argument is "not given"). */
@Resolver()
export class CoachingResolver {
  @Scoped("students:read")
  @Query(() => InvitePage, { description: "Invites the signed-in trainer sent (trainers only)" })
  sentInvites(
    @Arg("status", () => InviteStatusEnum, inviteFilterArgs("status", { nullable: true })) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [InviteOrderBy], { nullable: true, description: NEWEST_FIRST }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.listSentInvites(ctx.actor, listReader(invitePaging, inviteFilter, { status }, page, orderBy));
  }

  @Scoped("students:read")
  @Query(() => InvitePage, { description: "Invites the signed-in student received (students only)" })
  receivedInvites(
    @Arg("status", () => InviteStatusEnum, inviteFilterArgs("status", { nullable: true })) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [InviteOrderBy], { nullable: true, description: NEWEST_FIRST }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.listReceivedInvites(ctx.actor, listReader(invitePaging, inviteFilter, { status }, page, orderBy));
  }

  @Scoped("students:read")
  @Query(() => LinkPage, { description: "The signed-in trainer's links to students (trainers only)" })
  myStudents(
    @Arg("filter", () => LinkFilter, { nullable: true, description: "What narrows the listing: ACTIVE links unless it says otherwise" })
    filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [LinkOrderBy], { nullable: true, description: NEWEST_FIRST }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    // The students the selection asks for (and their executions) come in the page's one statement.
    return ctx.services.links.listStudents(
      ctx.actor,
      listReader(linkPaging, linkFilter, filter, page, orderBy),
      linkInclude(Selection.of(info).field("content"), ctx),
    );
  }

  @Scoped("students:read")
  @Query(() => LinkPage, { description: "The signed-in student's links to trainers (students only)" })
  myPersonals(
    @Arg("filter", () => LinkFilter, { nullable: true, description: "What narrows the listing: ACTIVE links unless it says otherwise" })
    filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true, description: "Which page" }) page: PageInput | undefined,
    @Arg("orderBy", () => [LinkOrderBy], { nullable: true, description: NEWEST_FIRST }) orderBy: OrderBy | undefined,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return ctx.services.links.listPersonals(
      ctx.actor,
      listReader(linkPaging, linkFilter, filter, page, orderBy),
      linkInclude(Selection.of(info).field("content"), ctx),
    );
  }

  @Scoped("students:write")
  @Mutation(() => Invite, {
    description:
      "A trainer invites a student by e-mail: PENDING for 7 days, within the trainer's student limit (UNPROCESSABLE past it); the student is e-mailed",
  })
  inviteStudent(
    @Arg("studentEmail", () => String, inviteArgs("studentEmail")) studentEmail: string,
    @Arg("message", () => String, inviteArgs("message", { nullable: true })) message: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.invites.invite(ctx.actor, inputReader(inviteInput, { studentEmail, message }));
  }

  @Scoped("students:write")
  @Mutation(() => Link, {
    description:
      "The invited student accepts a PENDING invite: the pair's link becomes ACTIVE (the same link when they were linked before); the trainer is e-mailed",
  })
  acceptInvite(@Arg("id", () => Int, { description: "The invite's id" }) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.services.invites.acceptInvite(ctx.actor, id, linkInclude(Selection.of(info), ctx));
  }

  @Scoped("students:write")
  @Mutation(() => Invite, { description: "The invited student turns a PENDING invite down; the trainer is e-mailed" })
  rejectInvite(@Arg("id", () => Int, { description: "The invite's id" }) id: number, @Ctx() ctx: Context) {
    return ctx.services.invites.rejectInvite(ctx.actor, id);
  }

  @Scoped("students:write")
  @Mutation(() => Boolean, { description: "A trainer ends a link (id of the link): it becomes INACTIVE and the student is e-mailed" })
  async removeStudent(@Arg("linkId", () => Int, { description: "The id of an ACTIVE link of the trainer" }) linkId: number, @Ctx() ctx: Context) {
    await ctx.services.links.removeStudent(ctx.actor, linkId);
    return true;
  }

  @Scoped("students:write")
  @Mutation(() => Boolean, { description: "A student ends a link (id of the link): it becomes INACTIVE and the trainer is e-mailed" })
  async removePersonal(@Arg("linkId", () => Int, { description: "The id of an ACTIVE link of the student" }) linkId: number, @Ctx() ctx: Context) {
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
  @FieldResolver(() => [Link], {
    description: "The user's ACTIVE links as trainer, oldest first, at most 100 (the user themself and administrators only)",
  })
  students(@Root() user: User, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.studentsOf(linkInclude(Selection.of(info), ctx)).load(user.id);
  }

  @ListBound({ cap: HISTORY_LIST_CAP })
  @Scoped("students:read")
  @FieldResolver(() => [Link], {
    description: "The user's ACTIVE links as student, oldest first, at most 100 (the user themself and administrators only)",
  })
  personals(@Root() user: User, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return ctx.loaders.personalsOf(linkInclude(Selection.of(info), ctx)).load(user.id);
  }
}
