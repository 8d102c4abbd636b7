import { Scoped } from "../../graphql/scopes.js";
import type { GraphQLResolveInfo } from "graphql";
import { Arg, Ctx, FieldResolver, Info, Int, Mutation, Query, Resolver, Root } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { Selection } from "../../graphql/look-ahead.js";
import { argumentsReader, inputReader } from "../../graphql/arguments.js";
import { GraphQLUpload, readUpload, type FileUpload } from "../../graphql/upload.js";
import type { UserDto } from "./user.dto.js";
import { userInclude } from "./user.include.js";
import { AuthPayload, LoginInput, MessagePayload, ProfileInput, RegisterInput, TokenPayload, User } from "./user.types.js";
import { describedBy } from "../../graphql/described.js";
import { sessionSchema } from "./user.dto.js";
import {
  blankNameMessage,
  confirmEmailInput,
  firebaseLoginInput,
  forgotPasswordInput,
  loginInput,
  profileInput,
  registerInput,
  renameInput,
  resetPasswordInput,
  shortPasswordMessage,
} from "./user.inputs.js";

const firebaseLoginArgs = describedBy(firebaseLoginInput);
const forgotPasswordArgs = describedBy(forgotPasswordInput);
const resetPasswordArgs = describedBy(resetPasswordInput);
const confirmEmailArgs = describedBy(confirmEmailInput);
const renameArgs = describedBy(renameInput);
const session = describedBy(sessionSchema);

/** Accounts, sessions and profiles over GraphQL: the same services as REST. */
@Resolver(() => User)
export class UserResolver {
  @Scoped("profile:read")
  @Query(() => User, { description: "The signed-in user" })
  me(@Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.getProfile(ctx.actor));
  }

  @Scoped("students:read")
  @Query(() => User, {
    description: "A user: the caller, or for an administrator anyone, or the other party of an ACTIVE trainer-student link (FORBIDDEN otherwise)",
  })
  user(@Arg("id", () => Int, { description: "The user's id" }) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.getUser(ctx.actor, id));
  }

  @Scoped("none")
  @Mutation(() => AuthPayload, { description: "Creates an account and signs it in; unless it arrives confirmed, a confirmation link is e-mailed" })
  register(@Arg("input", () => RegisterInput, { description: "The new account" }) input: RegisterInput, @Ctx() ctx: Context) {
    return ctx.services.auth.register(inputReader(registerInput, input), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => AuthPayload, { description: "Signs in with e-mail and password" })
  login(@Arg("input", () => LoginInput, { description: "The account's e-mail and password" }) input: LoginInput, @Ctx() ctx: Context) {
    return ctx.services.auth.login(inputReader(loginInput, input), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => AuthPayload, { description: "Signs in the account of the e-mail an identity provider's ID token vouches for" })
  firebaseLogin(@Arg("firebaseToken", () => String, firebaseLoginArgs("firebaseToken")) firebaseToken: string, @Ctx() ctx: Context) {
    return ctx.services.auth.firebaseLogin(inputReader(firebaseLoginInput, { firebaseToken }), ctx.meta);
  }

  @Scoped("login")
  @Mutation(() => TokenPayload, { description: "A new token; the one sent is revoked" })
  refreshToken(@Ctx() ctx: Context) {
    return ctx.services.auth.refresh(ctx.actor);
  }

  @Scoped("login")
  @Mutation(() => MessagePayload, { description: "Revokes the token the request carries" })
  logout(@Ctx() ctx: Context) {
    return ctx.services.auth.logout(ctx.actor);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload, { description: "E-mails a password reset link, valid for 1 hour; the links sent before it stop working" })
  forgotPassword(@Arg("email", () => String, forgotPasswordArgs("email")) email: string, @Ctx() ctx: Context) {
    return ctx.services.auth.forgotPassword(inputReader(forgotPasswordInput, { email }), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload, { description: "Sets a new password with the e-mailed token; every login token issued before it stops working" })
  resetPassword(
    @Arg("token", () => String, resetPasswordArgs("token")) token: string,
    @Arg("password", () => String, resetPasswordArgs("password")) password: string,
    @Ctx() ctx: Context,
  ) {
    return ctx.services.auth.resetPassword(inputReader(resetPasswordInput, { token, password }, shortPasswordMessage), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload, { description: "Confirms the account's e-mail address with the e-mailed token" })
  confirmEmail(@Arg("token", () => String, confirmEmailArgs("token")) token: string, @Ctx() ctx: Context) {
    return ctx.services.auth.confirmEmail(argumentsReader(confirmEmailInput, { token }));
  }

  @Scoped("profile:write")
  @Mutation(() => User, { description: "Changes the caller's profile" })
  updateProfile(@Arg("input", () => ProfileInput, { description: "The changes" }) input: ProfileInput, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.updateProfile(ctx.actor, inputReader(profileInput, input)));
  }

  @Scoped("profile:write")
  @Mutation(() => User, { description: "Changes a user's name (self or administrator)" })
  renameUser(
    @Arg("id", () => Int, { description: "The user's id" }) id: number,
    @Arg("name", () => String, renameArgs("name")) name: string,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return answerUser(ctx, info, ctx.services.users.rename(ctx.actor, id, inputReader(renameInput, { name }, blankNameMessage)));
  }

  @Scoped("profile:write")
  @Mutation(() => User, { description: "GraphQL multipart upload of a JPG, PNG or GIF (max 5 MB)" })
  updateProfilePhoto(
    @Arg("userId", () => Int, { description: "The user's id: the caller's own, or any for an administrator" }) userId: number,
    @Arg("file", () => GraphQLUpload, { description: "The image: JPG, PNG or GIF (judged by its bytes), at most 5 MB" }) file: Promise<FileUpload>,
    @Ctx() ctx: Context,
    @Info() info: GraphQLResolveInfo,
  ) {
    return answerUser(
      ctx,
      info,
      ctx.services.users.updatePhoto(ctx.actor, userId, () => readUpload(file)),
    );
  }
}

/** The user a session begins with, as its selection reads it. */
@Resolver(() => AuthPayload)
export class AuthPayloadResolver {
  @FieldResolver(() => User, session("user"))
  user(@Root() payload: AuthPayload, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, payload.user);
  }
}

/** A user the service answered (after its rules and its writes), as its selection reads it (UserService.withEmbedded). */
async function answerUser(ctx: Context, info: GraphQLResolveInfo, answered: UserDto | Promise<UserDto>) {
  return ctx.services.users.withEmbedded(ctx.actor, await answered, userInclude(Selection.of(info), ctx));
}
