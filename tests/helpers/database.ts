import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, inject } from "vitest";
import { openDatabase, rowsOf, type DatabaseHandle, type DatabaseOptions, type Db } from "../../src/platform/db/database.js";
import { migrationsFolder } from "../../src/platform/db/paths.js";
import { withDatabase } from "./global-setup.js";

/** Tables filled by migrations (reference data) that a reset keeps. */
const SEEDED_TABLES = new Set<string>(["subscription_plans"]);

let shared: Promise<DatabaseHandle> | undefined;
/** With DATABASE_URL: the name of this worker's database. */
let workerName: string | undefined;

/**
 * This worker's database, created once and shared by every test file it runs: an in-memory PGlite by
 * default, or with DATABASE_URL a PostgreSQL database cloned from the run's migrated template.
 */
export function workerDatabase(): Promise<DatabaseHandle> {
  shared ??= open();
  return shared;
}

async function open(): Promise<DatabaseHandle> {
  const template = inject("pgTemplate");
  const url = process.env.DATABASE_URL;
  if (url && template) {
    const name = template.replace(/_tpl$/, `_w${process.env.VITEST_POOL_ID ?? "0"}`);
    const admin = postgres(url, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}" template "${template}"`);
    await admin.end();
    workerName = name;
    return openDatabase(serviceDatabase(name));
  }
  const handle = await openDatabase({ pglite: new PGlite() });
  await handle.migrate();
  return handle;
}

/**
 * This worker's database as another instance of the service sees it: on PostgreSQL a pool of its own on the same
 * database (close it when done); PGlite lives inside this process, so there the instances share the one handle.
 */
export async function anotherConnectionToWorkerDatabase(): Promise<{ handle: DatabaseHandle; close(): Promise<void> }> {
  const handle = await workerDatabase();
  if (!workerName) return { handle, close: async () => undefined };
  const own = await openDatabase(serviceDatabase(workerName));
  return { handle: own, close: () => own.close() };
}

/**
 * With DATABASE_URL: how the service opens the server's database `name` in this run: directly, or when the run has a
 * PgBouncer (DATABASE_POOL_MODE=transaction, global-setup.ts) through it in transaction mode with the direct URL beside,
 * for what lives in a session (migrations, LISTEN, the job engine), as a deployment behind a pooler does.
 */
export function serviceDatabase(name: string, maxConnections = 10): DatabaseOptions {
  const direct = withDatabase(process.env.DATABASE_URL!, name);
  const pooler = inject("pgPooler");
  if (!pooler) return { databaseUrl: direct, maxConnections };
  return { databaseUrl: withDatabase(pooler, name), poolMode: "transaction", directUrl: direct, maxConnections };
}

/** serviceDatabase(name) as a service process's environment: DATABASE_URL, DATABASE_POOL_MODE and DATABASE_DIRECT_URL. */
export function serviceDatabaseEnv(name: string): Record<string, string> {
  const options = serviceDatabase(name);
  return { DATABASE_URL: options.databaseUrl!, DATABASE_POOL_MODE: options.poolMode ?? "", DATABASE_DIRECT_URL: options.directUrl ?? "" };
}

/**
 * With DATABASE_URL: a database of the file's own, `<template>_<suffix>`, cloned from the run's migrated template before
 * the tests of the describe block it is called in and dropped after them, for service processes the tests start and
 * stop (crash, connection loss): `env()` is their database's environment (serviceDatabaseEnv); `admin()` is a direct
 * connection to the server for what the tests do to it.
 */
export function useTemplateClone(suffix: string): { name: string; env: () => Record<string, string>; admin: () => postgres.Sql } {
  const name = `${inject("pgTemplate") ?? "fitness"}_${suffix}`;
  let admin: postgres.Sql | undefined;
  beforeAll(async () => {
    admin = postgres(process.env.DATABASE_URL!, { max: 1, onnotice: () => undefined });
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.unsafe(`create database "${name}" template "${inject("pgTemplate")}"`);
  });
  afterAll(async () => {
    await admin?.unsafe(`drop database if exists "${name}" with (force)`);
    await admin?.end();
  });
  return { name, env: () => serviceDatabaseEnv(name), admin: () => admin! };
}

let tables: string[] | undefined;

/** Empties every table but the seeded ones, restarting ids, so each test starts from the migrated state. */
export async function resetDatabase(handle: DatabaseHandle): Promise<void> {
  if (!tables) {
    const rows = await handle.db.execute<{ tablename: string }>(sql`select tablename from pg_tables where schemaname = 'public'`);
    tables = rowsOf<{ tablename: string }>(rows)
      .map((row) => row.tablename)
      .filter((name) => !SEEDED_TABLES.has(name));
  }
  if (tables.length === 0) return;
  await handle.db.execute(sql.raw(`truncate ${tables.map((t) => `"${t}"`).join(", ")} restart identity cascade`));
}

export { rowsOf };

/** Runs again, on `db`, the statements of the migration whose name ends in `name`, as the migrator would (a backfill). */
export async function runMigration(db: Db, name: string): Promise<void> {
  const file = readdirSync(migrationsFolder).find((entry) => entry.endsWith(`_${name}.sql`));
  if (!file) throw new Error(`no migration ${name}`);
  const statements = readFileSync(path.join(migrationsFolder, file), "utf8").split("--> statement-breakpoint");
  for (const statement of statements) if (statement.trim()) await db.execute(sql.raw(statement));
}
