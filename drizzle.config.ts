import { defineConfig } from "drizzle-kit";

// The domain's tables live below the modules (src/tables), the platform's next to their code; drizzle-kit reads them all.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/platform/**/*.table.ts", "./src/tables/*.table.ts"],
  out: "./drizzle",
  casing: undefined,
  strict: true,
});
