import { sql } from "drizzle-orm";
import { fromDrizzle, fromPglite, PgBoss, systemClock, type Clock as EngineClock, type ConstructorOptions, type DrizzleTransactionLike } from "pg-boss";
import postgres from "postgres";
import { MIGRATION_LOCK_ID } from "../db/advisory-locks.js";
import type { DatabaseConnection, Db } from "../db/database.js";
import type { Logger } from "../logger.js";
import { engineDatabase, type EngineDatabase } from "./engine-database.js";

/** pg-boss's own schema, beside ours: it creates and migrates it at start-up (our migrations never touch it). */
const ENGINE_SCHEMA = "pgboss";

/** A failed run is tried again this many times, 30 s, 1 min, 2 min … apart (pg-boss's backoff), before it is failed. */
const RETRY = { retryLimit: 5, retryDelay: 30, retryBackoff: true, retryDelayMax: 600 } as const;
/** A run still active after this long is taken for lost (its instance died) and retried. */
const RUN_EXPIRES_SECONDS = 15 * 60;
/**
 * Finished runs are kept this long (at least a period: a period's run is what stops another instance starting a
 * second one in that period), then deleted by pg-boss's maintenance.
 */
const KEEP_FINISHED_SECONDS = 24 * 60 * 60;
/** How long `stop` lets runs under way finish. */
const STOP_GRACE_MS = 30_000;
/** The singleton key of the periodic runs (kicks have none). */
const PERIOD_KEY = "period";

interface PeriodicJob {
  name: string;
  periodSeconds: number;
  run: () => Promise<unknown>;
}

export interface JobEngineOptions {
  connection: DatabaseConnection;
  logger: Logger;
  /** pg-boss's source of time and timers; tests hand in pg-boss's `TestClock`, so no timer of the engine fires unless they move it. */
  clock?: EngineClock;
}

/**
 * Background work on pg-boss, a job queue in PostgreSQL shared by every instance of the service. Each job is a queue
 * of runs. Once per period the deployment adds one run: every instance offers it twice a period, and pg-boss's
 * throttling (a unique slot per period, by the database's clock) admits the first offer and drops the others.
 * `kick` adds a run now (in a transaction: at its commit). Any instance's worker takes a run, at once when woken by
 * LISTEN/NOTIFY, else on its next poll; a run that throws is retried with backoff, and a run whose instance died is
 * retried once it expires. The jobs' rules take their time from the service's clock as before; the engine only
 * decides when they run.
 */
export class JobEngine {
  private readonly jobs = new Map<string, PeriodicJob>();
  private boss: PgBoss | undefined;
  /** pg-boss's connections on PostgreSQL, closed after it stops. */
  private database: EngineDatabase | undefined;
  private readonly timers: unknown[] = [];
  private readonly offering = new Set<Promise<unknown>>();

  constructor(private readonly options: JobEngineOptions) {}

  /**
   * Runs `run` once per `periodMs` (whole seconds) across all instances, and again whenever `kick`ed. Runs of one
   * job may overlap on two instances (a kick beside the period's run): every job must be safe to run concurrently.
   */
  every(name: string, periodMs: number, run: () => Promise<unknown>): void {
    if (this.boss) throw new Error(`job ${name} registered after the engine started`);
    if (this.jobs.has(name)) throw new Error(`job ${name} registered twice`);
    const periodSeconds = periodMs / 1000;
    if (!Number.isInteger(periodSeconds) || periodSeconds < 1) throw new Error(`job ${name}: a period is whole seconds, not ${periodMs} ms`);
    this.jobs.set(name, { name, periodSeconds, run });
  }

  /**
   * Asks for a run of `name` soon, on whichever instance is free. With `tx`, the run is added in that transaction:
   * it exists once what it is to work on is committed, and not at all if the transaction rolls back. Does nothing
   * while the engine is not started (tests that drive the workers by hand): the period's run covers what it missed.
   */
  async kick(name: string, tx?: Db): Promise<void> {
    if (!this.jobs.has(name)) throw new Error(`no job named ${name}`);
    if (!this.boss) return;
    // Drizzle's `execute` answers rows (postgres.js) or `{ rows }` (PGlite), both of which pg-boss reads.
    await this.boss.send(name, null, tx ? { db: fromDrizzle(tx as unknown as DrizzleTransactionLike, sql) } : {});
  }

  /** Runs waiting (queued) and running (active) per job, as pg-boss counts them; empty while the engine is not started. */
  async queueDepths(): Promise<{ name: string; queued: number; active: number }[]> {
    if (!this.boss) return [];
    const queues = await this.boss.getQueues([...this.jobs.keys()]);
    return queues.map((queue) => ({ name: queue.name, queued: queue.queuedCount, active: queue.activeCount }));
  }

  /** Installs or migrates pg-boss's schema, then starts working, and offering the periodic runs of, every job. */
  async start(): Promise<void> {
    if (this.boss) return;
    const { connection, logger } = this.options;
    const clock = this.options.clock ?? systemClock;
    // Behind a transaction-mode pooler alone nothing can LISTEN: pg-boss polls.
    const common: ConstructorOptions = { schema: ENGINE_SCHEMA, useListenNotify: connection.kind === "pglite" || connection.sessions, clock };
    // On PostgreSQL a small pool of its own (and a LISTEN connection), on postgres.js like the service's.
    const database = connection.kind === "postgres" ? engineDatabase(connection, 4) : undefined;
    const boss =
      connection.kind === "postgres"
        ? new PgBoss({ ...common, db: database })
        : new PgBoss({ ...common, db: fromPglite(connection.pglite), backend: "pglite" });
    boss.on("error", (error) => logger.error({ err: error }, "job engine error"));
    boss.on("warning", (warning) => logger.warn({ data: warning.data }, warning.message));
    try {
      await (connection.kind === "postgres" ? underMigrationLock(connection, () => boss.start()) : boss.start());
      for (const job of this.jobs.values()) {
        await boss.createQueue(job.name, {
          ...RETRY,
          expireInSeconds: RUN_EXPIRES_SECONDS,
          deleteAfterSeconds: Math.max(KEEP_FINISHED_SECONDS, job.periodSeconds),
          notify: true,
        });
        await boss.work(job.name, { localConcurrency: 1, batchSize: 1 }, async () => {
          try {
            await job.run();
          } catch (error) {
            logger.error({ err: error, job: job.name }, "job failed, to be retried");
            throw error;
          }
        });
      }
    } catch (error) {
      await boss.stop({ graceful: false });
      await database?.close();
      throw error;
    }
    this.boss = boss;
    this.database = database;
    for (const job of this.jobs.values()) {
      const offer = () => {
        const offered = boss
          .sendThrottled(job.name, null, null, job.periodSeconds, PERIOD_KEY)
          .catch((error: unknown) => logger.error({ err: error, job: job.name }, "periodic run not offered"))
          .finally(() => this.offering.delete(offered));
        this.offering.add(offered);
        return offered;
      };
      // At once: what came due while no instance ran (a deploy, a crash) is done now rather than a period later. This
      // also loads the queue into pg-boss's cache, which a kick inside a transaction needs on PGlite (one connection,
      // held by that transaction).
      await offer();
      this.timers.push(clock.setInterval(offer, (job.periodSeconds * 1000) / 2));
    }
  }

  /** Stops taking runs and waits for those under way (up to a grace period); runs not begun stay for any instance. */
  async stop(): Promise<void> {
    const boss = this.boss;
    if (!boss) return;
    this.boss = undefined;
    const clock = this.options.clock ?? systemClock;
    for (const timer of this.timers.splice(0)) clock.clearInterval(timer);
    await Promise.allSettled([...this.offering]);
    await boss.stop({ graceful: true, timeout: STOP_GRACE_MS });
    await this.database?.close();
    this.database = undefined;
  }
}

/**
 * Runs `work` (pg-boss's start, which installs or migrates its schema) while a transaction on `connection` holds the
 * migration lock, so instances starting together install it one after another: each sees what the one before
 * installed. pg-boss's own lock does not suffice: two instances that both found no schema each create it, and the
 * second's `CREATE SCHEMA IF NOT EXISTS` fails on the first's (a duplicate key in pg_namespace), seen through a
 * transaction-mode pooler. A transaction's lock, so that it holds through such a pooler too.
 */
async function underMigrationLock(connection: Extract<DatabaseConnection, { kind: "postgres" }>, work: () => Promise<unknown>): Promise<void> {
  const lockClient = postgres(connection.url, { ...connection.waits, max: 1, prepare: false, onnotice: () => undefined });
  try {
    await lockClient.begin(async (tx) => {
      await tx`select pg_advisory_xact_lock(${MIGRATION_LOCK_ID})`;
      await work();
    });
  } finally {
    await lockClient.end();
  }
}
