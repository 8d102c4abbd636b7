import { isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";
import type { EmbeddedRead } from "../platform/db/embedded-read.js";
import type { Context } from "./context.js";
import type { Selection } from "./look-ahead.js";

/** The field extension marking a relation that its parent's statement may have read ahead. */
const READ_AHEAD = "readAhead";

/**
 * Marks a field resolver whose value the parent may already carry, read ahead: the schema then answers that value
 * without calling the resolver, which is left with the loader's path alone. The value is the parent's property of the
 * field's own name (null included: a relation the caller may not see), or, for a relation another module's statement
 * embeds, what the relation's `answer` finds.
 */
export const ReadAhead = (relation?: EmbeddedRelation) => Extensions({ [READ_AHEAD]: relation ?? true });

/** What a parent carries read ahead for a field's arguments, undefined when nothing. */
export type ReadAheadAnswer = (parent: object, args: Record<string, unknown>, info: GraphQLResolveInfo) => unknown;

/** What a read made ahead is made for: the caller, and the services holding its rules. */
export type ReadAheadContext = Pick<Context, "services" | "actor">;

/**
 * A relation a module adds to another module's type (a field resolver on it, `User.executions`) that the statement
 * reading objects of that type carries, read ahead: the type's module embeds the reads its selection's fields declare
 * (embeddedRelations), never naming the modules that declare them, as the schema takes their resolvers.
 */
export interface EmbeddedRelation {
  /** The keys of the parent the field's resolver reads when nothing was read ahead (its loader's key). */
  needs: readonly string[];
  /** The reads to embed in the parent's JSON object for the field's selection, by name: none when its resolver answers. */
  embed(selection: Selection, ctx: ReadAheadContext): Record<string, EmbeddedRead<unknown>>;
  /** What the parent carries of those reads for the field's arguments, undefined when nothing; it throws a refusal read ahead. */
  answer: ReadAheadAnswer;
}

/**
 * Of the relations other modules add to a selection's type (EmbeddedRelation), those it selects: the reads to embed in
 * each object's JSON, and what their resolvers read of the object, by field (Selection.keysOf's `needs`).
 */
export function embeddedRelations(
  selection: Selection,
  ctx: ReadAheadContext,
): { embedded: Record<string, EmbeddedRead<unknown>>; needs: Record<string, readonly string[]> } {
  const embedded: Record<string, EmbeddedRead<unknown>> = {};
  const needs: Record<string, readonly string[]> = {};
  for (const [name, field] of selection.selectedFields()) {
    const relation = field.extensions[READ_AHEAD] as EmbeddedRelation | true | undefined;
    if (typeof relation !== "object") continue;
    Object.assign(embedded, relation.embed(field, ctx));
    needs[name] = relation.needs;
  }
  return { embedded, needs };
}

/**
 * Puts in front of each resolver marked `ReadAhead` the read-ahead value's answer. type-graphql's own wrapper copies
 * the parent into an instance of its class and gathers the parameters on every call: a plan tree has some seventy
 * such relations, an exercise page twenty, each read ahead.
 */
export function answerReadAhead(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const resolve = field.resolve;
      const marked = field.extensions[READ_AHEAD] as EmbeddedRelation | true | undefined;
      if (!marked || !resolve) continue;
      const name = field.name;
      const readAhead: ReadAheadAnswer = marked === true ? (parent) => (parent as Record<string, unknown>)[name] : marked.answer;
      const answer: GraphQLFieldResolver<object, unknown> = (parent, args, context, info) => {
        const ahead = readAhead(parent, args, info);
        return ahead !== undefined ? ahead : resolve(parent, args, context, info);
      };
      field.resolve = answer as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
