import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { openDatabase } from "../../src/platform/db/database.js";
import { openapiCoverageDir } from "./openapi-coverage-reporter.js";
import { startPgBouncer } from "./pgbouncer.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** With DATABASE_URL: a migrated database each worker clones its own from. */
    pgTemplate: string | null;
    /**
     * With DATABASE_POOL_MODE=transaction too: the run's PgBouncer in `pool_mode = transaction` in front of the server,
     * as DATABASE_URL with the pooler's host and port, which the service's handles go through (database.ts).
     */
    pgPooler: string | null;
    /** Where each worker writes the OpenAPI operations and statuses its tests reached (openapi-coverage-reporter.ts). */
    openapiCoverageDir: string;
  }
}

const PREFIX = "fitness_test_";

/**
 * With DATABASE_URL set, migrates a template database once for the run; workers clone it (see database.ts). With
 * DATABASE_POOL_MODE=transaction as well, starts a PgBouncer in transaction mode in front of the server for the run.
 */
export default async function setup(project: TestProject) {
  project.provide("openapiCoverageDir", openapiCoverageDir(process.pid));
  const url = process.env.DATABASE_URL;
  // The suite's pool mode reaches the tests as pgPooler; each process a test starts is told its own (database.ts), and
  // one on PGlite must not inherit a pool mode without the direct URL that goes with it.
  const pooled = process.env.DATABASE_POOL_MODE === "transaction";
  delete process.env.DATABASE_POOL_MODE;
  if (!url) {
    project.provide("pgTemplate", null);
    project.provide("pgPooler", null);
    return;
  }
  const admin = postgres(url, { max: 1, onnotice: () => undefined });
  await dropLeftovers(admin);
  const template = `${PREFIX}${process.pid}_tpl`;
  await admin.unsafe(`create database "${template}"`);
  const handle = await openDatabase({ databaseUrl: withDatabase(url, template), maxConnections: 1 });
  await handle.migrate();
  await handle.close();
  project.provide("pgTemplate", template);
  const bouncer = pooled ? await startPgBouncer(url) : undefined;
  project.provide("pgPooler", bouncer?.urlFor(url) ?? null);

  return async () => {
    await bouncer?.stop();
    const rows = await admin`select datname from pg_database where datname like ${`${PREFIX}${process.pid}_%`}`;
    for (const { datname } of rows) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    await admin.end();
  };
}

/** Databases of earlier runs whose process is gone (a run killed before its teardown). */
async function dropLeftovers(admin: postgres.Sql) {
  const rows = await admin`select datname from pg_database where datname like ${`${PREFIX}%`}`;
  for (const { datname } of rows) {
    const pid = Number(/^fitness_test_(\d+)_/.exec(datname)?.[1]);
    if (pid && !isAlive(pid)) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function withDatabase(url: string, database: string): string {
  const parsed = new URL(url);
  parsed.pathname = `/${database}`;
  return parsed.toString();
}
