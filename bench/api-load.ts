/**
 * API reads under load (issues 11 and 17): how far is each read of the service from what a bare Node API does on this
 * machine, and how far are the GraphQL reads from PostGraphile 5 answering the same rows?
 *
 * Against PostgreSQL only. Creates a scratch database (fitness_api_bench_<pid>) next to DATABASE_URL's, migrates and
 * seeds it (bench/api/seed.ts: 1 trainer, 20 students, 200 exercises, 50 trainings, 20 plans, ~100k logged sets), then
 * starts, each in its own process on the server core:
 *   - the service, as `npm start` runs it (built dist/, NODE_ENV=production);
 *   - the baseline (bench/api/baseline-server.ts): Express 5, the same token check, one row by id via postgres.js;
 *   - PostGraphile 5 (bench/api/postgraphile-server.ts) in its documented production setup.
 * First, on instances whose database connections go through a counting proxy (tests/helpers/statement-counter.ts), it
 * checks that every read answers, that the service and PostGraphile answer the same rows (else it stops), and counts
 * the SQL statements per request of each read. Then, on fresh instances connected directly, it measures each read
 * with 32 closed-loop connections from a load-generator process on the other core, in paired rounds alternating the
 * service, the baseline and (for GraphQL reads) PostGraphile, and prints requests/s, p50, p99, the server's and the database's CPU time
 * per request (steadier than requests/s when other work shares the machine), the median ratios, the statements per
 * request, the service's GC pause time per request and its peak RSS, with the peaks of its heap (old and new space,
 * code) and external memory read from its /metrics each second while measured. Reads with a latency target are also
 * run open loop at half the service's measured capacity for them (requests on a fixed schedule, each latency from its
 * scheduled instant). Last, issue 34's targets (bench/api/reads.ts): each read's CPU per answer (server + PostgreSQL)
 * against its comparator's, round by round, its open-loop p99 and the service's peak RSS, each met or not in this
 * run. Drops the database at the end. Any failed answer fails the run.
 *
 *   npm run bench:api
 *   DATABASE_URL=postgres://user@host:5432/any npm run bench:api
 *   BENCH_SECONDS=2 BENCH_ROUNDS=1 npm run bench:api     # smoke run
 *   BENCH_READS='exercises/\{id\}|plan' npm run bench:api  # only the reads whose label matches (case-insensitive)
 *   BENCH_CPU_PROF=/tmp/prof npm run bench:api           # a fresh service per read, run with --cpu-prof, its profile
 *                                                        # (/tmp/prof/<n>/service/) summarized after the read, less the
 *                                                        # start-up and warm-up (bench/api/cpu-profile.ts); with
 *                                                        # BENCH_BEFORE, the before's too, and the two compared per answer
 *   BENCH_BEFORE=/tmp/before npm run bench:api           # also the service as built in another checkout (an earlier
 *                                                        # commit: git worktree add, npm ci, npm run build there),
 *                                                        # checked to answer the same, in the same paired rounds
 */
import { randomBytes } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import http from "node:http";
import { cpus, loadavg, tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { AccessTokens } from "../src/platform/auth/access-tokens.js";
import { SCOPE_NAMES } from "../src/platform/auth/scopes.js";
import { secretTokenHash } from "../src/platform/crypto/secret-tokens.js";
import { systemClock } from "../src/platform/clock.js";
import { openDatabase } from "../src/platform/db/database.js";
import { printProfileComparison, printProfileSummary, summarizeProfile, type ProfileSummary } from "./api/cpu-profile.js";
import { highest, readGcTime, watchMemory, type GcTime, type MemoryPeaks } from "./api/memory.js";
import { apiReads, baselineCall, type Call, type Read, type Target } from "./api/reads.js";
import { seedApiWorld, type SeededUser } from "./api/seed.js";
import { answers200, pinning, pinThisProcessToClientCore, startServer, type ServerEnv, type ServerKind, type ServerProcess } from "./api/servers.js";
import { startStatementCounter, type StatementCounter } from "../tests/helpers/statement-counter.js";
import {
  bearer,
  closedLoop,
  openLoop,
  databaseCpuMs,
  databaseCpuMsBetween,
  ms,
  printTable,
  request,
  scratchDatabase,
  secs,
  type LoadTarget,
  type Summary,
  runBenchmark,
} from "./support.js";

const CONCURRENCY = 32;
const MEASURE_MS = Number(process.env.BENCH_SECONDS ?? 10) * 1000;
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 3);
const WARMUP_MS = Number(process.env.BENCH_WARMUP_SECONDS ?? 2) * 1000;
/** Statements are counted over this many requests in a row, several times; the fewest per request is kept. */
const COUNTED_REQUESTS = 20;
const COUNTED_BATCHES = 3;
const READS = process.env.BENCH_READS ? new RegExp(process.env.BENCH_READS, "i") : null;
const CPU_PROFILE_DIR = process.env.BENCH_CPU_PROF ? path.resolve(process.env.BENCH_CPU_PROF) : undefined;

type Contender = "service" | "before" | "baseline" | "postgraphile";

/** A checkout of the service as it was before a change, built: measured beside it, in the same paired rounds. */
const BEFORE = process.env.BENCH_BEFORE ? path.resolve(process.env.BENCH_BEFORE) : undefined;

/** The reads the service as it was before answers as the service does (checkAnswers): those measured beside it. */
let sameBefore = new Set<Read>();

/**
 * A closed-loop run, with the server's and the database's CPU time per answer: steadier than requests/s on a machine
 * others share, and the database's share tells a read bound by its SQL from one bound by the server.
 */
type Measurement = Summary & { serverCpuMsPerRequest: number; databaseCpuMsPerRequest: number; gcMsPerRequest?: GcTime };

interface Servers {
  service: ServerProcess;
  before?: ServerProcess;
  baseline: ServerProcess;
  postgraphile: ServerProcess;
}

interface Measured {
  read: Read;
  /** One entry per round, per contender measured. */
  rounds: Partial<Record<Contender, Measurement>>[];
  /** The service at an open-loop rate of half its measured capacity, once per round (reads with a latency target). */
  openLoop?: { rate: number; runs: Summary[]; baselineRuns: Summary[] };
  statements: { service: number; before?: number; postgraphile?: number };
}

function target(server: ServerProcess, call: Call): LoadTarget {
  const headers: Record<string, string> = { ...bearer(call.token), ...(call.body ? { "content-type": "application/json" } : {}) };
  return { base: server.base, method: call.method, path: call.path, headers, body: call.body, failOn: call.failOn };
}

async function send(agent: http.Agent, server: ServerProcess, call: Call) {
  const { base, method, path, headers, body } = target(server, call);
  const reply = await request(agent, base, method!, path, headers, body);
  if (reply.status !== 200 || (call.failOn !== undefined && reply.body.includes(call.failOn))) {
    throw new Error(`${server.name} ${call.method} ${call.path} ${call.body ?? ""}: ${reply.status} ${reply.body.slice(0, 500)}`);
  }
  return reply.body;
}

/**
 * A personal access token of `user` with every scope, stored as the service stores one. The service runs with budgets
 * no run exhausts (BUDGETS_UNBOUNDED): their statements are measured, never their refusals.
 */
async function personalTokenOf(databaseUrl: string, user: SeededUser): Promise<string> {
  const token = `fit_pat_${randomBytes(30).toString("base64url")}`;
  const sql = postgres(databaseUrl, { max: 1, onnotice: () => undefined });
  await sql`insert into personal_access_tokens (user_id, name, token_hash, scopes, expires_at)
            values (${user.id}, 'bench', ${secretTokenHash(token)}, ${SCOPE_NAMES}, now() + interval '365 days')`.finally(() => sql.end({ timeout: 5 }));
  return token;
}

const BUDGETS_UNBOUNDED = {
  API_REQUESTS_PER_15_MIN: "1000000000",
  API_REQUESTS_PER_DAY: "1000000000",
  API_COST_BUCKET: "1000000000",
  API_COST_RESTORE_PER_SECOND: "1000000000",
};

async function startAll(env: ServerEnv, tokens: { trainer: string }, trainer: SeededUser): Promise<Servers> {
  const probes: Record<ServerKind, Parameters<typeof startServer>[2]> = {
    service: answers200("GET", "/healthz", {}),
    before: answers200("GET", "/healthz", {}),
    baseline: answers200("GET", `/users/${trainer.id}`, bearer(tokens.trainer)),
    postgraphile: answers200(
      "POST",
      "/graphql",
      { ...bearer(tokens.trainer), "content-type": "application/json" },
      JSON.stringify({ query: "{ __typename }" }),
    ),
  };
  // One after the other: each start (the service's build, PostGraphile's introspection) has the server core alone.
  const service = await startServer("service", env, probes.service);
  const before = env.beforeRoot ? await startServer("before", env, probes.before) : undefined;
  const baseline = await startServer("baseline", env, probes.baseline);
  const postgraphile = await startServer("postgraphile", env, probes.postgraphile);
  return { service, before, baseline, postgraphile };
}

const stopAll = (servers: Partial<Servers>) => Promise.all(Object.values(servers).map((server) => server?.stop()));

/** Keys sorted at every level, so two answers of the same shape compare as strings. */
function canonical(value: unknown): string {
  return JSON.stringify(value, (_, v: unknown) =>
    v && typeof v === "object" && !Array.isArray(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => a.localeCompare(b))) : v,
  );
}

/**
 * Every read answers; the service and PostGraphile answer the same rows. Throws otherwise: nothing is measured. The
 * reads the service as it was before answers the same (its code may not know the schema as it now is): only those
 * are measured beside it.
 */
async function checkAnswers(agent: http.Agent, servers: Servers, reads: Read[]): Promise<Set<Read>> {
  const sameBefore = new Set<Read>();
  for (const read of reads) {
    const answer = await send(agent, servers.service, read.service);
    if (servers.before) {
      const before = await send(agent, servers.before, read.service).catch((error: Error) => error);
      if (typeof before === "string" && canonical(JSON.parse(before)) === canonical(JSON.parse(answer))) sameBefore.add(read);
      else console.log(`  ${read.label}: not measured before (${typeof before === "string" ? "a different answer" : before.message.slice(0, 200)})`);
    }
    if (!read.reference) {
      console.log(`  ${read.label}: ${answer.length} bytes`);
      continue;
    }
    const ours = canonical(read.reference.shape.service(JSON.parse(answer)));
    const theirs = canonical(read.reference.shape.postgraphile(JSON.parse(await send(agent, servers.postgraphile, read.reference.call))));
    if (ours !== theirs) {
      throw new Error(
        `${read.label}: the service and PostGraphile answer differently\n  service:      ${ours.slice(0, 1500)}\n  PostGraphile: ${theirs.slice(0, 1500)}`,
      );
    }
    console.log(`  ${read.label}: ${answer.length} bytes; same rows as PostGraphile (${ours.length} bytes compared)`);
  }
  return sameBefore;
}

/** Statements per request: after a few requests (caches, prepared statements), the fewest over several batches, so a background job's statement is not counted. */
async function statementsPerRequest(agent: http.Agent, counter: StatementCounter, server: ServerProcess, call: Call): Promise<number> {
  for (let i = 0; i < 5; i++) await send(agent, server, call);
  let fewest = Number.POSITIVE_INFINITY;
  for (let batch = 0; batch < COUNTED_BATCHES; batch++) {
    const before = counter.statements();
    for (let i = 0; i < COUNTED_REQUESTS; i++) await send(agent, server, call);
    fewest = Math.min(fewest, (counter.statements() - before) / COUNTED_REQUESTS);
  }
  return fewest;
}

function contenders(read: Read, servers: Servers, baseline: Call): Array<[Contender, ServerProcess, Call]> {
  return [
    ["service", servers.service, read.service],
    ...(servers.before && sameBefore.has(read) ? [["before", servers.before, read.service] as [Contender, ServerProcess, Call]] : []),
    ["baseline", servers.baseline, baseline],
    ...(read.reference ? [["postgraphile", servers.postgraphile, read.reference.call] as [Contender, ServerProcess, Call]] : []),
  ];
}

const median = (values: number[]) => {
  const sorted = values.filter(Number.isFinite).sort((a, b) => a - b);
  if (sorted.length === 0) return Number.NaN;
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};
const perSecond = (value: number) => (Number.isFinite(value) ? value.toFixed(0) : "-");
const ratio = (value: number) => (Number.isFinite(value) ? value.toFixed(2) : "-");
const count = (value: number | undefined) => (value === undefined ? "-" : Number.isInteger(value) ? String(value) : value.toFixed(2));
const describe = (s: Measurement) =>
  `${perSecond(s.rate)} req/s, p50 ${ms(s.p50)} ms, p99 ${ms(s.p99)} ms, server CPU ${cpuPerRequest(s.serverCpuMsPerRequest)} ms/req, database CPU ${cpuPerRequest(s.databaseCpuMsPerRequest)} ms/req, client CPU ${(s.clientBusy * 100).toFixed(0)}%`;
const cpuPerRequest = (value: number) => (Number.isFinite(value) ? value.toFixed(3) : "-");

/** The service's heap peaks over every measured run, from its /metrics. */
let serviceMemory: MemoryPeaks | undefined;

/** `measuredFrom`: when the warm-up ended (performance.now()), so a profile can leave out all that came before. */
async function measure(read: Read, servers: Servers, baseline: Call, observer: postgres.Sql): Promise<{ rounds: Measured["rounds"]; measuredFrom: number }> {
  const entrants = contenders(read, servers, baseline);
  for (const [, server, call] of entrants) await closedLoop(target(server, call), WARMUP_MS, CONCURRENCY);
  const measuredFrom = performance.now();
  const metricsAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const rounds: Measured["rounds"] = [];
  for (let round = 0; round < ROUNDS; round++) {
    // Alternating the order cancels a drift of the machine (other load coming or going) within a pair.
    const order = round % 2 === 0 ? entrants : [...entrants].reverse();
    const results: Partial<Record<Contender, Measurement>> = {};
    for (const [contender, server, call] of order) {
      const isService = contender === "service";
      const gcBefore = isService ? await readGcTime(metricsAgent, server.base) : undefined;
      const memory = isService ? watchMemory(server.base) : undefined;
      const cpuBefore = server.cpuMs();
      const databaseBefore = await databaseCpuMs(observer);
      const summary = await closedLoop(target(server, call), MEASURE_MS, CONCURRENCY);
      const databaseAfter = await databaseCpuMs(observer);
      const serverCpuMs = server.cpuMs() - cpuBefore;
      const peaks = await memory?.stop();
      if (peaks) serviceMemory = serviceMemory ? highest(serviceMemory, peaks) : peaks;
      const gcAfter = gcBefore && (await readGcTime(metricsAgent, server.base));
      results[contender] = {
        ...summary,
        serverCpuMsPerRequest: serverCpuMs / summary.count,
        databaseCpuMsPerRequest: (databaseCpuMsBetween(databaseBefore, databaseAfter) ?? Number.NaN) / summary.count,
        gcMsPerRequest: gcBefore &&
          gcAfter && { minor: (gcAfter.minor - gcBefore.minor) / summary.count, major: (gcAfter.major - gcBefore.major) / summary.count },
      };
    }
    rounds.push(results);
    const line = order.map(([contender]) => `${contender} ${describe(results[contender]!)}`).join(" | ");
    console.log(`    round ${round + 1}: ${line} (load average ${loadavg()[0].toFixed(1)})`);
  }
  metricsAgent.destroy();
  return { rounds, measuredFrom };
}

/**
 * The latency a user sees at half the service's capacity for this read (its median closed-loop requests/s): an
 * open-loop run per round, so a tail that only shows when requests queue behind each other shows. The bare baseline
 * is run at the same rate in each round: its tail is this machine's floor (two cores shared by the servers, PostgreSQL
 * and the load generator), below which no server's can go.
 */
async function measureOpenLoop(read: Read, servers: Servers, baseline: Call, capacity: number): Promise<NonNullable<Measured["openLoop"]>> {
  const rate = Math.max(1, Math.round(capacity / 2));
  const runs: Summary[] = [];
  const baselineRuns: Summary[] = [];
  const describeRun = (run: Summary) =>
    `p50 ${ms(run.p50)} ms, p99 ${ms(run.p99)} ms, max ${ms(run.max)} ms (issued late by ${ms(run.lateP99 ?? Number.NaN)} ms at p99)`;
  for (let round = 0; round < ROUNDS; round++) {
    const run = await openLoop(target(servers.service, read.service), MEASURE_MS, rate, CONCURRENCY);
    const floor = await openLoop(target(servers.baseline, baseline), MEASURE_MS, rate, CONCURRENCY);
    console.log(`    open loop at ${rate} req/s, round ${round + 1}: service ${describeRun(run)} | baseline ${describeRun(floor)}`);
    runs.push(run);
    baselineRuns.push(floor);
  }
  return { rate, runs, baselineRuns };
}

/** CPU time per answer, the server's and PostgreSQL's. */
const cpuPerAnswer = (s: Measurement) => s.serverCpuMsPerRequest + s.databaseCpuMsPerRequest;

/** The service's peak RSS target (issue 34: under 250 MB, read as decimal megabytes: the stricter reading). */
const PEAK_RSS_MIB = 250e6 / 2 ** 20;

/** Issue 34's targets, each checked on this run's rounds: the median must meet it; the range says how steady it was. */
function printTargets(measured: Measured[], peakRssMiB: number): void {
  const range = (values: number[], digits: number) =>
    `${median(values).toFixed(digits)} (${Math.min(...values).toFixed(digits)}–${Math.max(...values).toFixed(digits)})`;
  const rows: string[][] = [];
  let met = 0;
  let all = 0;
  const verdict = (ok: boolean) => {
    all++;
    if (ok) met++;
    return ok ? "met" : "NOT MET";
  };
  for (const { read, rounds, openLoop } of measured) {
    const wanted: Target | undefined = read.target;
    if (!wanted) continue;
    const { comparator, by } = wanted.cheaperThan;
    const ratios = rounds.filter((r) => r.service && r[comparator]).map((r) => cpuPerAnswer(r[comparator]!) / cpuPerAnswer(r.service!));
    rows.push([read.label, `CPU per answer, ${comparator} ÷ service`, `≥ ${by.toFixed(2)}`, range(ratios, 2), verdict(median(ratios) >= by)]);
    if (wanted.p99UnderMsAtHalfCapacity !== undefined && openLoop) {
      const p99s = openLoop.runs.map((run) => run.p99);
      rows.push([
        read.label,
        `p99 ms, open loop at ${openLoop.rate} req/s (baseline's at that rate: ${range(
          openLoop.baselineRuns.map((run) => run.p99),
          1,
        )})`,
        `< ${wanted.p99UnderMsAtHalfCapacity}`,
        range(p99s, 1),
        verdict(median(p99s) < wanted.p99UnderMsAtHalfCapacity),
      ]);
    }
  }
  rows.push(["the service", "peak RSS MiB (VmHWM)", `< ${PEAK_RSS_MIB.toFixed(1)}`, peakRssMiB.toFixed(0), verdict(peakRssMiB < PEAK_RSS_MIB)]);
  console.log(`\n=== issue 34's targets: median of ${ROUNDS} round(s) (lowest–highest) ===\n`);
  printTable(["read", "figure", "target", "this run", ""], rows);
  console.log(`\n${met} of ${all} targets met`);
}

async function main() {
  if (Number(process.versions.node.split(".")[0]) < 22) throw new Error(`PostGraphile 5 needs Node 22 or newer; this is ${process.version}`);
  pinThisProcessToClientCore();
  const scratch = scratchDatabase("fitness_api_bench");
  const dataDir = mkdtempSync(path.join(tmpdir(), "fitness-api-bench-"));
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  let servers: Partial<Servers> = {};
  let counter: StatementCounter | undefined;
  /** Reads the database's backends' CPU time while reads are measured. */
  let observer: postgres.Sql | undefined;
  let cleaned = false;
  const cleanup = async () => {
    if (cleaned) return;
    cleaned = true;
    agent.destroy();
    await stopAll(servers);
    await counter?.close();
    await observer?.end({ timeout: 5 });
    await scratch.drop();
    rmSync(dataDir, { recursive: true, force: true });
  };
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the servers, dropping ${scratch.name}`);
    void cleanup().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);

  try {
    const version = await scratch.create();
    console.log(
      `PostgreSQL ${version}; scratch database ${scratch.name}; Node ${process.version}; cores: ${cpus().length}, ` +
        `${pinning ? `servers on core ${pinning.server}, load generator on core ${pinning.client}` : "not pinned (needs 2 cores and taskset)"}; ` +
        `${CONCURRENCY} connections, ${ROUNDS} paired round(s) of ${secs(MEASURE_MS)} after ${secs(WARMUP_MS)} of warm-up per server and read`,
    );
    const database = await openDatabase({ databaseUrl: scratch.url });
    await database.migrate();
    await database.close();
    const seed = postgres(scratch.url, { max: 1, onnotice: () => undefined, connection: { work_mem: "512MB", maintenance_work_mem: "512MB" } });
    const seedStarted = performance.now();
    const world = await seedApiWorld(seed).finally(() => seed.end({ timeout: 5 }));
    console.log(
      `seeded in ${secs(performance.now() - seedStarted)}: 1 trainer, ${world.students.length} students, ${world.exerciseIds.length} exercises, ` +
        `${world.trainingIds.length} trainings, ${world.planIds.length} plans, ${world.counts.trainingExecutions} training executions, ` +
        `${world.counts.exerciseExecutions} exercise executions, ${world.counts.sets} sets`,
    );

    const jwtSecret = randomBytes(48).toString("base64url");
    const accessTokens = new AccessTokens(jwtSecret, systemClock);
    const tokenOf = (user: SeededUser) => accessTokens.issue({ ...user, isAdmin: false, sessionVersion: 1 }).token;
    const tokens = { trainer: tokenOf(world.trainer), student: tokenOf(world.students[0]), trainerPersonal: await personalTokenOf(scratch.url, world.trainer) };
    const reads = apiReads(world, tokens).filter((read) => !READS || READS.test(read.label));
    const baseline = baselineCall(world, tokens);

    // 1. Answers and statement counts, on instances whose connections go through the counting proxy.
    counter = await startStatementCounter(scratch.url);
    servers = await startAll({ databaseUrl: counter.url, jwtSecret, dataDir, beforeRoot: BEFORE, serviceEnv: BUDGETS_UNBOUNDED }, tokens, world.trainer);
    console.log("\n# answers");
    sameBefore = await checkAnswers(agent, servers as Servers, reads);
    console.log("\n# SQL statements per request");
    const statements = new Map<Read, Measured["statements"]>();
    const baselineStatements = await statementsPerRequest(agent, counter, servers.baseline!, baseline);
    console.log(`  baseline: ${count(baselineStatements)}`);
    for (const read of reads) {
      const service = await statementsPerRequest(agent, counter, servers.service!, read.service);
      const before = sameBefore.has(read) ? await statementsPerRequest(agent, counter, servers.before!, read.service) : undefined;
      const postgraphile = read.reference ? await statementsPerRequest(agent, counter, servers.postgraphile!, read.reference.call) : undefined;
      statements.set(read, { service, before, postgraphile });
      console.log(
        `  ${read.label}: service ${count(service)}${before === undefined ? "" : `, before ${count(before)}`}${postgraphile === undefined ? "" : `, PostGraphile ${count(postgraphile)}`}`,
      );
    }
    agent.destroy();
    await stopAll(servers);
    servers = {};
    await counter.close();
    counter = undefined;

    // 2. The measurement, on fresh instances connected to PostgreSQL directly.
    servers = await startAll({ databaseUrl: scratch.url, jwtSecret, dataDir, beforeRoot: BEFORE, serviceEnv: BUDGETS_UNBOUNDED }, tokens, world.trainer);
    const running = servers as Servers;
    observer = postgres(scratch.url, { max: 1, onnotice: () => undefined });
    const measured: Measured[] = [];
    let servicePeak = 0;
    for (const [index, read] of reads.entries()) {
      console.log(`\n# ${read.label}`);
      const profileDir = CPU_PROFILE_DIR && path.join(CPU_PROFILE_DIR, String(index + 1));
      // Profiled: a service of its own (and a before of its own) per read, so each profile holds this read alone.
      const profiled: Array<"service" | "before"> = profileDir ? ["service", ...(sameBefore.has(read) ? (["before"] as const) : [])] : [];
      for (const kind of profiled) {
        const dir = path.join(profileDir!, kind);
        mkdirSync(dir, { recursive: true });
        await running[kind]!.stop();
        running[kind] = await startServer(
          kind,
          { databaseUrl: scratch.url, jwtSecret, dataDir, beforeRoot: BEFORE, cpuProfileDir: dir, serviceEnv: BUDGETS_UNBOUNDED },
          answers200("GET", "/healthz", {}),
        );
      }
      const { rounds, measuredFrom } = await measure(read, running, baseline, observer);
      const capacity = median(rounds.map((round) => round.service!.rate));
      const open = read.target?.p99UnderMsAtHalfCapacity === undefined ? undefined : await measureOpenLoop(read, running, baseline, capacity);
      measured.push({ read, rounds, openLoop: open, statements: statements.get(read)! });
      servicePeak = Math.max(servicePeak, running.service.peakRssMiB());
      const profiles: Partial<Record<"service" | "before", { summary: ProfileSummary; answers: number }>> = {};
      for (const kind of profiled) {
        const server = running[kind]!;
        await server.stop();
        // The main thread's profile (worker threads write their own, smaller ones), less the start-up and the warm-up
        // (modules loaded on first use, functions not yet optimized).
        const dir = path.join(profileDir!, kind);
        const [main] = readdirSync(dir)
          .filter((name) => name.endsWith(".cpuprofile"))
          .sort((a, b) => a.localeCompare(b));
        const skipMs = measuredFrom - server.startedAt;
        console.log(`  ${kind} profile ${path.join(dir, main)} (the first ${secs(skipMs)}, start-up and warm-up, left out)`);
        const summary = summarizeProfile(path.join(dir, main), skipMs);
        printProfileSummary(summary);
        const openLoopAnswers = kind === "service" ? (open?.runs.reduce((sum, run) => sum + run.count, 0) ?? 0) : 0;
        profiles[kind] = { summary, answers: rounds.reduce((sum, round) => sum + (round[kind]?.count ?? 0), 0) + openLoopAnswers };
      }
      if (profiles.service && profiles.before) printProfileComparison(profiles.service, profiles.before);
    }
    const peak = { service: servicePeak, baseline: running.baseline.peakRssMiB(), postgraphile: running.postgraphile.peakRssMiB() };

    console.log(
      `\n=== ${CONCURRENCY} connections; median of ${ROUNDS} paired round(s) of ${secs(MEASURE_MS)}; ` +
        `÷ = the service's requests/s over the other's, round by round, median ===\n`,
    );
    const header = [
      "read",
      "req/s",
      "p50 ms",
      "p99 ms",
      "CPU ms/req",
      "DB CPU ms/req",
      "GC ms/req minor+major",
      ...(BEFORE ? ["before CPU ms/req", "before DB CPU ms/req", "before statements"] : []),
      "baseline req/s",
      "baseline CPU ms/req",
      "÷ baseline",
      "PostGraphile req/s",
      "PostGraphile p99 ms",
      "PostGraphile CPU ms/req",
      "PostGraphile DB CPU ms/req",
      "÷ PostGraphile",
      "statements",
      "PostGraphile statements",
      "failed",
    ];
    let failed = 0;
    const rows = measured.map(({ read, rounds, openLoop: open, statements: counted }) => {
      const of = (contender: Contender, pick: (s: Measurement) => number) => median(rounds.map((r) => (r[contender] ? pick(r[contender]) : Number.NaN)));
      const versus = (other: Contender) => median(rounds.map((r) => (r[other] ? r.service!.rate / r[other].rate : Number.NaN)));
      const errors =
        rounds.reduce((sum, r) => sum + Object.values(r).reduce((n, s) => n + s.errors, 0), 0) +
        [...(open?.runs ?? []), ...(open?.baselineRuns ?? [])].reduce((n, run) => n + run.errors, 0);
      failed += errors;
      return [
        read.label,
        perSecond(of("service", (s) => s.rate)),
        ms(of("service", (s) => s.p50)),
        ms(of("service", (s) => s.p99)),
        cpuPerRequest(of("service", (s) => s.serverCpuMsPerRequest)),
        cpuPerRequest(of("service", (s) => s.databaseCpuMsPerRequest)),
        `${cpuPerRequest(of("service", (s) => s.gcMsPerRequest?.minor ?? Number.NaN))}+${cpuPerRequest(of("service", (s) => s.gcMsPerRequest?.major ?? Number.NaN))}`,
        ...(BEFORE
          ? [cpuPerRequest(of("before", (s) => s.serverCpuMsPerRequest)), cpuPerRequest(of("before", (s) => s.databaseCpuMsPerRequest)), count(counted.before)]
          : []),
        perSecond(of("baseline", (s) => s.rate)),
        cpuPerRequest(of("baseline", (s) => s.serverCpuMsPerRequest)),
        ratio(versus("baseline")),
        perSecond(of("postgraphile", (s) => s.rate)),
        ms(of("postgraphile", (s) => s.p99)),
        cpuPerRequest(of("postgraphile", (s) => s.serverCpuMsPerRequest)),
        cpuPerRequest(of("postgraphile", (s) => s.databaseCpuMsPerRequest)),
        ratio(versus("postgraphile")),
        count(counted.service),
        count(counted.postgraphile),
        String(errors),
      ];
    });
    printTable(header, rows);
    console.log(`\nbaseline statements per request: ${count(baselineStatements)} (the counter's check: one row by id)`);
    console.log(
      `peak RSS (VmHWM): service ${peak.service.toFixed(0)} MiB; baseline ${peak.baseline.toFixed(0)} MiB; PostGraphile ${peak.postgraphile.toFixed(0)} MiB`,
    );
    if (serviceMemory) {
      const m = serviceMemory;
      console.log(
        `service's peaks while measured (its /metrics, each second): heap ${m.heapTotal.toFixed(0)} MiB (used ${m.heapUsed.toFixed(0)}; ` +
          `old space ${m.oldSpace.toFixed(0)}, new space ${m.newSpace.toFixed(0)}, code ${m.codeSpace.toFixed(0)}), external ${m.external.toFixed(0)} MiB`,
      );
    }
    printTargets(measured, peak.service);
    const busiest = Math.max(...measured.flatMap(({ rounds }) => rounds.flatMap((r) => Object.values(r).map((s) => s.clientBusy))));
    console.log(
      `load generator CPU, busiest run: ${(busiest * 100).toFixed(0)}% of its core${busiest > 0.9 ? " — the client may have been the bottleneck" : ""}`,
    );
    if (failed > 0) throw new Error(`${failed} failed answers while measuring`);
  } finally {
    await cleanup();
  }
}

runBenchmark(main);
