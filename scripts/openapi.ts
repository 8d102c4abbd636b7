/**
 * The OpenAPI document as the app serves it (GET /api/openapi.json), for tools that need it as a file:
 * - `tsx scripts/openapi.ts` writes client/api-types.ts (openapi-typescript) from it;
 * - `--check` fails when client/api-types.ts is stale;
 * - `--print` writes the document to the standard output;
 * - `--lint` runs Redocly's recommended rules on it (redocly.yaml), warnings failing too.
 * The app is booted in this process on an in-memory PGlite, with its own data directory, and stopped.
 */
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import { createApp } from "../src/app.js";
import { systemClock } from "../src/platform/clock.js";
import { loadConfig } from "../src/platform/config.js";
import { openDatabase } from "../src/platform/db/database.js";
import { createLogger } from "../src/platform/logger.js";
import { clientTypesOf } from "./client-types.js";

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");
const TYPES_FILE = path.join(root, "client", "api-types.ts");
/** The server URL written in the document: a deployment's (RFC 2606 reserves `.invalid`), as lint refuses localhost. */
const PUBLIC_BASE_URL = "https://fitness.invalid";

async function servedDocument(scratch: string): Promise<string> {
  const database = await openDatabase({ pglite: new PGlite() });
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: scratch,
    JWT_SECRET: "openapi-document-secret-long-enough-0123456789",
    PUBLIC_BASE_URL,
    LOG_LEVEL: "warn",
  });
  const app = await createApp({ config, database, clock: systemClock, logger: createLogger(config.logLevel) });
  try {
    return await new Promise<string>((resolve, reject) => {
      const server = app.express.listen(0, "127.0.0.1", () => {
        const { port } = server.address() as { port: number };
        fetch(`http://127.0.0.1:${port}/api/openapi.json`)
          .then((answer) => answer.text())
          .then(resolve, reject)
          .finally(() => server.close());
      });
    });
  } finally {
    await app.close();
    await database.close();
  }
}

const scratch = mkdtempSync(path.join(tmpdir(), "fitness-openapi-"));
try {
  const document = await servedDocument(scratch);
  if (process.argv.includes("--print")) process.stdout.write(document);
  else if (process.argv.includes("--lint")) {
    const file = path.join(scratch, "openapi.json");
    writeFileSync(file, document);
    execFileSync(path.join(root, "node_modules", ".bin", "redocly"), ["lint", file, "--config", path.join(root, "redocly.yaml"), "--max-problems", "1000"], {
      stdio: "inherit",
    });
  } else if (process.argv.includes("--check")) {
    let current = "";
    try {
      current = readFileSync(TYPES_FILE, "utf8");
    } catch {
      // Missing: stale.
    }
    if (current !== (await clientTypesOf(document, TYPES_FILE))) {
      console.error("client/api-types.ts is stale: run `npm run openapi:types` and commit it");
      process.exitCode = 1;
    } else console.log("client/api-types.ts is up to date");
  } else {
    writeFileSync(TYPES_FILE, await clientTypesOf(document, TYPES_FILE));
    console.log(`wrote ${path.relative(root, TYPES_FILE)}`);
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
