import { Field, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { PageOf } from "../../graphql/page.js";
import { DateTime } from "../../graphql/scalars.js";

export enum InviteStatusEnum {
  PENDING = "PENDING",
  ACCEPTED = "ACCEPTED",
  REJECTED = "REJECTED",
  EXPIRED = "EXPIRED",
}
registerEnumType(InviteStatusEnum, { name: "InviteStatus" });

export enum LinkStatusEnum {
  ACTIVE = "ACTIVE",
  INACTIVE = "INACTIVE",
}
registerEnumType(LinkStatusEnum, { name: "LinkStatus" });

@ObjectType("Invite", { description: "The trainer sees studentEmail; the student sees personalEmail and personalProfilePicture" })
export class InviteType {
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

@ObjectType("Link", { description: "A trainer-student link (PersonalStudentDTO)" })
export class LinkType {
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
}

export const InvitePage = PageOf(InviteType, "InvitePage");
export const LinkPage = PageOf(LinkType, "LinkPage");

@InputType("LinkFilter")
export class LinkFilter {
  @Field(() => String, { nullable: true, description: "partial name of the other party" }) name?: string;
  @Field(() => LinkStatusEnum, { nullable: true, description: "ACTIVE when absent" }) status?: string;
}
