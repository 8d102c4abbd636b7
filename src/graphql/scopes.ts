import { defaultFieldResolver, GraphQLNonNull, isObjectType, type GraphQLField, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";
import { requireScope } from "../platform/auth/actor.js";
import type { ScopeRequirement } from "../platform/auth/scopes.js";
import type { Context } from "./context.js";

/** The field extension naming what a token handed to a tool needs to resolve the field. */
const SCOPE = "scope";

/** What a field needs (contract §18.2): a scope, `login` (a login session only), or `none` (no token is read: login, register). */
export type FieldScope = ScopeRequirement | "none";

/**
 * Guards a field by a scope: every root field names one, and so does every field that leads from one domain into
 * another's (`User.executions`: activity). What hangs below a guarded field is what that scope reaches. A guarded
 * field is nullable: refused, it is null with an `INSUFFICIENT_SCOPE` error and the rest of the answer is served.
 */
export const Scoped = (scope: FieldScope) => Extensions({ [SCOPE]: scope });

export function scopeOf(field: GraphQLField<unknown, unknown>): FieldScope | undefined {
  return field.extensions[SCOPE] as FieldScope | undefined;
}

/**
 * Makes every `Scoped` field check the caller's scopes before resolving (a subscription's at subscribe), and nullable.
 * A login token holds every scope: for it the check is one comparison. Fails the build on a root field that names no
 * scope, so a new operation cannot slip past.
 */
export function guardScopes(schema: GraphQLSchema): void {
  const roots = new Set([schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]);
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__")) continue;
    for (const field of Object.values(type.getFields())) {
      const scope = scopeOf(field);
      if (scope === undefined) {
        if (roots.has(type)) throw new Error(`${type.name}.${field.name} names no scope (@Scoped)`);
        continue;
      }
      if (scope === "none") continue;
      // Told where a tool's developer reads the schema: its description.
      const needs = scope === "login" ? "Needs a login session (not an app's or a personal token)." : `Needs scope \`${scope}\`.`;
      field.description = field.description ? `${field.description}\n\n${needs}` : needs;
      if (field.type instanceof GraphQLNonNull) field.type = field.type.ofType;
      field.resolve = guarded(field.resolve ?? defaultFieldResolver, scope);
      if (field.subscribe) field.subscribe = guarded(field.subscribe, scope);
    }
  }
}

function guarded(resolve: GraphQLFieldResolver<unknown, unknown>, scope: ScopeRequirement): GraphQLFieldResolver<unknown, unknown> {
  return (parent, args, context, info) => {
    requireScope((context as Context).actor, scope);
    return resolve(parent, args, context, info);
  };
}
