import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

/** The project root: the nearest folder above this file with a package.json (same from src/ and dist/). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, "package.json"))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error("package.json not found above " + fileURLToPath(import.meta.url));
    dir = parent;
  }
  return dir;
}

export const rootDir = projectRoot();
export const migrationsFolder = path.join(rootDir, "drizzle");

/** Where the embedded database (PGlite) keeps its files under DATA_DIR. */
export const pgliteDir = (dataDir: string) => path.join(dataDir, "pglite");
