import { registerEnumType } from "type-graphql";

/**
 * A GraphQL enum made from a module's list of values (the same list its table checks and its inputs parse),
 * so the three can never drift apart.
 */
export function graphqlEnum<const V extends readonly string[]>(values: V, name: string, description?: string): { [K in V[number]]: K } {
  const enumObject = Object.fromEntries(values.map((value) => [value, value])) as { [K in V[number]]: K };
  registerEnumType(enumObject, { name, description });
  return enumObject;
}
