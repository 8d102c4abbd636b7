import { Scoped } from "../../graphql/scopes.js";
import { Arg, Ctx, Int, Mutation, Query, Resolver } from "type-graphql";
import type { Context } from "../../graphql/context.js";
import { argumentsReader } from "../../graphql/arguments.js";
import { describedBy } from "../../graphql/described.js";
import { JSONObject } from "../../graphql/scalars.js";
import { deleteAccountInput } from "./privacy.inputs.js";

const proof = describedBy(deleteAccountInput);

/** The data subject's rights (contract §15) over GraphQL: the same service as REST. */
@Resolver()
export class PrivacyResolver {
  @Scoped("login")
  @Query(() => JSONObject, { description: "Everything kept of the signed-in user, as GET /api/users/me/export answers it (once a minute)" })
  async exportMyData(@Ctx() ctx: Context) {
    return (await ctx.services.privacy.exportMine(ctx.actor)).document;
  }

  @Scoped("login")
  @Mutation(() => Boolean, { description: "Erases the signed-in user's account: the password, or an identity provider's ID token of its e-mail" })
  async deleteMyAccount(
    @Arg("password", () => String, proof("password", { nullable: true })) password: string | null | undefined,
    @Arg("firebaseToken", () => String, proof("firebaseToken", { nullable: true })) firebaseToken: string | null | undefined,
    @Ctx() ctx: Context,
  ) {
    await ctx.services.privacy.deleteMyAccount(
      ctx.actor,
      argumentsReader(deleteAccountInput, { password: password ?? undefined, firebaseToken: firebaseToken ?? undefined }),
    );
    return true;
  }

  @Scoped("login")
  @Mutation(() => Boolean, { description: "Erases a user's account (administrators)" })
  async deleteUser(@Arg("id", () => Int, { description: "The id of the user to erase" }) id: number, @Ctx() ctx: Context) {
    await ctx.services.privacy.deleteUser(ctx.actor, id);
    return true;
  }
}
