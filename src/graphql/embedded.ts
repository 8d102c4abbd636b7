import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";

/** The field extension marking a relation its parent's statement always reads along with it. */
const EMBEDDED = "embedded";

/**
 * Marks a relation of a content tree (an exercise's author, a training line's exercise, a plan's training): every
 * statement that reads the parent reads it too, as JSON built from the selection (the module's `*.include.ts` says
 * what the selection asks, its fragments how it is read, under access's rules). It has no loader and no other path.
 */
export const Embedded = () => Extensions({ [EMBEDDED]: true });

/**
 * Makes each field marked `Embedded` answer its parent's property of the same name (null: a relation the caller may
 * not see). type-graphql's own wrapper would copy the parent into its class and gather parameters on every call: a
 * plan tree has some seventy such relations. A parent read without it is a producer that forgot the relation: our
 * bug, answered as one rather than as a silent null.
 */
export function answerEmbedded(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!field.extensions[EMBEDDED]) continue;
      const name = field.name;
      const relation = `${type.name}.${name}`;
      const answer: GraphQLFieldResolver<Record<string, unknown>, unknown> = (parent) => {
        const value = parent[name];
        if (value === undefined) throw new Error(`${relation} was not read with its parent`);
        return value;
      };
      field.resolve = answer as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
