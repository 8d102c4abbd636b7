/**
 * The service run the way PostgreSQL runs at scale (issue 31, contract §17): what a cheap read, a stale-ok listing and the trainer's
 * dashboard cost per answer in each database mode, and how many database connections one instance opens.
 *
 * On a disposable cluster of its own (tests/helpers/pg-cluster.ts: a primary and a streaming replica made with
 * pg_basebackup, on ports of their own, removed at the end) seeded as bench:api seeds (bench/api/seed.ts), it starts
 * four services side by side on the server core, each as `npm start` runs it:
 *   - direct: DATABASE_URL is the primary;
 *   - direct + replica: the same, with DATABASE_REPLICA_URLS naming the replica (its stale-ok reads go there);
 *   - pooler: DATABASE_URL is a PgBouncer in transaction mode (Debian's, started here), DATABASE_DIRECT_URL the primary;
 *   - pooler + replica: the same, with DATABASE_REPLICA_URLS naming the replica (its stale-ok reads go there).
 * Each read is measured with 32 closed-loop connections from the client core, in rounds alternating the four modes,
 * and printed as CPU time per answer: the service's, PostgreSQL's (the backends of the primary and the replica) and
 * PgBouncer's, with their total (the figure to steer by on a shared machine) and requests/s and p99 for reference.
 *
 *   npm run bench:scale
 *   BENCH_SECONDS=3 BENCH_ROUNDS=1 npm run bench:scale   # smoke run
 */
import { randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { AccessTokens } from "../src/platform/auth/access-tokens.js";
import { systemClock } from "../src/platform/clock.js";
import { openDatabase } from "../src/platform/db/database.js";
import { startCluster, type PgCluster } from "../tests/helpers/pg-cluster.js";
import { startPgBouncer, type PgBouncer } from "../tests/helpers/pgbouncer.js";
import { seedApiWorld, type SeededUser } from "./api/seed.js";
import { answers200, cpuMs, pinning, pinThisProcessToClientCore, startServer, type ServerProcess } from "./api/servers.js";
import { bearer, closedLoop, databaseCpuMs, databaseCpuMsBetween, ms, printTable, runBenchmark, secs, type LoadTarget } from "./support.js";

const CONCURRENCY = 32;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2) * 1000;
const DATABASE = "fitness_scale_bench";

type Mode = "direct" | "direct + replica" | "pooler" | "pooler + replica";
const MODES: Mode[] = ["direct", "direct + replica", "pooler", "pooler + replica"];

interface Read {
  label: string;
  method: "GET" | "POST";
  path: string;
  body?: string;
}

/** CPU time per answer, in ms, of each process that served it. */
interface Cost {
  service: number;
  database: number;
  /** The replica's part of `database`. */
  replica: number;
  pooler: number;
  rate: number;
  p99: number;
}

const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length === 0 ? Number.NaN : sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const cpu = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "-");

/**
 * The established TCP connections of process `pid`, counted by the port they lead to (`ss`, from iproute2): the
 * database connections an instance holds, whatever opened them.
 */
function connectionsByPort(pid: number): Map<number, number> {
  const counts = new Map<number, number>();
  const lines = execFileSync("ss", ["-Htnp", "state", "established"], { encoding: "utf8" }).split("\n");
  for (const line of lines.filter((each) => each.includes(`pid=${pid},`))) {
    const peer = line.trim().split(/\s+/)[3];
    const port = Number(peer?.slice(peer.lastIndexOf(":") + 1));
    counts.set(port, (counts.get(port) ?? 0) + 1);
  }
  return counts;
}

async function main() {
  pinThisProcessToClientCore();
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-scale-bench-"));
  let cluster: PgCluster | undefined;
  let pooler: PgBouncer | undefined;
  const services = new Map<Mode, ServerProcess>();
  const observers: postgres.Sql[] = [];
  try {
    cluster = await startCluster();
    const admin = postgres(cluster.primary.url(), { max: 1, onnotice: () => undefined });
    await admin.unsafe(`create database ${DATABASE}`);
    await admin.end();
    const primaryUrl = cluster.primary.url(DATABASE);
    const database = await openDatabase({ databaseUrl: primaryUrl });
    await database.migrate();
    await database.close();
    const seed = postgres(primaryUrl, { max: 1, onnotice: () => undefined, connection: { work_mem: "512MB" } });
    const world = await seedApiWorld(seed).finally(() => seed.end({ timeout: 5 }));
    // Made after the seed: the base backup copies the rows instead of streaming them.
    const replica = await cluster.addStandby();
    const replicaUrl = replica.url(DATABASE);
    pooler = await startPgBouncer(primaryUrl);
    const pooledUrl = pooler.urlFor(primaryUrl);
    console.log(
      `cluster: primary :${cluster.primary.port}, replica :${replica.port}, PgBouncer ${pooledUrl.split("@")[1]}; ` +
        `${world.students.length} students, ${world.counts.sets} logged sets; ${CONCURRENCY} connections, ` +
        `${ROUNDS} round(s) of ${secs(MEASURE_MS)} per mode and read; ${pinning ? "services on core 0, load on core 1" : "not pinned"}`,
    );

    const jwtSecret = randomBytes(48).toString("base64url");
    const tokens = new AccessTokens(jwtSecret, systemClock);
    const tokenOf = (user: SeededUser) => tokens.issue({ ...user, isAdmin: false, sessionVersion: 1 }).token;
    const trainer = tokenOf(world.trainer);
    const reads: Read[] = [
      { label: "cheap read: REST GET /api/exercises/{id}", method: "GET", path: `/api/exercises/${world.exerciseIds[0]}` },
      { label: "stale-ok listing: REST GET /api/exercises?size=20", method: "GET", path: "/api/exercises?size=20" },
      { label: "trainer's dashboard: REST GET /api/personal/dashboard", method: "GET", path: "/api/personal/dashboard" },
    ];

    const pooled = { DATABASE_POOL_MODE: "transaction", DATABASE_DIRECT_URL: primaryUrl };
    const environments: Record<Mode, { databaseUrl: string; serviceEnv: Record<string, string> }> = {
      direct: { databaseUrl: primaryUrl, serviceEnv: {} },
      "direct + replica": { databaseUrl: primaryUrl, serviceEnv: { DATABASE_REPLICA_URLS: replicaUrl } },
      pooler: { databaseUrl: pooledUrl, serviceEnv: pooled },
      "pooler + replica": { databaseUrl: pooledUrl, serviceEnv: { ...pooled, DATABASE_REPLICA_URLS: replicaUrl } },
    };
    for (const mode of MODES) {
      const env = environments[mode];
      services.set(mode, await startServer("service", { ...env, jwtSecret, dataDir }, answers200("GET", "/healthz", {})));
    }
    for (const url of [primaryUrl, replicaUrl]) observers.push(postgres(url, { max: 1, onnotice: () => undefined }));
    /** The CPU time of the primary's backends and of the replica's. */
    const databaseCpu = async () => {
      const [primary, replica] = await Promise.all(observers.map((observer) => databaseCpuMs(observer)));
      return { primary, replica };
    };
    const target = (server: ServerProcess, read: Read): LoadTarget => ({ base: server.base, method: read.method, path: read.path, headers: bearer(trainer) });

    const costs = new Map<string, Cost[]>();
    for (const read of reads) {
      console.log(`\n# ${read.label}`);
      for (const mode of MODES) await closedLoop(target(services.get(mode)!, read), WARMUP_MS, CONCURRENCY);
      for (let round = 0; round < ROUNDS; round++) {
        const order = round % 2 === 0 ? MODES : [...MODES].reverse();
        const line: string[] = [];
        for (const mode of order) {
          const service = services.get(mode)!;
          const before = { service: service.cpuMs(), database: await databaseCpu(), pooler: cpuMs(pooler.pid()) };
          const summary = await closedLoop(target(service, read), MEASURE_MS, CONCURRENCY);
          if (summary.errors > 0) throw new Error(`${mode}: ${summary.errors} failed answers to ${read.label}`);
          const per = (after: number, was: number) => (after - was) / summary.count;
          const cost: Cost = {
            service: per(service.cpuMs(), before.service),
            ...(await databaseCpu().then(({ primary, replica }) => {
              const used = {
                primary: databaseCpuMsBetween(before.database.primary, primary) ?? Number.NaN,
                replica: databaseCpuMsBetween(before.database.replica, replica) ?? Number.NaN,
              };
              return { database: per(used.primary + used.replica, 0), replica: per(used.replica, 0) };
            })),
            pooler: mode.startsWith("direct") ? 0 : per(cpuMs(pooler.pid()), before.pooler),
            rate: summary.rate,
            p99: summary.p99,
          };
          costs.set(`${read.label}|${mode}`, [...(costs.get(`${read.label}|${mode}`) ?? []), cost]);
          line.push(`${mode} ${cpu(cost.service)}+${cpu(cost.database)}+${cpu(cost.pooler)} ms`);
        }
        console.log(`  round ${round + 1} (service+PostgreSQL+PgBouncer CPU per answer): ${line.join(" | ")} (load ${loadavg()[0].toFixed(1)})`);
      }
    }

    console.log(`\n=== CPU time per answer, ms, median of ${ROUNDS} round(s) ===\n`);
    const rows: string[][] = [];
    for (const read of reads) {
      for (const mode of MODES) {
        const runs = costs.get(`${read.label}|${mode}`)!;
        const pick = (key: keyof Cost) => median(runs.map((each) => each[key]));
        const total = median(runs.map((each) => each.service + each.database + each.pooler));
        rows.push([
          read.label,
          mode,
          cpu(pick("service")),
          cpu(pick("database")),
          cpu(pick("replica")),
          cpu(pick("pooler")),
          cpu(total),
          pick("rate").toFixed(0),
          ms(pick("p99")),
        ]);
      }
    }
    printTable(["read", "mode", "service", "PostgreSQL", "of it the replica", "PgBouncer", "total", "req/s", "p99 ms"], rows);

    console.log("\n=== database connections one instance holds (after the load) ===\n");
    const ports = { primary: cluster.primary.port, pooler: Number(new URL(pooledUrl).port), replica: replica.port };
    printTable(
      ["mode", "to the primary", "to PgBouncer", "to the replica"],
      MODES.map((mode) => {
        const counts = connectionsByPort(services.get(mode)!.pid);
        return [mode, String(counts.get(ports.primary) ?? 0), String(counts.get(ports.pooler) ?? 0), String(counts.get(ports.replica) ?? 0)];
      }),
    );
  } finally {
    await Promise.all([...services.values()].map((service) => service.stop()));
    await Promise.all(observers.map((observer) => observer.end({ timeout: 5 })));
    await pooler?.stop();
    await cluster?.destroy();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

runBenchmark(main);
