import { Arg, Ctx, FieldResolver, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql-api.js";
import { asQuery } from "../../graphql/filters.js";
import { PageInput, pageParams } from "../../graphql/page.js";
import { UserSummaryType, UserType } from "../users/user.types.js";
import { InvitePage, InviteStatusEnum, InviteType, LinkFilter, LinkPage, LinkType } from "./coaching.types.js";

/** Invites and links over GraphQL: the same service as REST; filters go as query values (a null argument is "not given"). */
@Resolver()
export class CoachingResolver {
  @Query(() => InvitePage, { description: "Invites the signed-in trainer sent" })
  sentInvites(
    @Arg("status", () => InviteStatusEnum, { nullable: true }) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.coaching.sentInvites(ctx.actor, { ...pageParams(page), ...asQuery({ status }) });
  }

  @Query(() => InvitePage, { description: "Invites the signed-in student received" })
  receivedInvites(
    @Arg("status", () => InviteStatusEnum, { nullable: true }) status: string | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.coaching.receivedInvites(ctx.actor, { ...pageParams(page), ...asQuery({ status }) });
  }

  @Query(() => LinkPage, { description: "The signed-in trainer's students" })
  myStudents(
    @Arg("filter", () => LinkFilter, { nullable: true }) filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.coaching.students(ctx.actor, { ...pageParams(page), ...asQuery(filter) });
  }

  @Query(() => LinkPage, { description: "The signed-in student's trainers" })
  myPersonals(
    @Arg("filter", () => LinkFilter, { nullable: true }) filter: LinkFilter | undefined,
    @Arg("page", () => PageInput, { nullable: true }) page: PageInput | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.coaching.personals(ctx.actor, { ...pageParams(page), ...asQuery(filter) });
  }

  @Mutation(() => InviteType)
  inviteStudent(
    @Arg("studentEmail", () => String) studentEmail: string,
    @Arg("message", () => String, { nullable: true }) message: string | undefined,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.coaching.invite(ctx.actor, { studentEmail, message });
  }

  @Mutation(() => LinkType)
  acceptInvite(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.coaching.acceptInvite(ctx.actor, id);
  }

  @Mutation(() => InviteType)
  rejectInvite(@Arg("id", () => Int) id: number, @Ctx() ctx: Context) {
    return ctx.services.coaching.rejectInvite(ctx.actor, id);
  }

  @Mutation(() => Boolean, { description: "A trainer ends a link (id of the link)" })
  async removeStudent(@Arg("linkId", () => Int) linkId: number, @Ctx() ctx: Context) {
    await ctx.services.coaching.removeStudent(ctx.actor, linkId);
    return true;
  }

  @Mutation(() => Boolean, { description: "A student ends a link (id of the link)" })
  async removePersonal(@Arg("linkId", () => Int) linkId: number, @Ctx() ctx: Context) {
    await ctx.services.coaching.removePersonal(ctx.actor, linkId);
    return true;
  }
}

@Resolver(() => LinkType)
export class LinkRelationsResolver {
  @FieldResolver(() => UserType, { nullable: true, description: "Null once the caller may no longer read the user (link removed)" })
  student(@Root() link: LinkType, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(link.studentId);
  }

  @FieldResolver(() => UserType, { nullable: true, description: "Null once the caller may no longer read the user (link removed)" })
  personal(@Root() link: LinkType, @Ctx() ctx: Context) {
    return ctx.loaders.userById.load(link.personalId);
  }
}

@Resolver(() => InviteType)
export class InviteRelationsResolver {
  @FieldResolver(() => UserSummaryType, { description: "The inviting trainer" })
  personal(@Root() invite: InviteType, @Ctx() ctx: Context) {
    return ctx.loaders.authorById.load(invite.personalId);
  }
}

/** `User.students` / `User.personals`: the user's ACTIVE links (the user themself and administrators). */
@Resolver(() => UserType)
export class UserLinksResolver {
  @FieldResolver(() => [LinkType])
  students(@Root() user: UserType, @Ctx() ctx: Context) {
    return ctx.loaders.studentsOf.load(user.id);
  }

  @FieldResolver(() => [LinkType])
  personals(@Root() user: UserType, @Ctx() ctx: Context) {
    return ctx.loaders.personalsOf.load(user.id);
  }
}
