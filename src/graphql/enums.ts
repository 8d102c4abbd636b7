import { registerEnumType } from "type-graphql";
import type { Enumeration } from "../platform/enumeration.js";

/**
 * A GraphQL enum made from a domain's enumeration (the same list its table checks and its inputs parse, with the
 * same descriptions the OpenAPI document gives), so none of them can drift apart.
 */
export function graphqlEnum<const V extends readonly [string, ...string[]]>({ values, name, description, meanings }: Enumeration<V>): { [K in V[number]]: K } {
  const enumObject = Object.fromEntries(values.map((value) => [value, value])) as { [K in V[number]]: K };
  const valuesConfig = Object.fromEntries(values.map((value) => [value, { description: (meanings as Record<string, string>)[value] }])) as {
    [K in V[number]]: { description: string };
  };
  registerEnumType(enumObject, { name, description, valuesConfig });
  return enumObject;
}
