import { readFileSync } from "node:fs";
import path from "node:path";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { readMigrationFiles, type MigrationMeta } from "drizzle-orm/migrator";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { BusCarrier } from "../instance-bus.js";
import { DEFAULT_CONNECT_TIMEOUT_MS, type Config } from "../config.js";
import { inSpan, statementAttributes, tracingEnabled } from "../tracing.js";
import { MIGRATION_LOCK_ID } from "./advisory-locks.js";
import { untypedValue } from "./untyped-values.js";
import { postgresCarrier } from "./postgres-bus-carrier.js";
import type { DataDirClaim } from "./data-dir-claim.js";
import { migrationsFolder } from "./paths.js";
import { ReadRouting, type ReplicaPool } from "./read-routing.js";

/** A Drizzle database or a transaction on it: repositories take either. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Db = PgDatabase<PgQueryResultHKT, any, any>;

/**
 * The driver under Drizzle, for what needs its own access to the same database (the job engine). On PostgreSQL the
 * direct connection when there is one; `sessions` false: only a transaction-mode pooler, where nothing may LISTEN.
 */
export type DatabaseConnection = { kind: "postgres"; url: string; sessions: boolean; waits: DatabaseWaits } | { kind: "pglite"; pglite: PGlite };

export interface DatabaseHandle {
  db: Db;
  kind: "pglite" | "postgres";
  connection: DatabaseConnection;
  /** Applies every migration of `drizzle/` not applied yet; safe when several instances start together. */
  migrate(): Promise<void>;
  /** True when the database answers and the migrations are applied. */
  isReady(): Promise<boolean>;
  /**
   * Calls `listener` with every SQL statement sent, and its bound parameters, until the returned function is called
   * (tests count queries; bench:intelligence also explains them).
   */
  observeQueries(listener: (statement: string, params: unknown[]) => void): () => void;
  /** LISTEN/NOTIFY as the instance bus's carrier: every instance on this database hears every payload. */
  busCarrier(): BusCarrier;
  /** PGlite on a directory (not handed in): this process's claim on it, whose admin socket takes others' commands. */
  dataDirClaim?: DataDirClaim;
  close(): Promise<void>;
}

export interface DatabaseOptions {
  databaseUrl?: string;
  dataDir?: string;
  /** An already started PGlite (tests share one per worker). */
  pglite?: PGlite;
  maxConnections?: number;
  /** PostgreSQL: the distinct statement texts kept prepared (MAX_PREPARED_TEXTS unless said). */
  maxPreparedTexts?: number;
  /** `transaction`: `databaseUrl` is a transaction-mode pooler, which keeps no statement prepared between transactions. */
  poolMode?: "session" | "transaction";
  /**
   * Where what lives in a session goes (migrations and their lock, LISTEN, the job engine); `databaseUrl` unless said
   * or pooled. Pooled without it (the instance bus on Redis), migrations take a transaction's lock and the job engine polls.
   */
  directUrl?: string;
  /** DATABASE_CONNECT_TIMEOUT_MS: how long a statement waits for a connection (DEFAULT_CONNECT_TIMEOUT_MS unless said). */
  connectTimeoutMs?: number;
  /** Streaming replicas of `databaseUrl` for reads that may be a few seconds stale (read-routing.ts); each a pool of `maxConnections`. */
  replicaUrls?: readonly string[];
  /** A replica further behind than this serves nothing. */
  replicaMaxLagMs?: number;
}

/** The longest pause postgres.js makes between two attempts to reconnect (its own grows to 20 s). */
const MAX_RECONNECT_DELAY_SECONDS = 1;
/** A server silent this long while a statement waits on it is asked whether it is still there (`probe_after`, patches/). */
const SILENCE_PROBE_SECONDS = 1;

/** What every postgres.js client of the service is given, so that none waits on an unreachable database for long. */
export type DatabaseWaits = Pick<postgres.Options<never>, "connect_timeout" | "backoff"> & { queue_timeout: number; probe_after: number };

/**
 * The waits of every postgres.js client (the pool, the listener, the migrations' and the job engine's): a host that
 * does not answer is given up after `connectTimeoutMs` (the next one of a multi-host URL is tried); a statement that
 * finds no connection within as long (every host refused or silent, or the pool taken) fails with CONNECT_TIMEOUT,
 * a 503, unsent (`queue_timeout`, patches/); reconnects are tried at most a second apart, so the service is back
 * within about a second of its database. A statement already sent is not timed, as it may be a slow one: when its
 * server has said nothing for a second, a new connection asks the server whether it is there (an SSLRequest, answered
 * at once by a live postmaster), and without an answer in 2 s the connection is closed, its statements failing with
 * CONNECTION_CLOSED (a host gone from the network sends no reset, and TCP would wait many minutes).
 */
export function databaseWaits(connectTimeoutMs = DEFAULT_CONNECT_TIMEOUT_MS): DatabaseWaits {
  return {
    connect_timeout: connectTimeoutMs / 1000,
    queue_timeout: connectTimeoutMs / 1000,
    probe_after: SILENCE_PROBE_SECONDS,
    // postgres.js's own curve (3^n / 100 s, halved at random), capped.
    backoff: (attempt: number) => (0.5 + Math.random() / 2) * Math.min(3 ** attempt / 100, MAX_RECONNECT_DELAY_SECONDS),
  };
}

/** The database the configuration names, as the service's processes open it. */
export function configuredDatabase(config: Config): DatabaseOptions {
  return {
    databaseUrl: config.databaseUrl,
    dataDir: config.dataDir,
    maxConnections: config.databasePoolSize,
    poolMode: config.databasePoolMode,
    directUrl: config.databaseDirectUrl,
    connectTimeoutMs: config.databaseConnectTimeoutMs,
    replicaUrls: config.databaseReplicaUrls,
    replicaMaxLagMs: config.databaseReplicaMaxLagMs,
  };
}

/** PostgreSQL at `databaseUrl`, else PGlite, whose code is loaded only then. */
export async function openDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  if (options.databaseUrl) return openPostgres(options.databaseUrl, options);
  const { openPglite } = await import("./pglite-database.js");
  return openPglite(options);
}

/** Drizzle's query logger, fanned out to whoever observes the statements (nobody, outside tests). */
export function queryObservers() {
  const listeners = new Set<(statement: string, params: unknown[]) => void>();
  return {
    logger: { logQuery: (statement: string, params: unknown[]) => listeners.forEach((listener) => listener(statement, params)) },
    observeQueries(listener: (statement: string, params: unknown[]) => void) {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
  };
}

/**
 * How postgres.js talks through a transaction-mode pooler, which hands each transaction whichever server session is
 * free: no named statement, as one prepared in a transaction's session is gone, or another client's, in the next
 * (every statement goes unnamed, postgres.js's own begin and commit too, parsed each time: statementGate). Statements
 * may still follow one another on a connection before their answers (postgres.js's pipelining, which PgBouncer
 * follows by counting Syncs) because none is sent in two steps: a statement whose values need the server's types first
 * sends its parse and describe ending in a Flush, and PgBouncer before 1.21 gave the server session to another client
 * as the statement before it ended, dropping the describe's answer and hanging the connection. Every value here goes
 * without a type instead (untypedValue; tests/platform/pooler.test.ts).
 */
export const THROUGH_TRANSACTION_POOLER = { prepare: false } as const;

function openPostgres(url: string, options: DatabaseOptions): DatabaseHandle {
  const pooled = options.poolMode === "transaction";
  const directUrl = options.directUrl ?? (pooled ? undefined : url);
  const waits = databaseWaits(options.connectTimeoutMs);
  const client = postgres(url, { ...waits, max: options.maxConnections ?? 10, onnotice: () => undefined, ...(pooled ? THROUGH_TRANSACTION_POOLER : {}) });
  const observers = queryObservers();
  const primary = preparingStatements(client, statementGate(options));
  const routing = options.replicaUrls?.length
    ? new ReadRouting(
        primary,
        options.replicaUrls.map((replicaUrl) => openReplica(replicaUrl, options)),
        options.replicaMaxLagMs ?? DEFAULT_REPLICA_MAX_LAG_MS,
      )
    : undefined;
  const db = drizzlePostgres(routing?.recordingWrites() ?? primary, { logger: observers.logger }) as unknown as Db;
  routing?.serve(db, drizzlePostgres(routing.routingReads(), { logger: observers.logger }) as unknown as Db);
  return {
    db,
    kind: "postgres",
    connection: { kind: "postgres", url: directUrl ?? url, sessions: directUrl !== undefined, waits },
    async migrate() {
      if (!directUrl) return migrateInOneTransaction(client);
      // A dedicated single connection holds the advisory lock for the whole run.
      const lockClient = postgres(directUrl, { ...waits, max: 1, onnotice: () => undefined });
      try {
        await lockClient`select pg_advisory_lock(${MIGRATION_LOCK_ID})`;
        await migratePostgres(drizzlePostgres(lockClient), { migrationsFolder });
        await lockClient`select pg_advisory_unlock(${MIGRATION_LOCK_ID})`;
      } finally {
        await lockClient.end();
      }
    },
    isReady: () => migrationsApplied(db),
    observeQueries: observers.observeQueries,
    busCarrier: () => postgresCarrier(directUrl ?? url, primary, BUS_CHANNEL, waits),
    async close() {
      await routing?.close();
      await client.end({ timeout: 5 });
    },
  };
}

/** The lag past which a replica serves nothing, unless said (contract §17). */
const DEFAULT_REPLICA_MAX_LAG_MS = 10_000;
/** A replica that does not answer a connection this soon is taken as down (its reads go to the primary meanwhile). */
const REPLICA_CONNECT_TIMEOUT_S = 2;

/** Which statement texts a query pool keeps prepared: none behind a transaction-mode pooler. */
function statementGate(options: DatabaseOptions): (text: string) => boolean {
  return options.poolMode === "transaction" ? () => false : preparedTextGate(options.maxPreparedTexts ?? MAX_PREPARED_TEXTS);
}

/** A replica's query pool, of the primary's size and pool mode (a replica may sit behind a pooler of its own), named `host:port`. */
function openReplica(url: string, options: DatabaseOptions): ReplicaPool {
  const client = postgres(url, {
    // Bounded as the primary's (a silent replica fails its statements, which the primary then answers), and given up sooner.
    ...databaseWaits(options.connectTimeoutMs),
    max: options.maxConnections ?? 10,
    connect_timeout: REPLICA_CONNECT_TIMEOUT_S,
    onnotice: () => undefined,
    ...(options.poolMode === "transaction" ? THROUGH_TRANSACTION_POOLER : {}),
  });
  // Drizzle sets its type parsers on the client it is given: the replica's rows must come back as the primary's do.
  drizzlePostgres(client);
  return { name: replicaName(url), client: preparingStatements(client, statementGate(options)) };
}

/** `host:port` of a connection string (the port PostgreSQL's default when it names none). */
export function replicaName(url: string): string {
  const host = /^postgres(?:ql)?:\/\/(?:[^@/]*@)?([^/?]+)/.exec(url)?.[1] ?? url;
  return /:\d+$/.test(host) ? host : `${host}:5432`;
}

/**
 * The migrations through a transaction-mode pooler, where no lock outlives a transaction: one transaction holds the
 * migration lock and applies them all (Drizzle's migrator reads the last applied one, then opens a transaction of its
 * own, which here is this one).
 */
async function migrateInOneTransaction(client: postgres.Sql): Promise<void> {
  await drizzlePostgres(client).transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`);
    const { dialect, session } = tx as unknown as { dialect: MigratingDialect; session: MigratingSession };
    const inThisTransaction = {
      execute: session.execute.bind(session),
      all: session.all.bind(session),
      transaction: (run: (inner: unknown) => Promise<void>) => run(tx),
    };
    await dialect.migrate(readMigrationFiles({ migrationsFolder }), inThisTransaction, { migrationsFolder });
  });
}

/** What Drizzle's migrator uses of a dialect and a session (internals of drizzle-orm/pg-core/dialect.js). */
interface MigratingSession {
  execute(query: unknown): Promise<unknown>;
  all(query: unknown): Promise<unknown[]>;
}
interface MigratingDialect {
  migrate(
    migrations: MigrationMeta[],
    session: MigratingSession & { transaction(run: (tx: unknown) => Promise<void>): Promise<void> },
    config: object,
  ): Promise<void>;
}

/** The PostgreSQL channel the instance bus's payloads travel on (its topics are inside them). */
export const BUS_CHANNEL = "instance_bus";

/**
 * Statement texts kept prepared on each connection, at most. Some texts follow the request (the JSON keys a GraphQL
 * selection reads, an id list's length), and postgres.js never forgets a prepared text while its connection lives:
 * past this many distinct texts, a new one runs unprepared, so no series of requests grows every backend's plan cache
 * without bound.
 */
export const MAX_PREPARED_TEXTS = 1_000;

/** Whether a text may be kept prepared: it is one of the first `max` distinct texts `seen` (a database handle's set). */
export function preparedTextGate(max: number, seen = new Set<string>()): (text: string) => boolean {
  return (text) => {
    if (seen.has(text)) return true;
    if (seen.size >= max) return false;
    seen.add(text);
    return true;
  };
}

/**
 * The client with every parameterized statement prepared once per connection and reused. Drizzle hands postgres.js
 * its unnamed queries with `prepare: false`, which postgres.js sends in two round trips (parse and describe, wait for
 * the parameter types, then bind and execute) and PostgreSQL parses and plans every time. Our statements are a set of
 * texts with bound values (an `in` list adds one text per list length, a content tree one per set of JSON keys a
 * selection reads), and postgres.js retires each connection
 * after 30 to 60 minutes, so the per-connection caches stay small; statements without parameters still go as simple
 * queries. Transactions and savepoints hand out their own clients, which get the same treatment. Texts past the first
 * MAX_PREPARED_TEXTS the handle has seen, and every text behind a transaction-mode pooler, run unprepared (`mayPrepare`),
 * in one round trip, their values untyped (untypedValue).
 */
function preparingStatements(client: postgres.Sql, mayPrepare: (text: string) => boolean): postgres.Sql {
  type Unsafe = postgres.Sql["unsafe"];
  type Scoped = (...args: unknown[]) => unknown;
  const withScopedClient =
    (open: Scoped): Scoped =>
    (...args) => {
      const callback = args.pop() as (scoped: postgres.Sql) => unknown;
      return open(...args, (scoped: postgres.Sql) => callback(preparingStatements(scoped, mayPrepare)));
    };
  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === "unsafe") {
        return ((query, parameters, options) => {
          if (mayPrepare(query)) return traced(target.unsafe(query, parameters, { ...options, prepare: true }), query);
          // `describe: false` is ours (patches/postgres+3.4.9.patch): bind and execute without waiting for the types.
          const untyped = parameters?.map(untypedValue) as typeof parameters;
          return traced(target.unsafe(query, untyped, { ...options, prepare: false, describe: false } as object), query);
        }) as Unsafe;
      }
      if (property === "begin" || property === "savepoint") return withScopedClient((Reflect.get(target, property) as Scoped).bind(target));
      return Reflect.get(target, property, receiver) as unknown;
    },
  });
}

/**
 * With tracing on, a span for the statement from when it is sent to when its rows are in. postgres.js runs a query
 * when it is first awaited, after Drizzle has picked its result mode (`.values()` answers the query itself), so the
 * span wraps that query's own `then` and the query object stays what Drizzle expects.
 */
function traced<Query extends PromiseLike<unknown>>(query: Query, text: string): Query {
  if (!tracingEnabled()) return query;
  const run = query.then.bind(query);
  (query as { then: PromiseLike<unknown>["then"] }).then = (done, failed) =>
    inSpan(`${statementAttributes(text)["db.operation.name"]} postgresql`, statementAttributes(text), () => Promise.resolve(run())).then(done, failed);
  return query;
}

/** The rows of `db.execute`'s answer, whichever driver gave it (postgres.js: the rows; PGlite: `{ rows }`). */
export function rowsOf<T>(result: unknown): T[] {
  return Array.isArray(result) ? (result as T[]) : ((result as { rows?: T[] }).rows ?? []);
}

/** Ready when every migration of `drizzle/` is recorded as applied. */
export async function migrationsApplied(db: Db): Promise<boolean> {
  try {
    const result = await db.execute(sql`select count(*)::int as applied from drizzle.__drizzle_migrations`);
    const rows = rowsOf<{ applied: number }>(result);
    return Number(rows[0]?.applied) >= expectedMigrations();
  } catch {
    return false;
  }
}

let journalEntries: number | undefined;
function expectedMigrations(): number {
  journalEntries ??= (JSON.parse(readFileSync(path.join(migrationsFolder, "meta", "_journal.json"), "utf8")) as { entries: unknown[] }).entries.length;
  return journalEntries;
}

/**
 * What names this database among every other on any server (its cluster's system identifier and its name): the
 * instances of one deployment share it, and what they share outside PostgreSQL (a Redis channel) is named after it.
 */
export async function databaseIdentity(db: Db): Promise<string> {
  const result = await db.execute(sql`select current_database() as name, (select system_identifier from pg_control_system())::text as cluster`);
  const [row] = rowsOf<{ name: string; cluster: string }>(result);
  return `${row.cluster}:${row.name}`;
}
