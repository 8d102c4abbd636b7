import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getMetadataStorage } from "type-graphql";
import { expect, it } from "vitest";
import { isObjectType } from "graphql";
import { buildGraphqlSchema, graphqlResolvers } from "../../src/graphql-schema.js";

const modulesDir = path.resolve(import.meta.dirname, "../../src/modules");

// type-graphql builds only the resolvers it is handed: one left off a module's list would drop its fields silently.
it("the schema is built from every @Resolver class the modules declare, each once", async () => {
  const resolverFiles = readdirSync(modulesDir, { recursive: true, encoding: "utf8" }).filter((file) => file.endsWith(".resolver.ts"));
  expect(resolverFiles.length).toBeGreaterThan(0);
  const exported = new Set<unknown>();
  for (const file of resolverFiles) {
    for (const value of Object.values(await import(pathToFileURL(path.join(modulesDir, file)).href))) exported.add(value);
  }
  const declared = getMetadataStorage().resolverClasses.map((resolver) => resolver.target);

  const names = (classes: readonly { name: string }[]) => classes.map((cls) => cls.name).sort();
  expect(
    declared.filter((cls) => !exported.has(cls)).map((cls) => cls.name),
    "@Resolver classes no *.resolver.ts exports",
  ).toEqual([]);
  expect(names(graphqlResolvers), "resolvers in src/graphql-schema.ts").toEqual(names([...new Set(declared)]));
  expect(new Set(graphqlResolvers).size).toBe(graphqlResolvers.length);
});

// A field type-graphql wraps in its own resolver costs a call per object answered, and graphql-jit (which runs repeated
// documents) then cannot read it as a plain property: every @ObjectType declares `simpleResolvers: true`.
it("only fields with a @FieldResolver have a resolver of their own", () => {
  const schema = buildGraphqlSchema();
  const resolved = new Set(getMetadataStorage().fieldResolvers.map((field) => `${field.getObjectType?.()?.name}.${field.schemaName}`));
  const wrapped: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || type.name.startsWith("__") || [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()].includes(type))
      continue;
    for (const field of Object.values(type.getFields())) {
      const objectClass = getMetadataStorage().objectTypes.find((object) => object.name === type.name)?.target.name;
      if (field.resolve && !resolved.has(`${objectClass}.${field.name}`)) wrapped.push(`${type.name}.${field.name}`);
    }
  }
  expect(wrapped).toEqual([]);
});
