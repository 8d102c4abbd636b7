import js from "@eslint/js";
import tseslint from "typescript-eslint";

export default tseslint.config(
  { ignores: ["dist/", "data/", "node_modules/", "drizzle/"] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      "@typescript-eslint/no-unused-vars": ["error", { argsIgnorePattern: "^_", varsIgnorePattern: "^_" }],
      "no-console": "off",
    },
  },
  {
    // src/graphql is a toolkit the modules use (page types, scalars, enums, errors, limits, uploads); the schema, the
    // context and the loaders are assembled from the modules at the top (src/graphql-schema.ts, src/graphql-api.ts).
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
  {
    files: ["tests/**/*.ts"],
    rules: { "@typescript-eslint/no-explicit-any": "off", "@typescript-eslint/no-non-null-assertion": "off" },
  },
  {
    files: ["scripts/**/*.mjs"],
    languageOptions: { globals: { process: "readonly", console: "readonly" } },
  },
);
