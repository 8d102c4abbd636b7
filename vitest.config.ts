import { createRequire } from "node:module";
import { defineConfig } from "vitest/config";

export default defineConfig({
  resolve: {
    // The one graphql Node loads (its CommonJS build: the package has `main` only), which type-graphql and Apollo
    // use; Vite alone would pick its `module` build, a second copy whose type checks refuse the schema's types.
    alias: [{ find: /^graphql$/, replacement: createRequire(import.meta.url).resolve("graphql") }],
  },
  test: {
    include: ["tests/**/*.test.ts"],
    globalSetup: ["tests/helpers/global-setup.ts"],
    // One database per worker, shared by the files it runs (PGlite takes seconds to start); data is reset per test.
    pool: "forks",
    poolOptions: { forks: { maxForks: 2, minForks: 1 } },
    isolate: false,
    fileParallelism: true,
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // The second lists, after a whole-suite run, the OpenAPI operations and statuses no test reached.
    reporters: ["default", "./tests/helpers/openapi-coverage-reporter.ts"],
  },
});
