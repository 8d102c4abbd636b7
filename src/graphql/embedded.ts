import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";
import type { EmbeddedRead } from "../platform/db/embedded-read.js";
import type { Context } from "./context.js";
import type { Selection } from "./look-ahead.js";

/** The field extension marking a relation its parent's statement always reads along with it. */
const EMBEDDED = "embedded";

/** What a read embedded for a selection is made for: the caller, and the services holding its rules. */
export type EmbeddingContext = Pick<Context, "services" | "actor">;

/**
 * A relation a module adds to another module's type (`User.executions`, a field resolver on it), which every statement
 * reading objects of that type embeds: the type's module embeds the reads its selection's fields declare
 * (embeddedRelations), never naming the modules that declare them, as the schema takes their resolvers.
 */
export interface EmbeddedRelation {
  /** The reads to embed in the parent's JSON object for the field's selection, by name. */
  embed(selection: Selection, ctx: EmbeddingContext): Record<string, EmbeddedRead<unknown>>;
  /** The field's answer of what its parent carries of those reads for its arguments; undefined when nothing. */
  answer(parent: object, args: Record<string, unknown>): unknown;
}

/**
 * Marks a relation every statement that reads its parent reads too, as JSON built from the selection: a content
 * tree's (an exercise's author, a training line's exercise, a plan's training: the parent's property of the field's
 * name, null where the caller may not see it), or one another module adds to the parent's type (`relation`). It has no
 * loader and no other path.
 */
export const Embedded = (relation?: EmbeddedRelation) => Extensions({ [EMBEDDED]: relation ?? true });

/**
 * Of the relations other modules add to a selection's type (EmbeddedRelation), those it selects: the reads to embed in
 * each object's JSON, and what they read of the object's own keys (none: Selection.keysOf's `needs`).
 */
export function embeddedRelations(
  selection: Selection,
  ctx: EmbeddingContext,
): { embedded: Record<string, EmbeddedRead<unknown>>; needs: Record<string, readonly string[]> } {
  const embedded: Record<string, EmbeddedRead<unknown>> = {};
  const needs: Record<string, readonly string[]> = {};
  for (const [name, field] of selection.selectedFields()) {
    const relation = field.extensions[EMBEDDED] as EmbeddedRelation | true | undefined;
    if (typeof relation !== "object") continue;
    Object.assign(embedded, relation.embed(field, ctx));
    needs[name] = [];
  }
  return { embedded, needs };
}

/**
 * Makes each field marked `Embedded` answer what its parent carries of it. type-graphql's own wrapper would copy the
 * parent into its class and gather parameters on every call: a plan tree has some seventy such relations. A parent
 * read without it is a producer that forgot the relation: our bug, answered as one rather than as a silent null.
 */
export function answerEmbedded(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const marked = field.extensions[EMBEDDED] as EmbeddedRelation | true | undefined;
      if (!marked) continue;
      const name = field.name;
      const relation = `${type.name}.${name}`;
      const carried = marked === true ? (parent: Record<string, unknown>) => parent[name] : marked.answer;
      const answer: GraphQLFieldResolver<Record<string, unknown>, unknown> = (parent, args) => {
        const value = carried(parent, args);
        if (value === undefined) throw new Error(`${relation} was not read with its parent`);
        return value;
      };
      field.resolve = answer as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
