import { isObjectType, type GraphQLFieldResolver, type GraphQLResolveInfo, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";

/** The field extension marking a relation that its parent's statement may have read ahead. */
const READ_AHEAD = "readAhead";

/**
 * Marks a field resolver whose value the parent may already carry, read ahead: the schema then answers that value
 * without calling the resolver, which is left with the loader's path alone. The value is the parent's property of the
 * field's own name (null included: a relation the caller may not see), or what `answer` finds for the field's
 * arguments (undefined when none was read ahead for them; it throws the refusal read ahead).
 */
export const ReadAhead = (answer?: ReadAheadAnswer) => Extensions({ [READ_AHEAD]: answer ?? true });

/** What a parent carries read ahead for a field's arguments, undefined when nothing. */
export type ReadAheadAnswer = (parent: object, args: Record<string, unknown>, info: GraphQLResolveInfo) => unknown;

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
      const marked = field.extensions[READ_AHEAD] as ReadAheadAnswer | true | undefined;
      if (!marked || !resolve) continue;
      const name = field.name;
      const readAhead: ReadAheadAnswer = marked === true ? (parent) => (parent as Record<string, unknown>)[name] : marked;
      const answer: GraphQLFieldResolver<object, unknown> = (parent, args, context, info) => {
        const ahead = readAhead(parent, args, info);
        return ahead !== undefined ? ahead : resolve(parent, args, context, info);
      };
      field.resolve = answer as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
