import { isObjectType, type GraphQLFieldResolver, type GraphQLSchema } from "graphql";
import { Extensions } from "type-graphql";

/** The field extension marking a relation that its parent's statement may have read ahead. */
const READ_AHEAD = "readAhead";

/**
 * Marks a field resolver whose value the parent may already carry, read ahead: the schema then answers that value
 * without calling the resolver, which is left with the loader's path alone. The value is the parent's property of the
 * field's own name (null included: a relation the caller may not see).
 */
export const ReadAhead = () => Extensions({ [READ_AHEAD]: true });

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
      if (field.extensions[READ_AHEAD] !== true || !resolve) continue;
      const name = field.name;
      const answer: GraphQLFieldResolver<object, unknown> = (parent, args, context, info) => {
        const ahead = (parent as Record<string, unknown>)[name];
        return ahead !== undefined ? ahead : resolve(parent, args, context, info);
      };
      field.resolve = answer as GraphQLFieldResolver<unknown, unknown>;
    }
  }
}
