// `npm run check` (last step): fails when schema.graphql, client/api-types.ts or drizzle/ differ from what the code generates.
import { execFileSync } from "node:child_process";
import { cpSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const bin = (name) => path.join(root, "node_modules", ".bin", name);
let stale = false;

try {
  execFileSync(bin("tsx"), ["src/graphql-schema.ts", "--check"], { cwd: root, stdio: "inherit" });
} catch {
  stale = true;
}

try {
  execFileSync(bin("tsx"), ["scripts/openapi.ts", "--check"], { cwd: root, stdio: "inherit" });
} catch {
  stale = true;
}

// Generate into a copy of drizzle/: any new migration file means the committed ones lag behind the tables.
const scratch = mkdtempSync(path.join(tmpdir(), "drizzle-check-"));
try {
  cpSync(path.join(root, "drizzle"), scratch, { recursive: true });
  const before = readdirSync(scratch).length;
  execFileSync(
    bin("drizzle-kit"),
    ["generate", "--dialect=postgresql", "--schema=./src/platform/**/*.table.ts", "--schema=./src/tables/*.table.ts", `--out=${scratch}`],
    { cwd: root, stdio: "pipe" },
  );
  if (readdirSync(scratch).length !== before) {
    console.error("drizzle/ is stale: run `npm run db:generate` and commit the new migration");
    stale = true;
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}

if (stale) process.exit(1);
console.log("schema.graphql, client/api-types.ts and drizzle/ are up to date");
