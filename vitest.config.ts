import { defineConfig } from "vitest/config";

export default defineConfig({
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
    reporters: ["default"],
  },
});
