import { Field, InputType, Int, ObjectType } from "type-graphql";
import { orderByEnum, PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import type { LiteralsWidened, MergedShapes } from "../../graphql/answer-shapes.js";
import { Embedded } from "../../graphql/embedded.js";
import type { UserDto } from "../users/user.dto.js";
import { User } from "../users/user.types.js";
import {
  inviteStatus,
  linkSchema,
  linkStatus,
  receivedInviteSchema,
  sentInviteSchema,
  type LinkDto,
  type ReceivedInviteDto,
  type SentInviteDto,
} from "./coaching.dto.js";
import { invitePaging, linkFilter, linkPaging } from "./coaching.inputs.js";

export const InviteStatusEnum = graphqlEnum(inviteStatus);
export const LinkStatusEnum = graphqlEnum(linkStatus);

const sent = describedBy(sentInviteSchema);
const received = describedBy(receivedInviteSchema);

@ObjectType("Invite", {
  description:
    "A trainer's invite to a student. The trainer sees studentEmail; the student sees personalEmail and personalProfilePicture (the others are null)",
  simpleResolvers: true,
})
export class Invite implements LiteralsWidened<MergedShapes<SentInviteDto, ReceivedInviteDto>> {
  @Field(() => Int, sent("id")) id!: number;
  @Field(() => Int, sent("personalId")) personalId!: number;
  @Field(() => String, sent("personalName")) personalName!: string;
  @Field(() => String, received("personalEmail", { nullable: true })) personalEmail?: string;
  @Field(() => String, received("personalProfilePicture", { nullable: true })) personalProfilePicture?: string | null;
  @Field(() => String, sent("studentEmail", { nullable: true })) studentEmail?: string;
  @Field(() => String, sent("message", { nullable: true })) message!: string | null;
  @Field(() => InviteStatusEnum, sent("status")) status!: string;
  @Field(() => DateTime, sent("createdAt")) createdAt!: Date;
  @Field(() => DateTime, sent("expiresAt")) expiresAt!: Date;
  @Field(() => DateTime, sent("updatedAt", { nullable: true })) updatedAt?: Date;
}

const link = describedBy(linkSchema);

@ObjectType("Link", { ...link.type, simpleResolvers: true })
export class Link implements LiteralsWidened<LinkDto> {
  @Field(() => Int, link("id")) id!: number;
  @Field(() => Int, link("personalId")) personalId!: number;
  @Field(() => String, link("personalName")) personalName!: string;
  @Field(() => String, link("personalEmail", { nullable: true })) personalEmail?: string;
  @Field(() => String, link("personalProfilePicture", { nullable: true })) personalProfilePicture?: string | null;
  @Field(() => Int, link("studentId")) studentId!: number;
  @Field(() => String, link("studentName")) studentName!: string;
  @Field(() => String, link("studentEmail", { nullable: true })) studentEmail?: string;
  @Field(() => String, link("studentProfilePicture", { nullable: true })) studentProfilePicture?: string | null;
  @Field(() => LinkStatusEnum, link("status")) status!: string;
  @Field(() => DateTime, link("createdAt")) createdAt!: Date;
  @Field(() => DateTime, link("updatedAt")) updatedAt!: Date;
  @Field(() => User, { nullable: true, description: "The student; null once the caller may no longer read the user (link removed)" })
  @Embedded()
  student?: UserDto | null;
  @Field(() => User, { nullable: true, description: "The trainer; null once the caller may no longer read the user (link removed)" })
  @Embedded()
  personal?: UserDto | null;
}

export const InvitePage = PageOf(Invite, "InvitePage");
export const InviteOrderBy = orderByEnum("InviteOrderBy", invitePaging, "invites");
export const LinkPage = PageOf(Link, "LinkPage");
export const LinkOrderBy = orderByEnum("LinkOrderBy", linkPaging, "trainer-student links");

const filter = describedBy(linkFilter);

@InputType("LinkFilter", filter.type)
export class LinkFilter {
  @Field(() => String, filter("name", { nullable: true })) name?: string;
  @Field(() => LinkStatusEnum, filter("status", { nullable: true })) status?: string;
}
