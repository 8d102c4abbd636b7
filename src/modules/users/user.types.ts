import { Field, Float, InputType, Int, ObjectType } from "type-graphql";
import { DateTime, LocalDate } from "../../graphql/scalars.js";
import {
  gender,
  messageSchema,
  refreshedTokenSchema,
  requestLocation,
  sessionSchema,
  userSchema,
  userSummarySchema,
  userType,
  type MessageDto,
  type SessionDto,
  type UserDto,
  type UserSummaryDto,
} from "./user.dto.js";
import { graphqlEnum } from "../../graphql/enums.js";
import { describedBy } from "../../graphql/described.js";
import { loginInput, profileInput, registerInput } from "./user.inputs.js";
import type { z } from "zod";
import type { LiteralsWidened } from "../../graphql/answer-shapes.js";

export const UserTypeEnum = graphqlEnum(userType);
export const GenderEnum = graphqlEnum(gender);

export const RequestLocationEnum = graphqlEnum(requestLocation);

const user = describedBy(userSchema);

@ObjectType("User", { description: `${user.type.description} (the REST layer's UserDTO)`, simpleResolvers: true })
export class User implements UserDto {
  @Field(() => Int, user("id")) id!: number;
  @Field(() => String, user("name")) name!: string;
  @Field(() => String, user("email")) email!: string;
  @Field(() => UserTypeEnum, user("userType")) userType!: UserDto["userType"];
  @Field(() => String, user("profilePicture", { nullable: true })) profilePicture!: string | null;
  @Field(() => String, user("phone", { nullable: true })) phone!: string | null;
  @Field(() => LocalDate, user("birthDate", { nullable: true })) birthDate!: string | null;
  @Field(() => GenderEnum, user("gender", { nullable: true })) gender!: UserDto["gender"];
  @Field(() => Float, user("height", { nullable: true })) height!: number | null;
  @Field(() => Float, user("weight", { nullable: true })) weight!: number | null;
  @Field(() => String, user("subscriptionType")) subscriptionType!: string;
  @Field(() => DateTime, user("subscriptionExpirationDate", { nullable: true })) subscriptionExpirationDate!: Date | null;
  @Field(() => Boolean, user("emailConfirmed")) emailConfirmed!: boolean;
  @Field(() => DateTime, user("createdAt")) createdAt!: Date;
  @Field(() => DateTime, user("updatedAt")) updatedAt!: Date;
}

const summary = describedBy(userSummarySchema);

@ObjectType("UserSummary", { ...summary.type, simpleResolvers: true })
export class UserSummary implements LiteralsWidened<UserSummaryDto> {
  @Field(() => Int, summary("id")) id!: number;
  @Field(() => String, summary("name")) name!: string;
  @Field(() => UserTypeEnum, summary("userType")) userType!: string;
  @Field(() => String, summary("profilePicture", { nullable: true })) profilePicture!: string | null;
}

const session = describedBy(sessionSchema);

@ObjectType("AuthPayload", { ...session.type, simpleResolvers: true })
export class AuthPayload implements LiteralsWidened<SessionDto> {
  @Field(() => User, session("user")) user!: User;
  @Field(() => String, session("token")) token!: string;
  @Field(() => Int, session("userId")) userId!: number;
  @Field(() => Boolean, session("success")) success!: boolean;
}

const refreshed = describedBy(refreshedTokenSchema);

@ObjectType("TokenPayload", { ...refreshed.type, simpleResolvers: true })
export class TokenPayload implements LiteralsWidened<z.output<typeof refreshedTokenSchema>> {
  @Field(() => String, refreshed("token")) token!: string;
  @Field(() => Boolean, refreshed("success")) success!: boolean;
}

const message = describedBy(messageSchema);

@ObjectType("MessagePayload", { ...message.type, simpleResolvers: true })
export class MessagePayload implements LiteralsWidened<MessageDto> {
  @Field(() => String, message("message")) message!: string;
  @Field(() => Boolean, message("success")) success!: boolean;
}

const register = describedBy(registerInput);

@InputType("RegisterInput", register.type)
export class RegisterInput {
  @Field(() => String, register("name")) name!: string;
  @Field(() => String, register("email")) email!: string;
  @Field(() => String, register("password")) password!: string;
  @Field(() => UserTypeEnum, register("userType")) userType!: string;
  @Field(() => RequestLocationEnum, register("requestLocation")) requestLocation!: string;
  @Field(() => Boolean, register("confirmed")) confirmed!: boolean;
}

const login = describedBy(loginInput);

@InputType("LoginInput", login.type)
export class LoginInput {
  @Field(() => String, login("email")) email!: string;
  @Field(() => String, login("password")) password!: string;
}

const profile = describedBy(profileInput);

@InputType("ProfileInput", profile.type)
export class ProfileInput {
  @Field(() => String, profile("name", { nullable: true })) name?: string;
  @Field(() => String, profile("phone", { nullable: true })) phone?: string | null;
  @Field(() => LocalDate, profile("birthDate", { nullable: true })) birthDate?: string | null;
  @Field(() => GenderEnum, profile("gender", { nullable: true })) gender?: string | null;
  @Field(() => Float, profile("height", { nullable: true })) height?: number | null;
  @Field(() => Float, profile("weight", { nullable: true })) weight?: number | null;
}
