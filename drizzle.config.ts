import { defineConfig } from "drizzle-kit";

// Tables live next to their module (`*.table.ts`); drizzle-kit reads them all.
export default defineConfig({
  dialect: "postgresql",
  schema: ["./src/platform/**/*.table.ts", "./src/modules/**/*.table.ts"],
  out: "./drizzle",
  casing: undefined,
  strict: true,
});
