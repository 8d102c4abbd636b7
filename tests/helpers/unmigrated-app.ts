import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { Writable } from "node:stream";
import { PGlite } from "@electric-sql/pglite";
import { createApp } from "../../src/app.js";
import { createPasswordHasher } from "../../src/platform/auth/password-hasher.js";
import { ManualClock } from "../../src/platform/clock.js";
import { loadConfig } from "../../src/platform/config.js";
import { openDatabase } from "../../src/platform/db/database.js";
import { createLogger } from "../../src/platform/logger.js";

export interface UnmigratedApp {
  baseUrl: string;
  /** Captured pino lines. */
  logLines: string[];
  stop(): Promise<void>;
}

/**
 * The real app on an empty database that never got its migrations: every query fails inside the service,
 * which is a genuine way to see what an unexpected server-side failure looks like from outside.
 */
export async function startUnmigratedApp(): Promise<UnmigratedApp> {
  const pglite = new PGlite();
  const database = await openDatabase({ pglite });
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-unmigrated-"));
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: "test-secret-that-is-long-enough-for-hs256-0123456789",
    PUBLIC_BASE_URL: baseUrl,
    LOG_LEVEL: "info",
  });
  const logLines: string[] = [];
  const sink = new Writable({
    write(chunk, _encoding, callback) {
      logLines.push(String(chunk));
      callback();
    },
  });
  const hasher = createPasswordHasher({ cost: 4, threads: 1 });
  const app = await createApp({
    config,
    database,
    clock: new ManualClock(),
    logger: createLogger(config.logLevel, sink),
    hasher,
  });
  server.on("request", app.express);
  return {
    baseUrl,
    logLines,
    async stop() {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await hasher.close();
      await pglite.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
