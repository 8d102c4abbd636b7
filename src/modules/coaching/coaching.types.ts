import { Field, InputType, Int, ObjectType } from "type-graphql";
import { PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { INVITE_STATUSES, LINK_STATUSES } from "../../tables/coaching.table.js";
import type { LiteralsWidened, MergedShapes } from "../../graphql/answer-shapes.js";
import { Embedded } from "../../graphql/embedded.js";
import type { UserDto } from "../users/user.dto.js";
import { User } from "../users/user.types.js";
import type { LinkDto, ReceivedInviteDto, SentInviteDto } from "./coaching.dto.js";

export const InviteStatusEnum = graphqlEnum(INVITE_STATUSES, "InviteStatus");
export const LinkStatusEnum = graphqlEnum(LINK_STATUSES, "LinkStatus");

@ObjectType("Invite", { description: "The trainer sees studentEmail; the student sees personalEmail and personalProfilePicture", simpleResolvers: true })
export class Invite implements LiteralsWidened<MergedShapes<SentInviteDto, ReceivedInviteDto>> {
  @Field(() => Int) id!: number;
  @Field(() => Int) personalId!: number;
  @Field(() => String) personalName!: string;
  @Field(() => String, { nullable: true }) personalEmail?: string;
  @Field(() => String, { nullable: true }) personalProfilePicture?: string | null;
  @Field(() => String, { nullable: true }) studentEmail?: string;
  @Field(() => String, { nullable: true }) message!: string | null;
  @Field(() => InviteStatusEnum) status!: string;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) expiresAt!: Date;
  @Field(() => DateTime, { nullable: true }) updatedAt?: Date;
}

@ObjectType("Link", { description: "A trainer-student link (PersonalStudentDTO)", simpleResolvers: true })
export class Link implements LiteralsWidened<LinkDto> {
  @Field(() => Int) id!: number;
  @Field(() => Int) personalId!: number;
  @Field(() => String) personalName!: string;
  @Field(() => String, { nullable: true }) personalEmail?: string;
  @Field(() => String, { nullable: true }) personalProfilePicture?: string | null;
  @Field(() => Int) studentId!: number;
  @Field(() => String) studentName!: string;
  @Field(() => String, { nullable: true }) studentEmail?: string;
  @Field(() => String, { nullable: true }) studentProfilePicture?: string | null;
  @Field(() => LinkStatusEnum) status!: string;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
  @Field(() => User, { nullable: true, description: "Null once the caller may no longer read the user (link removed)" })
  @Embedded()
  student?: UserDto | null;
  @Field(() => User, { nullable: true, description: "Null once the caller may no longer read the user (link removed)" })
  @Embedded()
  personal?: UserDto | null;
}

export const InvitePage = PageOf(Invite, "InvitePage");
export const LinkPage = PageOf(Link, "LinkPage");

@InputType("LinkFilter")
export class LinkFilter {
  @Field(() => String, { nullable: true, description: "partial name of the other party" }) name?: string;
  @Field(() => LinkStatusEnum, { nullable: true, description: "ACTIVE when absent" }) status?: string;
}
