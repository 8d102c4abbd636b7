import { existsSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { lexicographicSortSchema, printSchema } from "graphql";
import { rootDir } from "../platform/db/paths.js";
import { buildGraphqlSchema } from "./build-schema.js";

/** The committed schema.graphql text: sorted, so it changes only when the schema does. */
export function schemaText(): string {
  return `# Generated from the code by \`npm run schema:emit\`; do not edit.\n\n${printSchema(lexicographicSortSchema(buildGraphqlSchema()))}\n`;
}

if (process.argv[1] && path.resolve(process.argv[1]).replace(/\.[jt]s$/, "") === import.meta.filename.replace(/\.[jt]s$/, "")) {
  const file = path.join(rootDir, "schema.graphql");
  if (process.argv.includes("--check")) {
    if (!existsSync(file) || readFileSync(file, "utf8") !== schemaText()) {
      console.error("schema.graphql is stale: run `npm run schema:emit` and commit it");
      process.exit(1);
    }
  } else {
    writeFileSync(file, schemaText());
    console.log("schema.graphql written");
  }
}
