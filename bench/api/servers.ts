/**
 * The servers bench:api measures, each a child process pinned to the server core: the service as `npm start` runs it
 * (scripts/start.mjs: the built dist/, built first when stale), the bare baseline and PostGraphile.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import { availableParallelism } from "node:os";
import path from "node:path";
import { setTimeout as sleep } from "node:timers/promises";
import { fileURLToPath } from "node:url";
import { freePort } from "../../tests/helpers/ports.js";
import { request } from "../support.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
/** Long enough for scripts/start.mjs to build dist/ on a busy machine. */
const START_TIMEOUT_MS = 180_000;

/**
 * Servers on one core, the load generator (and this process) on the other, when the machine has two and `taskset`:
 * otherwise they would take turns on the same cores and each side's latency would include the other's work.
 */
export const pinning = availableParallelism() >= 2 && spawnSync("taskset", ["-V"]).status === 0 ? { server: "0", client: "1" } : null;

/** Moves this process (and the load generators it forks from now on) to the client core. */
export function pinThisProcessToClientCore() {
  if (pinning) spawnSync("taskset", ["-a", "-p", "-c", pinning.client, String(process.pid)], { stdio: "ignore" });
}

export interface ServerProcess {
  name: string;
  base: URL;
  pid: number;
  /** performance.now() when the process was spawned. */
  startedAt: number;
  /** Peak resident set size so far (VmHWM), in MiB. */
  peakRssMiB(): number;
  /** CPU time (user + system) used so far, in ms, 10 ms resolution; NaN without /proc. */
  cpuMs(): number;
  stop(): Promise<void>;
}

export interface ServerEnv {
  databaseUrl: string;
  jwtSecret: string;
  dataDir: string;
  /** The service runs with `--cpu-prof`, writing its profile here when it stops. */
  cpuProfileDir?: string;
  /** More of the service's environment (bench:scale's pooler and replicas). */
  serviceEnv?: Record<string, string>;
  /** The checkout, built, of the service as it was before a change (`before`): bench:api's BENCH_BEFORE. */
  beforeRoot?: string;
}

/** `before`: the service from another checkout (an earlier commit), measured beside this one in the same run. */
export type ServerKind = "service" | "before" | "baseline" | "postgraphile";

/** The arguments `npm start` gives node in the checkout `checkout` (package.json's `start`: V8 options, then scripts/start.mjs). */
function startScriptArguments(checkout: string): string[] {
  const [command, ...args] = (JSON.parse(readFileSync(path.join(checkout, "package.json"), "utf8")) as { scripts: { start: string } }).scripts.start.split(
    /\s+/,
  );
  if (command !== "node") throw new Error(`package.json's start script does not run node: ${command}`);
  return args;
}

/** A request that answers 200 once the server serves. */
export type Probe = (agent: http.Agent, base: URL) => Promise<boolean>;

export async function startServer(kind: ServerKind, env: ServerEnv, probe: Probe): Promise<ServerProcess> {
  const port = await freePort();
  const base = new URL(`http://127.0.0.1:${port}`);
  const common = { ...process.env, DATABASE_URL: env.databaseUrl, JWT_SECRET: env.jwtSecret, PORT: String(port) };
  const serviceIn = (checkout: string) => ({
    cwd: checkout,
    args: [...(env.cpuProfileDir ? ["--cpu-prof", `--cpu-prof-dir=${env.cpuProfileDir}`] : []), ...startScriptArguments(checkout)],
    env: {
      ...common,
      NODE_ENV: "production",
      HOST: "127.0.0.1",
      PUBLIC_BASE_URL: base.origin,
      ALLOW_SANDBOX_PAYMENTS: "true",
      DATA_DIR: env.dataDir,
      LOG_LEVEL: "warn",
      // Every connection comes from 127.0.0.1: the 32 of the load generator plus the probes and answer checks.
      MAX_CONNECTIONS_PER_ADDRESS: "64",
      ...env.serviceEnv,
    },
  });
  const commands: Record<ServerKind, () => { cwd: string; args: string[]; env: NodeJS.ProcessEnv }> = {
    service: () => serviceIn(root),
    before: () => {
      if (!env.beforeRoot) throw new Error("no checkout to start the service as it was before from (BENCH_BEFORE)");
      return serviceIn(env.beforeRoot);
    },
    baseline: () => ({ cwd: root, args: ["--import", "tsx", "bench/api/baseline-server.ts"], env: { ...common, NODE_ENV: "production" } }),
    postgraphile: () => ({
      cwd: root,
      args: ["--import", "tsx", "bench/api/postgraphile-server.ts"],
      env: { ...common, NODE_ENV: "production", GRAPHILE_ENV: "production" },
    }),
  };
  const { cwd, args, env: childEnv } = commands[kind]();
  const [file, argv] = pinning ? ["taskset", ["-c", pinning.server, process.execPath, ...args]] : [process.execPath, args];
  const startedAt = performance.now();
  const child = spawn(file, argv, { cwd, env: childEnv, stdio: ["ignore", "inherit", "inherit"] });
  const exited = new Promise<never>((_, reject) => child.once("exit", (code) => reject(new Error(`${kind} exited with ${code} before serving`))));
  exited.catch(() => undefined);
  await Promise.race([waitUntilServing(kind, base, probe), exited]);
  return {
    name: kind,
    base,
    pid: child.pid!,
    startedAt,
    peakRssMiB: () => peakRssMiB(child.pid!),
    cpuMs: () => cpuMs(child.pid!),
    stop: () => stop(child),
  };
}

async function waitUntilServing(kind: ServerKind, base: URL, probe: Probe) {
  const agent = new http.Agent({ keepAlive: false });
  const until = Date.now() + START_TIMEOUT_MS;
  try {
    while (Date.now() < until) {
      if (await probe(agent, base).catch(() => false)) return;
      await sleep(250);
    }
    throw new Error(`${kind} did not answer within ${START_TIMEOUT_MS / 1000} s`);
  } finally {
    agent.destroy();
  }
}

/** NaN where /proc is not there (not Linux). */
function peakRssMiB(pid: number): number {
  const status = existsSync(`/proc/${pid}/status`) ? readFileSync(`/proc/${pid}/status`, "utf8") : "";
  return Number(/^VmHWM:\s+(\d+) kB/m.exec(status)?.[1] ?? Number.NaN) / 1024;
}

/** utime + stime of /proc/<pid>/stat (fields 14 and 15, after the parenthesized name), in clock ticks of 10 ms. */
export function cpuMs(pid: number): number {
  const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, "utf8") : "";
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return stat ? (Number(fields[11]) + Number(fields[12])) * 10 : Number.NaN;
}

async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  child.kill("SIGTERM");
  const timer = setTimeout(() => child.kill("SIGKILL"), 15_000);
  await exited;
  clearTimeout(timer);
}

/** GET or POST answering 200. */
export function answers200(method: string, path: string, headers: Record<string, string>, body?: string): Probe {
  return async (agent, base) => (await request(agent, base, method, path, headers, body)).status === 200;
}
