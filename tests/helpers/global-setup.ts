import type { TestProject } from "vitest/node";
import postgres from "postgres";
import { openDatabase } from "../../src/platform/db/database.js";
import { openapiCoverageDir } from "./openapi-coverage-reporter.js";

declare module "vitest" {
  export interface ProvidedContext {
    /** With DATABASE_URL: a migrated database each worker clones its own from. */
    pgTemplate: string | null;
    /** Where each worker writes the OpenAPI operations and statuses its tests reached (openapi-coverage-reporter.ts). */
    openapiCoverageDir: string;
  }
}

const PREFIX = "fitness_test_";

/** With DATABASE_URL set, migrates a template database once for the run; workers clone it (see database.ts). */
export default async function setup(project: TestProject) {
  project.provide("openapiCoverageDir", openapiCoverageDir(process.pid));
  const url = process.env.DATABASE_URL;
  if (!url) {
    project.provide("pgTemplate", null);
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

  return async () => {
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
