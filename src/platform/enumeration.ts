import { z } from "zod";

/** What each value of a closed list means, for people reading either document. */
export type Meanings<V extends readonly [string, ...string[]]> = { readonly [K in V[number]]: string };

/**
 * A closed list of values and what each means, declared once in its domain: the table checks the values (the list is
 * the table's), the zod schemas of inputs and answers parse them with `schema`, GraphQL registers the same enum
 * (graphqlEnum), and both documents carry the meanings: GraphQL as the values' descriptions, OpenAPI as a named
 * component with `x-enumDescriptions` (the extension Redocly and openapi-typescript read).
 */
export function enumeration<const V extends readonly [string, ...string[]]>(values: V, spec: { name: string; description: string; meanings: Meanings<V> }) {
  const schema = z.enum(values).meta({ id: spec.name, description: spec.description, "x-enumDescriptions": spec.meanings });
  return { ...spec, values, schema };
}

export type Enumeration<V extends readonly [string, ...string[]] = readonly [string, ...string[]]> = ReturnType<typeof enumeration<V>>;
