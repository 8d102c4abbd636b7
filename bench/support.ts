import { fork } from "node:child_process";
import { readFileSync } from "node:fs";
import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";
import postgres from "postgres";
import type { LoadRequest, LoadResult } from "./load-client.js";

/** What the benchmarks share: a raw keep-alive HTTP client and percentiles. */
export interface Reply {
  status: number;
  body: string;
}

/** One HTTP request on a keep-alive agent; resolves with status and body (never rejects: -1 on a socket error). */
export function request(agent: http.Agent, base: URL, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve) => {
    const req = http.request(
      {
        host: base.hostname,
        port: base.port,
        method,
        path: url,
        agent,
        headers: { ...headers, ...(body ? { "content-length": Buffer.byteLength(body) } : {}) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks).toString() }));
        res.on("error", () => resolve({ status: -1, body: "" }));
      },
    );
    req.on("error", () => resolve({ status: -1, body: "" }));
    req.end(body);
  });
}

/** The p-th percentile (nearest rank) of ascending samples; NaN when there are none. */
export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export const ms = (value: number) => (Number.isFinite(value) ? value.toFixed(1) : "-");

export const secs = (value: number) => `${(value / 1000).toFixed(1)} s`;

export function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

export const bearer = (token: string) => ({ authorization: `Bearer ${token}` });

/** One request the load generator repeats. */
export interface LoadTarget {
  base: URL;
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** An answer whose body contains this counts as an error too. */
  failOn?: string;
  /** The status of a good answer (200 unless given). */
  okStatus?: number;
  /** A header given a fresh random value on every request (an Idempotency-Key). */
  freshHeader?: string;
  /** Each caller's own headers (one user per caller), over `headers`. */
  callerHeaders?: Record<string, string>[];
}

export interface Summary {
  count: number;
  rate: number;
  p50: number;
  p99: number;
  max: number;
  errors: number;
  /** The load generator's CPU time over the run's wall time: near 1, it was the bottleneck, not the server. */
  clientBusy: number;
  /** Open loop: how late the load generator issued its requests, 99th percentile, ms. */
  lateP99?: number;
}

/**
 * Closed loop: `concurrency` callers, each sending the next request as soon as the last one answered. They run in a
 * child process (bench/load-client.ts), so this process's event loop serves requests and nothing else, and the child
 * inherits this process's CPU affinity.
 */
export const closedLoop = (target: LoadTarget, durationMs: number, concurrency: number): Promise<Summary> => load(target, durationMs, { concurrency });

/**
 * Open loop: `rate` requests per second on a fixed schedule, whatever the answers (the latency a user sees at that
 * traffic, each from its scheduled instant), over at most `connections`, from the same child process as closedLoop.
 */
export const openLoop = (target: LoadTarget, durationMs: number, rate: number, connections: number): Promise<Summary> =>
  load(target, durationMs, { concurrency: connections, rate });

async function load(target: LoadTarget, durationMs: number, pace: Pick<LoadRequest, "concurrency" | "rate">): Promise<Summary> {
  const client = fork(new URL("./load-client.ts", import.meta.url), { execArgv: ["--import", "tsx"], stdio: "inherit" });
  const { method = "GET", path, headers = {}, body, failOn, okStatus, freshHeader, callerHeaders } = target;
  const { latencies, errors, firstError, elapsed, cpuMs, lateP99 } = await new Promise<LoadResult>((resolve, reject) => {
    client.once("message", (message) => resolve(message as LoadResult));
    client.once("error", reject);
    client.once("exit", (code) => reject(new Error(`load client exited with ${code}`)));
    client.send({
      base: target.base.toString(),
      method,
      path,
      headers,
      body,
      failOn,
      okStatus,
      freshHeader,
      callerHeaders,
      durationMs,
      ...pace,
    } satisfies LoadRequest);
  });
  if (errors > 0) console.log(`  ! ${errors} failed answers on ${method} ${path}, first: ${firstError}`);
  latencies.sort((a, b) => a - b);
  return {
    count: latencies.length,
    rate: latencies.length / (elapsed / 1000),
    p50: percentile(latencies, 50),
    p99: percentile(latencies, 99),
    max: latencies[latencies.length - 1] ?? Number.NaN,
    errors,
    clientBusy: cpuMs / elapsed,
    lateP99,
  };
}

const LOOP_RESOLUTION_MS = 5;

/**
 * Watches how late this thread's event loop runs a timer, from now until `read()`: the time it was kept from serving
 * (its own synchronous work, GC, or the OS giving its core to another process). Node reports the whole interval
 * between ticks, so the timer's own resolution is taken off.
 */
export function watchEventLoopDelay(): { read(): { p99: number; max: number } } {
  const histogram = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  histogram.enable();
  const late = (nanoseconds: number) => Math.max(0, nanoseconds / 1e6 - LOOP_RESOLUTION_MS);
  return {
    read() {
      histogram.disable();
      return { p99: late(histogram.percentile(99)), max: late(histogram.max) };
    },
  };
}

export interface ScratchDatabase {
  name: string;
  url: string;
  /** Creates it; answers the server's version. */
  create(): Promise<string>;
  /** Drops it, connections left or not, and closes the admin connection. */
  drop(): Promise<void>;
}

/** A database of the benchmark's own (`<prefix>_<pid>`) next to DATABASE_URL's, by default the local test database. */
export function scratchDatabase(prefix: string): ScratchDatabase {
  const adminUrl = process.env.DATABASE_URL || "postgres://postgres@127.0.0.1:5432/test";
  const name = `${prefix}_${process.pid}`;
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => undefined });
  return {
    name,
    url: url.toString(),
    async create() {
      const [{ version }] = await admin<{ version: string }[]>`select current_setting('server_version') as version`;
      await admin.unsafe(`create database ${name}`);
      return version;
    },
    async drop() {
      // BENCH_KEEP_DATABASE=1 leaves it for EXPLAIN and experiments by hand (drop it yourself afterwards).
      if (process.env.BENCH_KEEP_DATABASE) {
        console.log(`kept the scratch database ${name}`);
        return admin.end({ timeout: 5 });
      }
      await admin.unsafe(`drop database if exists ${name} with (force)`).catch((error: unknown) => console.error(`could not drop ${name}:`, error));
      await admin.end({ timeout: 5 });
    },
  };
}

/** The CPU time, in ms, each of the database's backends has used so far, by process id. */
export type DatabaseCpu = ReadonlyMap<number, number>;

/**
 * The CPU time of the database's backends (but `observer`'s own) so far, from /proc/<pid>/schedstat when PostgreSQL
 * runs on this machine; null when it cannot be read. On a shared machine a request's CPU time is steadier than its
 * latency, which waits for every other process too.
 */
export async function databaseCpuMs(observer: postgres.Sql): Promise<DatabaseCpu | null> {
  const backends = await observer<{ pid: number }[]>`select pid from pg_stat_activity where datname = current_database() and pid <> pg_backend_pid()`;
  const used = new Map<number, number>();
  for (const { pid } of backends) {
    try {
      used.set(pid, Number(readFileSync(`/proc/${pid}/schedstat`, "utf8").split(" ")[0]) / 1e6);
    } catch {
      // A backend that ended between the list and its read (an idle connection closed): it uses nothing more.
    }
  }
  return used;
}

/**
 * The CPU time, in ms, the backends used between two readings: each backend's growth, a new one's whole. A backend
 * that ended in between (another contender's idle connections closing) is left out rather than subtracted: a sum of
 * the backends alive at each end went negative when one ended.
 */
export function databaseCpuMsBetween(before: DatabaseCpu | null, after: DatabaseCpu | null): number | null {
  if (!before || !after) return null;
  let used = 0;
  for (const [pid, ms] of after) used += ms - (before.get(pid) ?? 0);
  return used;
}

/** Runs a benchmark's `main` as the whole process: exits with its code (0 when it returns none), or 1 after printing what failed. */
export function runBenchmark(main: () => Promise<number | void>): void {
  main().then(
    (code) => process.exit(code ?? 0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
}
