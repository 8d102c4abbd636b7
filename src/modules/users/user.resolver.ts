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

/** Accounts, sessions and profiles over GraphQL: the same services as REST. */
@Resolver(() => User)
export class UserResolver {
  @Scoped("profile:read")
  @Query(() => User, { description: "The signed-in user" })
  me(@Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.getProfile(ctx.actor));
  }

  @Scoped("students:read")
  @Query(() => User)
  user(@Arg("id", () => Int) id: number, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.getUser(ctx.actor, id));
  }

  @Scoped("none")
  @Mutation(() => AuthPayload)
  register(@Arg("input", () => RegisterInput) input: RegisterInput, @Ctx() ctx: Context) {
    return ctx.services.auth.register(inputReader(registerInput, input), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => AuthPayload)
  login(@Arg("input", () => LoginInput) input: LoginInput, @Ctx() ctx: Context) {
    return ctx.services.auth.login(inputReader(loginInput, input), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => AuthPayload)
  firebaseLogin(@Arg("firebaseToken", () => String) firebaseToken: string, @Ctx() ctx: Context) {
    return ctx.services.auth.firebaseLogin(inputReader(firebaseLoginInput, { firebaseToken }), ctx.meta);
  }

  @Scoped("login")
  @Mutation(() => TokenPayload, { description: "A new token; the one sent is revoked" })
  refreshToken(@Ctx() ctx: Context) {
    return ctx.services.auth.refresh(ctx.actor);
  }

  @Scoped("login")
  @Mutation(() => MessagePayload)
  logout(@Ctx() ctx: Context) {
    return ctx.services.auth.logout(ctx.actor);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload)
  forgotPassword(@Arg("email", () => String) email: string, @Ctx() ctx: Context) {
    return ctx.services.auth.forgotPassword(inputReader(forgotPasswordInput, { email }), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload)
  resetPassword(@Arg("token", () => String) token: string, @Arg("password", () => String) password: string, @Ctx() ctx: Context) {
    return ctx.services.auth.resetPassword(inputReader(resetPasswordInput, { token, password }, shortPasswordMessage), ctx.meta);
  }

  @Scoped("none")
  @Mutation(() => MessagePayload)
  confirmEmail(@Arg("token", () => String) token: string, @Ctx() ctx: Context) {
    return ctx.services.auth.confirmEmail(argumentsReader(confirmEmailInput, { token }));
  }

  @Scoped("profile:write")
  @Mutation(() => User)
  updateProfile(@Arg("input", () => ProfileInput) input: ProfileInput, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.updateProfile(ctx.actor, inputReader(profileInput, input)));
  }

  @Scoped("profile:write")
  @Mutation(() => User, { description: "Changes a user's name (self or administrator)" })
  renameUser(@Arg("id", () => Int) id: number, @Arg("name", () => String) name: string, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, ctx.services.users.rename(ctx.actor, id, inputReader(renameInput, { name }, blankNameMessage)));
  }

  @Scoped("profile:write")
  @Mutation(() => User, { description: "GraphQL multipart upload of a JPG, PNG or GIF (max 5 MB)" })
  updateProfilePhoto(
    @Arg("userId", () => Int) userId: number,
    @Arg("file", () => GraphQLUpload) file: Promise<FileUpload>,
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
  @FieldResolver(() => User)
  user(@Root() payload: AuthPayload, @Ctx() ctx: Context, @Info() info: GraphQLResolveInfo) {
    return answerUser(ctx, info, payload.user);
  }
}

/** A user the service answered (after its rules and its writes), as its selection reads it (UserService.withEmbedded). */
async function answerUser(ctx: Context, info: GraphQLResolveInfo, answered: UserDto | Promise<UserDto>) {
  return ctx.services.users.withEmbedded(ctx.actor, await answered, userInclude(Selection.of(info), ctx));
}
