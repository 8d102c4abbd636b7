import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/platform/clock.js";
import { openDatabase } from "../../src/platform/db/database.js";
import { JobEngine } from "../../src/platform/jobs/job-engine.js";
import { createLogger } from "../../src/platform/logger.js";
import { withDatabase } from "../helpers/global-setup.js";
import { openSocket } from "../helpers/graphql-socket.js";
import { PGBOUNCER_BINARY, startPgBouncer, type PgBouncer } from "../helpers/pgbouncer.js";
import { startService, type ServiceProcess } from "../helpers/service-process.js";
import type { TestApp } from "../helpers/test-app.js";
import { ok, Receiver } from "../webhooks/support.js";

/*
 * Contract §17, the pooler: two instances of the service with DATABASE_URL through a real PgBouncer in
 * `pool_mode = transaction` and DATABASE_DIRECT_URL straight to PostgreSQL, on a database of their own that they
 * migrate themselves. A pooler hands each transaction whichever server connection is free, so a statement prepared
 * in one transaction is missing (or another client's) in the next: the writes must answer as they do directly.
 */
const databaseUrl = process.env.DATABASE_URL;
const databaseName = `fitness_pooler_${process.pid}`;
const skipReason = !databaseUrl ? "DATABASE_URL is not set" : !PGBOUNCER_BINARY ? "pgbouncer is not installed (apt-get install pgbouncer)" : undefined;
if (databaseUrl && skipReason) console.warn(`pooler tests skipped: ${skipReason}`);

const REDIS_URL = process.env.TEST_REDIS_URL ?? "redis://127.0.0.1:6379";
const GRAPHQL_EXECUTIONS = "subscription { trainingExecutionLogged { id userId completed } }";

describe.skipIf(skipReason !== undefined)("the service behind PgBouncer in transaction mode (PostgreSQL)", () => {
  let admin: postgres.Sql;
  let bouncer: PgBouncer;
  let direct: string;
  let pooled: string;
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-pooler-"));
  const services: ServiceProcess[] = [];

  beforeAll(async () => {
    admin = postgres(databaseUrl!, { max: 1, onnotice: () => undefined });
    direct = withDatabase(databaseUrl!, databaseName);
    bouncer = await startPgBouncer(databaseUrl!);
    pooled = bouncer.urlFor(direct);
  });
  afterAll(async () => {
    for (const service of services) {
      service.child.kill("SIGTERM");
      await service.exited;
    }
    await bouncer?.stop();
    await admin?.unsafe(`drop database if exists "${databaseName}" with (force)`);
    await admin?.end();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const start = (env: Record<string, string>) => {
    const service = startService({
      DATA_DIR: dataDir,
      JWT_SECRET: "pooler-test-secret-that-is-long-enough-0123456789",
      FREE_TRAINER_MAX_STUDENTS: "10",
      DATABASE_POOL_MODE: "transaction",
      ...env,
    });
    services.push(service);
    return service;
  };

  it("refuses to start with neither DATABASE_DIRECT_URL nor REDIS_URL, saying so in one line", async () => {
    const service = start({ DATABASE_URL: pooled, REDIS_URL: "" });
    expect(await service.exited).toBe(1);
    expect(service.errors().trim()).toMatch(/^DATABASE_DIRECT_URL \(or REDIS_URL\) must be set when DATABASE_POOL_MODE=transaction[^\n]*$/);
  });

  it("starts three instances together on a new database: each migrates it and starts the job engine, none fails", async () => {
    // As main does, in this process: the migrations, then the job engine, whose first start installs pg-boss's schema.
    // Through the pooler alone, two engines that both found no schema created it at once and one failed (a duplicate
    // key in pg_namespace) in 5 rounds of 6: three rounds.
    const name = `${databaseName}_together`;
    const url = bouncer.urlFor(withDatabase(databaseUrl!, name));
    try {
      for (let round = 0; round < 3; round++) {
        await admin.unsafe(`drop database if exists "${name}" with (force)`);
        await admin.unsafe(`create database "${name}"`);
        const handles = await Promise.all([1, 2, 3].map(() => openDatabase({ databaseUrl: url, poolMode: "transaction", maxConnections: 2 })));
        const engines = handles.map((handle) => new JobEngine({ connection: handle.connection, logger: createLogger("silent") }));
        try {
          await Promise.all(handles.map((handle) => handle.migrate()));
          const started = await Promise.allSettled(engines.map((engine) => engine.start()));
          expect(started.filter((outcome) => outcome.status === "rejected")).toEqual([]);
        } finally {
          await Promise.all(engines.map((engine) => engine.stop()));
          await Promise.all(handles.map((handle) => handle.close()));
        }
      }
    } finally {
      await admin.unsafe(`drop database if exists "${name}" with (force)`);
    }
  }, 60_000);

  it("answers statements sent on a busy connection, whatever their values: PgBouncer drops no answer", async () => {
    // postgres.js sends a statement on a busy connection (pipelines it) when every connection is taken. A statement
    // whose values need the server's types used to go in two steps, the first (parse and describe) ending in a Flush,
    // not a Sync. PgBouncer before 1.21 counts Syncs only: at the end of the statement before it, it gave the server
    // connection to another client, and the describe's answer reached no one ("got packet … from server when not
    // linked"): the statement never answered and its connection hung. Under load every request of an instance then
    // waited out DATABASE_CONNECT_TIMEOUT_MS and answered 503. Here the describe would wait on a lock, so that its
    // answer comes after the first statement's, as it did under load.
    const table = `pooler_pipeline_${process.pid}`;
    await admin.unsafe(`create table if not exists "${table}" (flag boolean)`);
    const handle = await openDatabase({ databaseUrl: bouncer.urlFor(databaseUrl!), poolMode: "transaction", maxConnections: 1 });
    let unlock = () => {};
    const locked = admin.begin(async (tx) => {
      await tx.unsafe(`lock table "${table}" in access exclusive mode`);
      await new Promise<void>((resolve) => (unlock = resolve));
    });
    try {
      await handle.db.execute(sql`select 1`);
      const first = handle.db.execute(sql`select pg_sleep(0.05), 1 as n`);
      // An object, which postgres.js would first ask the server the type of.
      const second = handle.db.execute(sql`select count(*)::int as n from ${sql.identifier(table)} where ${sql.param({ flag: true })}::text <> ''`);
      const answers = Promise.all([first, second]);
      setTimeout(() => unlock(), 300);
      const outcome = await Promise.race([answers, new Promise((resolve) => setTimeout(() => resolve("no answer in 5 s"), 5_000))]);
      expect(outcome).toEqual([[{ pg_sleep: "", n: 1 }], [{ n: 0 }]]);
      expect(bouncer.log()).not.toMatch(/got packet '[1tT]' from server when not linked/);
    } finally {
      unlock();
      await locked;
      await handle.close();
      await admin.unsafe(`drop table if exists "${table}"`);
    }
  }, 30_000);

  it.each([
    ["DATABASE_DIRECT_URL (migrations, LISTEN and the job engine direct)", () => ({ DATABASE_URL: pooled, DATABASE_DIRECT_URL: direct })],
    // No direct connection at all: the bus on Redis, the migrations under a transaction's lock, the job engine polling.
    ["REDIS_URL alone (everything else through the pooler)", () => ({ DATABASE_URL: pooled, REDIS_URL })],
  ])(
    "with %s: migrates, answers every write, keeps no prepared statement on the server, carries live updates across instances",
    async (_, settings) => {
      const env = settings();
      // An empty database of its own, which the two instances migrate.
      await admin.unsafe(`drop database if exists "${databaseName}" with (force)`);
      await admin.unsafe(`create database "${databaseName}"`);
      const a = start(env);
      const b = start(env);
      const [baseA, baseB] = await Promise.all([a.base, b.base]);

      const api = async (base: string, method: string, url: string, options: { token?: string; body?: unknown; form?: FormData } = {}) => {
        const res = await fetch(`${base}/api${url}`, {
          method,
          headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.form ? {} : { "content-type": "application/json" }) },
          body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
        });
        const text = await res.text();
        return { status: res.status, body: (text ? JSON.parse(text) : null) as any };
      };
      const statuses: Record<string, number> = {};
      const call = async (what: string, base: string, method: string, url: string, options?: Parameters<typeof api>[3]) => {
        const res = await api(base, method, url, options);
        statuses[what] = res.status;
        return res;
      };

      const registration = {
        name: "Ana",
        email: "ana-pooler@example.com",
        password: "senha-forte-1",
        userType: "PERSONAL",
        requestLocation: "WEB",
        confirmed: true,
      };
      const registered = await call("register", baseA, "POST", "/users/register", { body: registration });
      const login = await call("login", baseB, "POST", "/users/login", { body: { email: registration.email, password: registration.password } });
      const token = login.body.token as string;
      await call("profile edit", baseA, "PUT", "/users/profile", { token, body: { name: "Ana Souza", height: 170 } });

      const form = new FormData();
      const exercise = { name: "Supino reto", description: "Empurre a barra", category: "PEITO", isPublic: true };
      form.append("exercise", new Blob([JSON.stringify(exercise)], { type: "application/json" }));
      const created = await call("exercise", baseB, "POST", "/exercises", { token, form });
      const training = await call("training", baseA, "POST", "/trainings", {
        token,
        body: { name: "Treino A", exercises: [{ exerciseId: created.body.id, sets: 3 }] },
      });

      // Ana follows her own executions on instance B; she logs one on instance A.
      const socket = openSocket({ baseUrl: baseB } as TestApp, token);
      await socket.connected;
      const live = socket.subscribe(GRAPHQL_EXECUTIONS);
      await new Promise((resolve) => setTimeout(resolve, 200));
      const execution = await call("training execution", baseA, "POST", `/trainings/${training.body.id}/execution`, {
        token,
        body: {
          startTime: "2026-03-18T10:00:00.000Z",
          endTime: "2026-03-18T11:00:00.000Z",
          completed: true,
          exerciseExecutions: [{ exerciseId: created.body.id, sets: [{ repetitions: 10, weight: 60, completed: true }] }],
        },
      });
      await call("exercise execution", baseB, "POST", `/exercises/${created.body.id}/execution`, {
        token,
        body: { trainingId: training.body.id, sets: [{ repetitions: 8, weight: 70, completed: true }] },
      });
      await call("sync feed", baseB, "GET", "/sync/changes", { token });
      await call("dashboard", baseA, "GET", "/personal/dashboard", { token });
      await call("adherence", baseB, "GET", "/personal/students/adherence", { token });

      const plans = await call("plans", baseA, "GET", "/subscription-plans?userType=PERSONAL", { token });
      const plan = (Array.isArray(plans.body) ? plans.body : plans.body.content)[0];
      await call("PIX checkout", baseB, "POST", "/subscriptions", { token, body: { planId: plan.id, paymentMethod: "PIX" } });

      // A delivery: the job engine (on the direct connection) hears of it and posts it.
      const receiver = await new Receiver(systemClock).start();
      receiver.otherwise = ok;
      try {
        const endpoint = await call("webhook endpoint", baseA, "POST", "/webhook-endpoints", {
          token,
          body: { url: receiver.url, events: ["invite.updated"] },
        });
        await call("webhook test", baseB, "POST", `/webhook-endpoints/${endpoint.body.id}/test`, { token });
        expect(Object.entries(statuses).filter(([, status]) => status < 200 || status > 299)).toEqual([]);
        const until = Date.now() + 20_000;
        while (receiver.received.length === 0 && Date.now() < until) await new Promise((resolve) => setTimeout(resolve, 100));
        expect(receiver.received).toHaveLength(1);
      } finally {
        await receiver.stop();
      }
      for (const service of [a, b]) expect(service.output()).not.toMatch(/prepared statement/);
      expect(await live.received(1)).toEqual([
        { data: { trainingExecutionLogged: { id: execution.body.id, userId: registered.body.user.id, completed: true } } },
      ]);
      await socket.close();

      // The server's connections behind the pooler, several at once (each held for a moment): none keeps a statement.
      const probe = postgres(pooled, { max: 8, prepare: false, onnotice: () => undefined });
      try {
        const answers = await Promise.all(
          Array.from({ length: 8 }, () =>
            probe.begin(async (tx) => {
              const [row] = await tx<{ pid: number; prepared: string[] }[]>`
              select pg_backend_pid() as pid, array(select name from pg_prepared_statements) as prepared, pg_sleep(0.1)::text`;
              return row;
            }),
          ),
        );
        expect(new Set(answers.map((answer) => answer.pid)).size).toBeGreaterThan(1);
        expect(answers.flatMap((answer) => answer.prepared)).toEqual([]);
      } finally {
        await probe.end();
      }
      for (const service of [a, b]) {
        service.child.kill("SIGTERM");
        await service.exited;
      }
    },
    180_000,
  );
});
