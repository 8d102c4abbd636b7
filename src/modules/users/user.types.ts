import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import type { MessageDto, refreshedTokenSchema, SessionDto, UserDto, UserSummaryDto } from "./user.dto.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { USER_TYPES, GENDERS } from "../../tables/user.table.js";
import { REQUEST_LOCATIONS } from "./user.inputs.js";
import type { z } from "zod";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";

export const UserTypeEnum = graphqlEnum(USER_TYPES, "UserType", "ALUNO (student) or PERSONAL (trainer)");
export const GenderEnum = graphqlEnum(GENDERS, "Gender");

export const RequestLocationEnum = graphqlEnum(REQUEST_LOCATIONS, "RequestLocation");

@ObjectType("User", { description: "UserDTO of the REST layer", simpleResolvers: true })
export class User implements UserDto {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => UserTypeEnum) userType!: UserDto["userType"];
  @Field(() => String, { nullable: true }) profilePicture!: string | null;
  @Field(() => String, { nullable: true }) phone!: string | null;
  @Field(() => LocalDate, { nullable: true }) birthDate!: string | null;
  @Field(() => GenderEnum, { nullable: true }) gender!: UserDto["gender"];
  @Field(() => Float, { nullable: true, description: "centimetres" }) height!: number | null;
  @Field(() => Float, { nullable: true, description: "kilograms" }) weight!: number | null;
  @Field(() => String) subscriptionType!: string;
  @Field(() => DateTime, { nullable: true }) subscriptionExpirationDate!: Date | null;
  @Field(() => Boolean) emailConfirmed!: boolean;
  @Field(() => DateTime) createdAt!: Date;
  @Field(() => DateTime) updatedAt!: Date;
}

@ObjectType("UserSummary", { description: "What anyone may see of an author: no contact or body data", simpleResolvers: true })
export class UserSummary implements LiteralsWidened<UserSummaryDto> {
  @Field(() => Int) id!: number;
  @Field(() => String) name!: string;
  @Field(() => UserTypeEnum) userType!: string;
  @Field(() => String, { nullable: true }) profilePicture!: string | null;
}

@ObjectType("AuthPayload", { simpleResolvers: true })
export class AuthPayload implements LiteralsWidened<SessionDto> {
  @Field(() => User) user!: User;
  @Field(() => String) token!: string;
  @Field(() => Int) userId!: number;
  @Field(() => Boolean) success!: boolean;
}

@ObjectType("TokenPayload", { simpleResolvers: true })
export class TokenPayload implements LiteralsWidened<z.output<typeof refreshedTokenSchema>> {
  @Field(() => String) token!: string;
  @Field(() => Boolean) success!: boolean;
}

@ObjectType("MessagePayload", { simpleResolvers: true })
export class MessagePayload implements LiteralsWidened<MessageDto> {
  @Field(() => String) message!: string;
  @Field(() => Boolean) success!: boolean;
}

@InputType("RegisterInput")
export class RegisterInput {
  @Field(() => String) name!: string;
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
  @Field(() => UserTypeEnum) userType!: string;
  @Field(() => RequestLocationEnum) requestLocation!: string;
  @Field(() => Boolean) confirmed!: boolean;
}

@InputType("LoginInput")
export class LoginInput {
  @Field(() => String) email!: string;
  @Field(() => String) password!: string;
}

@InputType("ProfileInput", { description: "Every field optional; null clears it" })
export class ProfileInput {
  @Field(() => String, { nullable: true }) name?: string;
  @Field(() => String, { nullable: true }) phone?: string | null;
  @Field(() => LocalDate, { nullable: true }) birthDate?: string | null;
  @Field(() => GenderEnum, { nullable: true }) gender?: string | null;
  @Field(() => Float, { nullable: true }) height?: number | null;
  @Field(() => Float, { nullable: true }) weight?: number | null;
}
