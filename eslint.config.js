import { readdirSync } from "node:fs";
import { URL } from "node:url";
import js from "@eslint/js";
import tseslint from "typescript-eslint";

// The modules, lowest first: a module imports only the modules before it (architecture.md, "The house"). access and
// events sit below every domain module (a write asks access, then emits); the domain runs one way, users ← billing ←
// coaching ← content ← executions; the read models sit above what they read; the consumers of events (the change
// feed, webhooks, live updates) and privacy on top. A new module must be placed here (lint fails on one that is not).
const LAYERS = [
  "access",
  "events",
  "users",
  "billing",
  "coaching",
  "exercises",
  "trainings",
  "training-plans",
  "executions",
  "records",
  "adherence",
  "dashboard",
  "developer",
  "sync",
  "webhooks",
  "live-updates",
  "privacy",
];
const modules = readdirSync(new URL("./src/modules/", import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);
const unplaced = modules.filter((module) => !LAYERS.includes(module));
if (unplaced.length > 0) throw new Error(`eslint.config.js: place ${unplaced.join(", ")} in LAYERS`);

export default tseslint.config(
  // client/api-types.ts is generated (npm run openapi:types).
  { ignores: ["dist/", "data/", "node_modules/", "drizzle/", "client/api-types.ts"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    // src/graphql is a toolkit the modules use (page types, scalars, enums, errors, limits, uploads, the context's
    // type); the schema and the loaders are assembled from the modules at the top (src/graphql-schema.ts,
    // src/graphql-api.ts, which fills the context's services and loaders in).
    files: ["src/graphql/**/*.ts"],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            {
              group: ["**/modules/**", "**/services.js", "**/graphql-schema.js", "**/graphql-api.js", "**/app.js"],
              message: "src/graphql is a toolkit: what needs the modules is assembled in src/graphql-schema.ts or src/graphql-api.ts.",
            },
          ],
        },
      ],
    },
  },
  // A module reaches another module's data through that module's service (one call per need, which holds the access
  // checks and answers its own not-found texts), never through its repository. SQL a query composes across modules
  // comes from the owner's *.table.ts or *.fragments.ts. `access` (every visibility and ownership rule) sits below
  // every module: it reads src/tables and src/platform only.
  ...modules.map((module) => ({
    files: [`src/modules/${module}/**/*.ts`],
    rules: {
      "no-restricted-imports": [
        "error",
        {
          patterns: [
            ...LAYERS.slice(LAYERS.indexOf(module) + 1).map((above) => ({
              group: [`**/${above}/**`],
              message: `${module} may import only the modules below it (LAYERS in eslint.config.js): ${above} is above it. A module above hears of its changes through events, or is given to it by the composition root (src/services.ts).`,
            })),
            {
              group: modules.filter((other) => other !== module).map((other) => `**/${other}/**/*.repository.js`),
              message: `${module} may not import another module's repository: call that module's service (injected in src/services.ts), or compose SQL from src/tables, access or the owner's *.fragments.ts.`,
            },
          ],
        },
      ],
    },
  })),
  {
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
  {
    // CommonJS where it must run on a Node.js older than the project's (scripts/require-node.cjs).
    files: ["scripts/**/*.cjs"],
    languageOptions: { sourceType: "commonjs", globals: { process: "readonly", console: "readonly", require: "readonly", module: "writable" } },
    rules: { "@typescript-eslint/no-require-imports": "off" },
  },
);
