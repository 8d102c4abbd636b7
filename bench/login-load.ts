/**
 * Login load: do bcrypt logins (cost 10, the production default) stall cheap requests?
 *
 * Starts the real app in this process (in-memory PGlite, or a scratch database with DATABASE_URL), registers one user,
 * measures cheap GETs (/healthz and /api/users/profile, closed loop, 4 at a time) for a baseline, then
 * again while logins arrive at a fixed rate (open loop: fired on a timer, never waiting for answers).
 * Prints latency percentiles, refused logins (503 from the hasher's bounded queue) and event-loop delay.
 *
 *   npm run bench                      # PGlite in memory
 *   DATABASE_URL=postgres://… npm run bench
 */
import "reflect-metadata";
import http from "node:http";
import { availableParallelism } from "node:os";
import { setTimeout as sleep } from "node:timers/promises";
import { startBenchApp } from "./bench-app.js";
import { ms, percentile, request, watchEventLoopDelay, runBenchmark } from "./support.js";

const BASELINE_MS = 5_000;
const LOAD_MS = 15_000;
const LOGINS_PER_SECOND = 20;
const CHEAP_CONCURRENCY = 4;
/** How long to wait, after the load, for logins still queued. */
const DRAIN_MS = 15_000;

interface Summary {
  count: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
}

function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    count: sorted.length,
    p50: percentile(sorted, 50),
    p95: percentile(sorted, 95),
    p99: percentile(sorted, 99),
    max: sorted[sorted.length - 1] ?? Number.NaN,
  };
}

/** Closed loop: `concurrency` callers, each sending the next cheap GET as soon as the last one answered. */
async function cheapLoop(agent: http.Agent, base: URL, token: string, durationMs: number, concurrency: number) {
  const latencies = { healthz: [] as number[], profile: [] as number[] };
  let errors = 0;
  const until = performance.now() + durationMs;
  const caller = async (index: number) => {
    let turn = index;
    while (performance.now() < until) {
      const profile = turn++ % 2 === 1;
      const started = performance.now();
      const reply = profile
        ? await request(agent, base, "GET", "/api/users/profile", { authorization: `Bearer ${token}` })
        : await request(agent, base, "GET", "/healthz");
      const elapsed = performance.now() - started;
      if (reply.status !== 200) errors++;
      (profile ? latencies.profile : latencies.healthz).push(elapsed);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, i) => caller(i)));
  return { ...latencies, errors };
}

/** Open loop: LOGINS_PER_SECOND logins for `durationMs`, on schedule, whatever happened to the earlier ones. */
async function loginLoad(agent: http.Agent, base: URL, credentials: { email: string; password: string }, durationMs: number) {
  const latencies: number[] = [];
  const statuses = new Map<number, number>();
  const inFlight = new Set<Promise<void>>();
  const body = JSON.stringify(credentials);
  let fired = 0;
  let lastAnswerAt = 0;
  const fire = () => {
    fired++;
    const started = performance.now();
    const done = request(agent, base, "POST", "/api/users/login", { "content-type": "application/json" }, body).then((reply) => {
      statuses.set(reply.status, (statuses.get(reply.status) ?? 0) + 1);
      if (reply.status === 200) latencies.push(performance.now() - started);
      lastAnswerAt = performance.now();
      inFlight.delete(done);
    });
    inFlight.add(done);
  };
  // Paced by the schedule, not by the timer's ticks: a tick that comes late (a busy event loop) fires
  // every login that was due meanwhile, so the offered rate stays LOGINS_PER_SECOND.
  const started = performance.now();
  const total = Math.round((durationMs / 1000) * LOGINS_PER_SECOND);
  const tick = () => {
    const due = Math.min(total, Math.floor(((performance.now() - started) / 1000) * LOGINS_PER_SECOND) + 1);
    while (fired < due) fire();
  };
  tick();
  const timer = setInterval(tick, 5);
  await sleep(durationMs);
  clearInterval(timer);
  while (fired < total) fire();
  const drained = await Promise.race([Promise.all([...inFlight]).then(() => true), sleep(DRAIN_MS).then(() => false)]);
  const throughput = latencies.length / ((lastAnswerAt - started) / 1000);
  return { fired, latencies, statuses, throughput, unfinished: drained ? 0 : inFlight.size };
}

async function main() {
  // No `hasher` override: the production pool (bcrypt cost 10, one thread per core, bounded queue).
  const bench = await startBenchApp();
  const { base } = bench;

  const cheapAgent = new http.Agent({ keepAlive: true, maxSockets: CHEAP_CONCURRENCY });
  const loginAgent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const credentials = { email: `bench-${Date.now()}@example.com`, password: "bench-password-1" };
  const registered = await request(
    cheapAgent,
    base,
    "POST",
    "/api/users/register",
    { "content-type": "application/json" },
    JSON.stringify({ name: "Bench", ...credentials, userType: "ALUNO", requestLocation: "WEB", confirmed: true }),
  );
  if (registered.status !== 201) throw new Error(`register failed: ${registered.status} ${registered.body}`);
  const token = (JSON.parse(registered.body) as { token: string }).token;

  console.log(
    `database: ${bench.databaseKind}; cores: ${availableParallelism()}; bcrypt cost 10; ` +
      `baseline ${BASELINE_MS / 1000}s, then ${LOGINS_PER_SECOND} logins/s for ${LOAD_MS / 1000}s; ${CHEAP_CONCURRENCY} concurrent cheap GETs`,
  );

  // Warm-up (JIT, connections), not measured.
  await cheapLoop(cheapAgent, base, token, 500, CHEAP_CONCURRENCY);

  // A login with nothing else going on: the cost of one bcrypt comparison plus the request.
  const alone: number[] = [];
  for (let i = 0; i < 5; i++) {
    const started = performance.now();
    const reply = await request(cheapAgent, base, "POST", "/api/users/login", { "content-type": "application/json" }, JSON.stringify(credentials));
    if (reply.status !== 200) throw new Error(`login failed: ${reply.status} ${reply.body}`);
    alone.push(performance.now() - started);
  }

  const baselineWatch = watchEventLoopDelay();
  const baseline = await cheapLoop(cheapAgent, base, token, BASELINE_MS, CHEAP_CONCURRENCY);
  const baselineLoop = baselineWatch.read();

  const loadWatch = watchEventLoopDelay();
  let loadLoop = { p99: Number.NaN, max: Number.NaN };
  const [loaded, logins] = await Promise.all([
    // The event-loop figures cover the load window itself, not the drain of queued logins after it.
    cheapLoop(cheapAgent, base, token, LOAD_MS, CHEAP_CONCURRENCY).then((result) => {
      loadLoop = loadWatch.read();
      return result;
    }),
    loginLoad(loginAgent, base, credentials, LOAD_MS),
  ]);

  // req/s: answers per second of the phase (for the loaded logins: from the first fired to the last answer).
  const rows: Array<[string, Summary, number]> = [
    ["GET /healthz, baseline", summarize(baseline.healthz), baseline.healthz.length / (BASELINE_MS / 1000)],
    ["GET /healthz, under login load", summarize(loaded.healthz), loaded.healthz.length / (LOAD_MS / 1000)],
    ["GET /api/users/profile, baseline", summarize(baseline.profile), baseline.profile.length / (BASELINE_MS / 1000)],
    ["GET /api/users/profile, under login load", summarize(loaded.profile), loaded.profile.length / (LOAD_MS / 1000)],
    ["POST /api/users/login, alone (5 in a row)", summarize(alone), Number.NaN],
    [`POST /api/users/login, ${LOGINS_PER_SECOND}/s offered (200s)`, summarize(logins.latencies), logins.throughput],
  ];
  const header = ["", "count", "req/s", "p50 ms", "p95 ms", "p99 ms", "max ms"];
  const table = rows.map(([label, s, rate]) => [
    label,
    String(s.count),
    Number.isFinite(rate) ? rate.toFixed(rate < 100 ? 1 : 0) : "-",
    ms(s.p50),
    ms(s.p95),
    ms(s.p99),
    ms(s.max),
  ]);
  const widths = header.map((h, i) => Math.max(h.length, ...table.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log();
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of table) console.log(line(row));
  console.log();

  const refused = logins.statuses.get(503) ?? 0;
  const statusText = [...logins.statuses.entries()]
    .sort(([a], [b]) => a - b)
    .map(([status, n]) => `${status}×${n}`)
    .join(", ");
  console.log(`logins fired: ${logins.fired}; answers: ${statusText}; refused (503): ${refused}; unanswered after drain: ${logins.unfinished}`);
  console.log(`cheap GET errors: baseline ${baseline.errors}, under load ${loaded.errors}`);
  console.log(
    `event-loop delay p99: baseline ${ms(baselineLoop.p99)} ms (max ${ms(baselineLoop.max)}), under load ${ms(loadLoop.p99)} ms (max ${ms(loadLoop.max)})`,
  );

  cheapAgent.destroy();
  loginAgent.destroy();
  await bench.close();
}

runBenchmark(main);
