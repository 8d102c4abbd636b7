// `npm start`: builds the service when dist/ is missing or older than the sources, then runs it.
import "./require-node.cjs";
import { execFileSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const entry = path.join(root, "dist", "src", "main.js");

function newestSource(dir) {
  let newest = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestSource(full) : statSync(full).mtimeMs);
  }
  return newest;
}

const sourcesChanged = () =>
  Math.max(...["src", "rest-compat"].map((d) => newestSource(path.join(root, d))), statSync(path.join(root, "package.json")).mtimeMs) > statSync(entry).mtimeMs;

if (!existsSync(entry) || sourcesChanged()) {
  console.log("building…");
  execFileSync(process.execPath, [path.join(root, "node_modules", "typescript", "bin", "tsc"), "-p", path.join(root, "tsconfig.build.json")], {
    stdio: "inherit",
  });
}
await import(pathToFileURL(entry).href);
