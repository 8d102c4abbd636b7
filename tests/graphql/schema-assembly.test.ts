import { readdirSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { getMetadataStorage } from "type-graphql";
import { expect, it } from "vitest";
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
// documents) then cannot read it as a plain property: every @ObjectType declares `simpleResolvers: true`, so only
// @FieldResolver fields have a resolver.
it("every object type reads its plain fields as properties", () => {
  buildGraphqlSchema();
  const objectTypes = getMetadataStorage().objectTypes;
  expect(objectTypes.length).toBeGreaterThan(0);
  expect(objectTypes.filter((type) => type.simpleResolvers !== true).map((type) => type.name)).toEqual([]);
});
