import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { systemClock } from "../../src/platform/clock.js";
import { replicaName } from "../../src/platform/db/database.js";
import { openSocket } from "../helpers/graphql-socket.js";
import { PGBOUNCER_BINARY, startPgBouncer } from "../helpers/pgbouncer.js";
import { POSTGRES_BIN, startCluster, type PgCluster, type PgNode } from "../helpers/pg-cluster.js";
import { startService, waitForHealth, type ServiceProcess } from "../helpers/service-process.js";
import type { TestApp } from "../helpers/test-app.js";
import { ok, Receiver } from "../webhooks/support.js";

/*
 * Contract §17, the replicas: service processes on a disposable cluster's primary, reading from its streaming standbys
 * (one that replays each commit DELAY_MS late, so what a replica has not seen yet stays unseen long enough to tell).
 * Stale-ok reads go to a usable replica; a user reads their own writes, and a trainer the session whose live event
 * reached it, through any instance; a replica stopped or lagging past the limit is skipped without an error.
 */
const skipReason = !process.env.DATABASE_URL
  ? "DATABASE_URL is not set"
  : !POSTGRES_BIN
    ? "PostgreSQL's server programs are not installed (/usr/lib/postgresql/<version>/bin)"
    : undefined;
if (process.env.DATABASE_URL && skipReason) console.warn(`replica tests skipped: ${skipReason}`);

/** How late the delayed standby replays each commit. */
const DELAY_MS = 3_000;
const DATABASE = "fitness";

interface Answer {
  status: number;
  body: any;
}

async function api(base: string, method: string, url: string, options: { token?: string; body?: unknown; form?: FormData } = {}): Promise<Answer> {
  const res = await fetch(`${base}/api${url}`, {
    method,
    headers: { ...(options.token ? { authorization: `Bearer ${options.token}` } : {}), ...(options.form ? {} : { "content-type": "application/json" }) },
    body: options.form ?? (options.body === undefined ? undefined : JSON.stringify(options.body)),
  });
  const text = await res.text();
  return { status: res.status, body: text && res.headers.get("content-type")?.includes("json") ? JSON.parse(text) : text };
}

let sequence = 0;
/** A registered, signed-in user: its id and token. */
async function signedIn(base: string, userType: "PERSONAL" | "ALUNO" = "PERSONAL"): Promise<{ id: number; email: string; token: string }> {
  const email = `replica-${++sequence}-${process.pid}@example.com`;
  const password = "senha-forte-1";
  const registered = await api(base, "POST", "/users/register", {
    body: { name: `Pessoa ${sequence}`, email, password, userType, requestLocation: "WEB", confirmed: true },
  });
  expect(registered.status).toBe(201);
  const login = await api(base, "POST", "/users/login", { body: { email, password } });
  expect(login.status).toBe(200);
  return { id: registered.body.user.id as number, email, token: login.body.token as string };
}

async function createExercise(base: string, token: string, name: string): Promise<number> {
  const form = new FormData();
  form.append("exercise", JSON.stringify({ name, description: "Puxe a barra", category: "COSTAS", isPublic: true }));
  const created = await api(base, "POST", "/exercises", { token, form });
  expect(created.status).toBe(201);
  return created.body.id as number;
}

/** The names of the public exercises named like `name` that `token`'s user lists. */
async function listedNames(base: string, token: string, name: string): Promise<string[]> {
  const listed = await api(base, "GET", `/exercises?name=${encodeURIComponent(name)}`, { token });
  expect(listed.status).toBe(200);
  return (listed.body.content as { name: string }[]).map((exercise) => exercise.name);
}

/** A sample of /metrics: the value of `name` with these labels (0 when absent). */
async function metric(base: string, name: string, labels: Record<string, string>): Promise<number> {
  const text = await (await fetch(`${base}/metrics`)).text();
  const wanted = Object.entries(labels)
    .map(([key, value]) => `${key}="${value}"`)
    .join(",");
  const line = text.split("\n").find((each) => each.startsWith(`${name}{${wanted}}`));
  return line ? Number(line.split(" ").pop()) : 0;
}

async function eventually(check: () => Promise<boolean>, what: string, timeoutMs = 20_000): Promise<void> {
  const until = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting until ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

describe.skipIf(skipReason !== undefined)("reads on streaming replicas (PostgreSQL)", () => {
  let cluster: PgCluster;
  let delayed: PgNode;
  let spare: PgNode;
  let primary: postgres.Sql;
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-replicas-"));
  const services: ServiceProcess[] = [];
  /** Two instances reading from the delayed standby. */
  let baseA: string;
  let baseB: string;
  /** `host:port` of a standby, as the metrics label it. */
  const label = (node: PgNode) => `127.0.0.1:${node.port}`;

  const start = async (env: Record<string, string>) => {
    const service = startService({
      DATA_DIR: dataDir,
      JWT_SECRET: "replica-test-secret-that-is-long-enough-0123456789",
      DATABASE_URL: cluster.primary.url(DATABASE),
      AUTH_RATE_LIMIT_PER_MINUTE: "1000",
      ...env,
    });
    services.push(service);
    const base = await service.base;
    await waitForHealth(base);
    return base;
  };

  /** Until `standby` has replayed everything the primary has committed so far. */
  const caughtUp = async (standby: PgNode) => {
    const [{ lsn }] = await primary<{ lsn: string }[]>`select pg_current_wal_lsn()::text as lsn`;
    const replica = postgres(standby.url(DATABASE), { max: 1, onnotice: () => undefined });
    try {
      await eventually(
        async () => (await replica<{ done: boolean }[]>`select pg_last_wal_replay_lsn() >= ${lsn}::pg_lsn as done`)[0].done,
        `${standby.name} replayed ${lsn}`,
      );
    } finally {
      await replica.end();
    }
  };
  const usable = (base: string, standby: PgNode) =>
    eventually(async () => (await metric(base, "database_replica_usable", { replica: label(standby) })) === 1, `${standby.name} is usable`);

  beforeAll(async () => {
    cluster = await startCluster();
    primary = postgres(cluster.primary.url(), { max: 1, onnotice: () => undefined });
    await primary.unsafe(`create database ${DATABASE}`);
    // pg_basebackup starts with a spread checkpoint, which after the new database's writes can outlast its time limit.
    await primary.unsafe("checkpoint");
    await primary.end();
    primary = postgres(cluster.primary.url(DATABASE), { max: 1, onnotice: () => undefined });
    [delayed, spare] = [await cluster.addStandby({ applyDelayMs: DELAY_MS }), await cluster.addStandby()];
    // The first migrates the database; the second starts once it has.
    baseA = await start({ DATABASE_REPLICA_URLS: delayed.url(DATABASE) });
    baseB = await start({ DATABASE_REPLICA_URLS: delayed.url(DATABASE) });
  }, 180_000);

  afterAll(async () => {
    for (const service of services) {
      service.child.kill("SIGTERM");
      await service.exited;
    }
    await primary?.end();
    await cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it("serves stale-ok reads from a replica: another user's new row shows once the replica has replayed it", async () => {
    const writer = await signedIn(baseA);
    const reader = await signedIn(baseA);
    await caughtUp(delayed);
    await usable(baseA, delayed);
    const readsBefore = await metric(baseA, "database_replica_reads_total", { replica: label(delayed) });

    await createExercise(baseA, writer.token, "Remada curvada");
    expect(await listedNames(baseA, reader.token, "Remada curvada")).toEqual([]);
    expect(await metric(baseA, "database_replica_reads_total", { replica: label(delayed) })).toBeGreaterThan(readsBefore);
    await eventually(async () => (await listedNames(baseA, reader.token, "Remada curvada")).length === 1, "the replica shows the new exercise");
    expect(await metric(baseA, "database_replica_lag_seconds", { replica: label(delayed) })).toBeGreaterThanOrEqual(0);
  }, 60_000);

  it("shows users their own writes at once, through another instance, while the replica is seconds behind", async () => {
    const user = await signedIn(baseA);
    await caughtUp(delayed);
    await usable(baseB, delayed);
    const behindBefore = await metric(baseB, "database_stale_reads_on_primary_total", { reason: "replicas_behind_caller" });

    await createExercise(baseA, user.token, "Puxada alta");
    expect(await listedNames(baseB, user.token, "Puxada alta")).toEqual(["Puxada alta"]);
    expect(await metric(baseB, "database_stale_reads_on_primary_total", { reason: "replicas_behind_caller" })).toBeGreaterThan(behindBefore);
  }, 60_000);

  /**
   * A trainer and its linked student, who has a plan of the trainer's to log, with the delayed replica holding
   * everything both wrote so far: only the session to come is missing from it.
   */
  const coachedStudent = async () => {
    const trainer = await signedIn(baseA, "PERSONAL");
    const student = await signedIn(baseB, "ALUNO");
    const invite = await api(baseA, "POST", "/personal/students/invite", { token: trainer.token, body: { studentEmail: student.email } });
    expect(invite.status).toBe(201);
    expect((await api(baseB, "POST", `/students/invites/${invite.body.id}/accept`, { token: student.token })).status).toBe(200);
    const exerciseId = await createExercise(baseA, trainer.token, "Agachamento");
    const training = await api(baseA, "POST", "/trainings", { token: trainer.token, body: { name: "Treino B", exercises: [{ exerciseId, sets: 3 }] } });
    expect(training.status).toBe(201);
    const plan = await api(baseA, "POST", "/training-plans", {
      token: trainer.token,
      body: { name: "Plano B", description: "Pernas", trainings: [{ trainingId: training.body.id, dayOfWeek: "MONDAY", order: 0 }] },
    });
    expect(plan.status).toBe(201);
    expect((await api(baseA, "POST", `/training-plans/${plan.body.id}/assign`, { token: trainer.token, body: { studentId: student.id } })).status).toBe(201);
    const logSession = async () => {
      const logged = await api(baseB, "POST", `/trainings/${training.body.id}/execution`, {
        token: student.token,
        body: {
          startTime: "2026-03-18T10:00:00.000Z",
          endTime: "2026-03-18T11:00:00.000Z",
          completed: true,
          exerciseExecutions: [{ exerciseId, sets: [{ repetitions: 10, weight: 60, completed: true }] }],
        },
      });
      expect(logged.status).toBe(201);
      return logged.body.id as number;
    };
    const sessionsListed = async (base: string) => {
      const listed = await api(base, "GET", `/trainings/executions/user/${student.id}`, { token: trainer.token });
      expect(listed.status).toBe(200);
      return (listed.body.content as { id: number }[]).map((execution) => execution.id);
    };
    return { trainer, student, logSession, sessionsListed };
  };

  it("shows a trainer the session its student just logged once the live event has reached the trainer", async () => {
    const { trainer, student, logSession, sessionsListed } = await coachedStudent();
    const socket = openSocket({ baseUrl: baseA } as TestApp, trainer.token);
    await socket.connected;
    const live = socket.subscribe("subscription ($studentId: Int) { trainingExecutionLogged(studentId: $studentId) { id } }", { studentId: student.id });
    await caughtUp(delayed);
    await usable(baseA, delayed);

    const logged = await logSession();
    expect(await live.received(1)).toEqual([{ data: { trainingExecutionLogged: { id: logged } } }]);
    await socket.close();
    expect(await sessionsListed(baseA)).toEqual([logged]);
  }, 60_000);

  it("shows a trainer the session its student just logged once the webhook has reached the trainer", async () => {
    const { trainer, logSession, sessionsListed } = await coachedStudent();
    const receiver = await new Receiver(systemClock).start();
    receiver.otherwise = ok;
    try {
      const endpoint = await api(baseA, "POST", "/webhook-endpoints", {
        token: trainer.token,
        body: { url: receiver.url, events: ["training_execution.created"] },
      });
      expect(endpoint.status).toBe(201);
      await caughtUp(delayed);
      await usable(baseB, delayed);

      const logged = await logSession();
      await eventually(async () => receiver.received.length === 1, "the webhook is delivered");
      expect(JSON.parse(receiver.received[0].body)).toMatchObject({ type: "training_execution.created", data: { id: logged } });
      expect(await sessionsListed(baseB)).toEqual([logged]);
    } finally {
      await receiver.stop();
    }
  }, 60_000);

  it("skips a replica that is stopped, even under a read, with no error, and reads from it again once it is back; /readyz stays ready", async () => {
    const base = await start({ DATABASE_REPLICA_URLS: spare.url(DATABASE) });
    const user = await signedIn(base);
    await usable(base, spare);
    const reads = () => metric(base, "database_replica_reads_total", { replica: label(spare) });
    const readsBefore = await reads();
    await createExercise(base, user.token, "Levantamento terra");
    await caughtUp(spare);
    const anonymousNames = async () => {
      const listed = await api(base, "GET", "/exercises?name=Levantamento%20terra");
      return { status: listed.status, names: listed.status === 200 ? (listed.body.content as { name: string }[]).map((each) => each.name) : [] };
    };
    expect(await anonymousNames()).toEqual({ status: 200, names: ["Levantamento terra"] });
    expect(await reads()).toBeGreaterThan(readsBefore);
    // The export reads in one read-only transaction, which runs whole on the replica once it has replayed the caller's
    // last write (the export's own rate-limit count, a moment before: this replica streams without delay).
    const readsBeforeExport = await reads();
    const exported = await api(base, "GET", "/users/me/export", { token: user.token });
    expect(exported.status).toBe(200);
    expect(exported.body.exercises.map((each: { name: string }) => each.name)).toEqual(["Levantamento terra"]);
    expect(await reads()).toBe(readsBeforeExport + 1);

    // Readers keep reading while the replica goes away under them.
    let reading = true;
    const answers: { status: number; names: string[] }[] = [];
    const readers = Array.from({ length: 4 }, async () => {
      while (reading) answers.push(await anonymousNames());
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    await spare.stop("immediate");
    await eventually(async () => (await metric(base, "database_replica_usable", { replica: label(spare) })) === 0, "the stopped replica is unusable");
    await new Promise((resolve) => setTimeout(resolve, 500));
    reading = false;
    await Promise.all(readers);
    expect(answers.length).toBeGreaterThan(10);
    expect(answers.filter((answer) => answer.status !== 200 || answer.names.length !== 1)).toEqual([]);
    expect(await metric(base, "database_stale_reads_on_primary_total", { reason: "no_usable_replica" })).toBeGreaterThan(0);
    expect((await fetch(`${base}/readyz`)).status).toBe(200);
    expect(await anonymousNames()).toEqual({ status: 200, names: ["Levantamento terra"] });

    await spare.start();
    await usable(base, spare);
    const readsAfterRestart = await reads();
    expect(await anonymousNames()).toEqual({ status: 200, names: ["Levantamento terra"] });
    expect(await reads()).toBeGreaterThan(readsAfterRestart);
  }, 90_000);

  it.skipIf(!PGBOUNCER_BINARY)(
    "reads from a replica behind a transaction-mode pooler of its own (DATABASE_POOL_MODE=transaction)",
    async () => {
      const bouncer = await startPgBouncer(spare.url(DATABASE));
      try {
        const pooledReplica = bouncer.urlFor(spare.url(DATABASE));
        const base = await start({
          DATABASE_POOL_MODE: "transaction",
          DATABASE_DIRECT_URL: cluster.primary.url(DATABASE),
          DATABASE_REPLICA_URLS: pooledReplica,
        });
        const user = await signedIn(base);
        await createExercise(base, user.token, "Supino inclinado");
        await caughtUp(spare);
        const name = replicaName(pooledReplica);
        await eventually(async () => (await metric(base, "database_replica_usable", { replica: name })) === 1, "the pooled replica is usable");
        const reads = await metric(base, "database_replica_reads_total", { replica: name });

        // Many at once: the pooler hands their statements whichever server connections are free.
        const listed = await Promise.all(Array.from({ length: 40 }, () => api(base, "GET", "/exercises?name=Supino%20inclinado", { token: user.token })));
        expect(listed.map((each) => each.status)).toEqual(listed.map(() => 200));
        expect(listed[0].body.content.map((each: { name: string }) => each.name)).toEqual(["Supino inclinado"]);
        expect(await metric(base, "database_replica_reads_total", { replica: name })).toBeGreaterThan(reads);
        // The replica's connections behind the pooler, several at once (each held for a moment): none keeps a statement.
        const probe = postgres(pooledReplica, { max: 8, prepare: false, onnotice: () => undefined });
        try {
          const held = await Promise.all(
            Array.from({ length: 8 }, () =>
              probe.begin(
                async (tx) => (await tx<{ prepared: string[] }[]>`select array(select name from pg_prepared_statements) as prepared, pg_sleep(0.1)::text`)[0],
              ),
            ),
          );
          expect(held.flatMap((each) => each.prepared)).toEqual([]);
        } finally {
          await probe.end();
        }
      } finally {
        await bouncer.stop();
      }
    },
    60_000,
  );

  it("skips a replica lagging past DATABASE_REPLICA_MAX_LAG_MS: reads answer from the primary, and the metrics say so", async () => {
    // The instances' job engines write every second or so: a replica that replays each commit DELAY_MS late stays
    // about that far behind.
    const base = await start({ DATABASE_REPLICA_URLS: delayed.url(DATABASE), DATABASE_REPLICA_MAX_LAG_MS: "1000" });
    const writer = await signedIn(base);
    await createExercise(base, writer.token, "Rosca direta");
    await eventually(async () => (await metric(base, "database_replica_lag_seconds", { replica: label(delayed) })) > 1, "the replica is seen lagging");
    expect(await metric(base, "database_replica_usable", { replica: label(delayed) })).toBe(0);
    const reads = await metric(base, "database_replica_reads_total", { replica: label(delayed) });
    const before = await metric(base, "database_stale_reads_on_primary_total", { reason: "no_usable_replica" });

    const listed = await api(base, "GET", "/exercises?name=Rosca%20direta");
    expect(listed.status).toBe(200);
    expect((listed.body.content as { name: string }[]).map((each) => each.name)).toEqual(["Rosca direta"]);
    expect(await metric(base, "database_stale_reads_on_primary_total", { reason: "no_usable_replica" })).toBeGreaterThan(before);
    expect(await metric(base, "database_replica_reads_total", { replica: label(delayed) })).toBe(reads);
  }, 60_000);
});
