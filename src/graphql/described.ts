import type { z } from "zod";

/** The description of a zod schema, looked for through the wrappers a field adds (nullable, optional, default). */
function descriptionOf(schema: z.ZodType): string | undefined {
  let at: z.ZodType | undefined = schema;
  while (at) {
    if (at.description) return at.description;
    const def = at._zod.def as { innerType?: z.ZodType };
    at = def.innerType;
  }
  return undefined;
}

/**
 * The descriptions a GraphQL type takes from the zod schema of the same shape, where they are written once (the
 * OpenAPI document carries them from there): `@ObjectType("Exercise", described.type)`, then
 * `@Field(() => Int, described("id"))`; a key the schema lacks does not compile.
 */
export function describedBy<S extends z.ZodObject>(schema: S) {
  const field = <K extends keyof S["shape"] & string>(key: K, options: { nullable?: boolean | "items" | "itemsAndList" } = {}) => ({
    ...options,
    description: descriptionOf(schema.shape[key] as z.ZodType),
  });
  return Object.assign(field, { type: { description: schema.description } });
}
