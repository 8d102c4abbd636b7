import { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { inject } from "vitest";
import { openDatabase, type DatabaseHandle } from "../../src/platform/db/database.js";
import { withDatabase } from "./global-setup.js";

/** Tables filled by migrations (reference data) that a reset keeps. */
const SEEDED_TABLES = new Set<string>(["subscription_plans"]);

let shared: Promise<DatabaseHandle> | undefined;

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
    return openDatabase({ databaseUrl: withDatabase(url, name), maxConnections: 10 });
  }
  const handle = openDatabase({ pglite: new PGlite() });
  await handle.migrate();
  return handle;
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

/** postgres.js returns an array; PGlite an object with `rows`. */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows: T[] }).rows ?? []);
}
