import { isEnumType, isInputObjectType, isInterfaceType, isObjectType, isSpecifiedScalarType, type GraphQLSchema } from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphqlSchema } from "../../src/graphql-schema.js";
import { useTestApp } from "../helpers/test-app.js";

const t = useTestApp();

/** Of each kind of thing a reader looks up, how many are described, and which are not. */
class Coverage {
  private readonly kinds = new Map<string, { described: number; missing: string[] }>();

  count(kind: string, name: string, description: unknown): void {
    const entry = this.kinds.get(kind) ?? { described: 0, missing: [] };
    if (typeof description === "string" && description.trim() !== "") entry.described += 1;
    else entry.missing.push(name);
    this.kinds.set(kind, entry);
  }

  /** Each kind's share described, in percent, and what is missing where the share is under `floor`. */
  below(floor: number): Record<string, { percent: number; missing: string[] }> {
    const short: Record<string, { percent: number; missing: string[] }> = {};
    for (const [kind, { described, missing }] of this.kinds) {
      const percent = (100 * described) / (described + missing.length);
      if (percent < floor) short[kind] = { percent: Math.floor(percent), missing };
    }
    return short;
  }
}

function graphqlCoverage(schema: GraphQLSchema): Coverage {
  const coverage = new Coverage();
  for (const type of Object.values(schema.getTypeMap())) {
    if (type.name.startsWith("__") || isSpecifiedScalarType(type)) continue;
    coverage.count("types", type.name, type.description);
    if (isObjectType(type) || isInterfaceType(type) || isInputObjectType(type)) {
      for (const field of Object.values(type.getFields())) {
        coverage.count("fields", `${type.name}.${field.name}`, field.description);
        for (const arg of "args" in field ? field.args : []) coverage.count("arguments", `${type.name}.${field.name}(${arg.name})`, arg.description);
      }
    }
    if (isEnumType(type)) for (const value of type.getValues()) coverage.count("enum values", `${type.name}.${value.name}`, value.description);
  }
  return coverage;
}

type Json = Record<string, any>;

function openApiCoverage(document: Json): Coverage {
  const coverage = new Coverage();
  const walkSchema = (schema: Json, at: string) => {
    for (const [name, property] of Object.entries((schema.properties ?? {}) as Json)) {
      coverage.count("properties", `${at}.${name}`, property.description);
      if (property.type === "object") walkSchema(property, `${at}.${name}`);
      if (property.items?.type === "object") walkSchema(property.items, `${at}.${name}[]`);
    }
    for (const branch of [...(schema.anyOf ?? []), ...(schema.oneOf ?? []), ...(schema.allOf ?? [])] as Json[]) walkSchema(branch, at);
  };
  for (const [name, schema] of Object.entries(document.components.schemas as Json)) {
    coverage.count("schemas", name, schema.description);
    walkSchema(schema, name);
    for (const value of (schema.enum ?? []) as string[]) coverage.count("enum values", `${name}.${value}`, schema["x-enumDescriptions"]?.[value]);
  }
  for (const [path, item] of Object.entries({ ...document.paths, ...document.webhooks } as Json)) {
    for (const [method, operation] of Object.entries(item as Json)) {
      coverage.count("operations", `${method} ${path}`, operation.description);
      for (const parameter of (operation.parameters ?? []) as Json[]) {
        if (!parameter.$ref) coverage.count("parameters", `${method} ${path} ${parameter.name}`, parameter.description);
      }
    }
  }
  return coverage;
}

describe("a schema that explains itself (issue 35)", () => {
  it("describes at least 90% of the GraphQL types, fields, arguments and enum values", () => {
    expect(graphqlCoverage(buildGraphqlSchema()).below(90)).toEqual({});
  });

  it("describes at least 90% of the OpenAPI schemas, properties, parameters, operations and enum values", async () => {
    const document = (await (await fetch(`${t.baseUrl}/api/openapi.json`)).json()) as Json;
    expect(openApiCoverage(document).below(90)).toEqual({});
  });
});
