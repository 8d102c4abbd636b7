import { mkdtempSync, rmSync } from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { createApp, type App } from "../src/app.js";
import { systemClock } from "../src/platform/clock.js";
import { loadConfig } from "../src/platform/config.js";
import { openDatabase, type DatabaseHandle } from "../src/platform/db/database.js";
import { createLogger } from "../src/platform/logger.js";
import { scratchDatabase, type ScratchDatabase } from "./support.js";

/** The app's token secret: a service started beside it (bench/api/servers.ts) with this one accepts its tokens. */
export const BENCH_JWT_SECRET = "bench-secret-that-is-long-enough-for-hs256-0123456789";

export interface BenchApp {
  base: URL;
  app: App;
  database: DatabaseHandle;
  databaseKind: string;
  /** The scratch PostgreSQL database's URL (for seeding it directly); undefined on PGlite. */
  databaseUrl?: string;
  close(): Promise<void>;
}

/**
 * The real app booted in this process for a benchmark, on an in-memory PGlite or, with DATABASE_URL, on a scratch
 * PostgreSQL database created for the run and dropped by `close()` (never the database the URL names).
 */
export async function startBenchApp(env: Record<string, string> = {}): Promise<BenchApp> {
  const scratch = process.env.DATABASE_URL ? scratchDatabase("fitness_bench") : undefined;
  await scratch?.create();
  const database = await openDatabase(scratch ? { databaseUrl: scratch.url } : { pglite: new PGlite() });
  await database.migrate();
  return serveBenchApp(database, scratch, env);
}

/**
 * A second instance of the service beside `first`, on the same scratch PostgreSQL database through a pool of its own
 * (as another process would be); its `close()` leaves the database to `first`'s.
 */
export async function startAnotherBenchInstance(first: BenchApp, env: Record<string, string> = {}): Promise<BenchApp> {
  if (!first.databaseUrl) throw new Error("a second instance needs PostgreSQL (DATABASE_URL)");
  return serveBenchApp(await openDatabase({ databaseUrl: first.databaseUrl }), undefined, { DATABASE_URL: first.databaseUrl, ...env });
}

async function serveBenchApp(database: DatabaseHandle, scratch: ScratchDatabase | undefined, env: Record<string, string>): Promise<BenchApp> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-bench-"));

  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const base = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    JWT_SECRET: BENCH_JWT_SECRET,
    PUBLIC_BASE_URL: base.origin,
    // Every request comes from one address: the per-address limits would otherwise answer 429.
    AUTH_RATE_LIMIT_PER_MINUTE: "1000000",
    LOGIN_FAILURES_PER_EMAIL: "1000000",
    LOG_LEVEL: "warn",
    ...(scratch ? { DATABASE_URL: scratch.url } : {}),
    ...env,
  });
  const logger = createLogger(config.logLevel);
  const app = await createApp({ config, database, clock: systemClock, logger });
  server.on("request", app.express);
  server.on("upgrade", app.sockets.upgrade);

  return {
    base,
    app,
    database,
    databaseKind:
      database.connection.kind === "postgres" ? `PostgreSQL (scratch database ${new URL(database.connection.url).pathname.slice(1)})` : database.kind,
    databaseUrl: database.connection.kind === "postgres" ? database.connection.url : undefined,
    async close() {
      // Work still queued when the app closes fails on purpose: not worth a log line each.
      logger.level = "silent";
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await app.close();
      await database.close();
      await scratch?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
