/**
 * Fuzzer (issue 10): sends hostile variants of every operation of the OpenAPI document, and a handful of hostile
 * GraphQL documents, to the service booted in this process; fails on any 5xx, any answer over 2 s, no answer, a stack
 * trace or SQL text in a body, the app crashing, or /healthz not answering afterwards.
 *
 * The service runs on PGlite in memory, or with DATABASE_URL set on a scratch PostgreSQL database it creates and
 * drops; mail goes to files, payments to the sandbox gateways, webhooks have a secret. A trainer, a student
 * and an administrator (plus another trainer and student, owners of "someone else's" rows) are registered and one
 * row of every kind is created through the API, so path ids point at real rows. Each operation gets `count` variants
 * (wrong types, huge and deeply nested values, odd numbers and dates, control and RTL characters, malformed multipart
 * and encodings, hostile tokens), sent as each role or anonymous. The seed is printed: the same seed sends the same
 * variants, and FUZZ_ONLY narrows a run to the operations whose "METHOD /path" contains it.
 *
 *   npm run fuzz
 *   npm run fuzz -- --count 5 --seed 1234
 *   FUZZ_COUNT=5 FUZZ_SEED=1234 FUZZ_ONLY="POST /trainings" npm run fuzz -- --verbose   # every request and its answer
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run fuzz
 */
import "reflect-metadata";
import { parseArgs } from "node:util";
import { problemsOf, send, SLOW_MS, type Answer, type FuzzRequest, type Reason } from "./fuzz/client.js";
import { graphqlRequests } from "./fuzz/graphql.js";
import { operationsOf, RestVariants } from "./fuzz/operations.js";
import { Random } from "./fuzz/random.js";
import { startWorld, type World } from "./fuzz/world.js";
import { ms, percentile, watchEventLoopDelay, runBenchmark } from "./support.js";

/** A request that gets no answer for this long is abandoned (and reported): a hang cannot stall the run. */
const REQUEST_TIMEOUT_MS = 10_000;
/** Late answers sent again, one at a time, to tell a slow request from one that waited behind another (one per variant). */
const LATE_RECHECKS = 16;

const { values: args } = parseArgs({
  options: { count: { type: "string" }, seed: { type: "string" }, concurrency: { type: "string" }, only: { type: "string" }, verbose: { type: "boolean" } },
});
const count = Number(args.count ?? process.env.FUZZ_COUNT ?? 20);
const seed = Number(args.seed ?? process.env.FUZZ_SEED ?? Math.floor(Math.random() * 2 ** 31));
const concurrency = Number(args.concurrency ?? process.env.FUZZ_CONCURRENCY ?? 4);
const only = args.only ?? process.env.FUZZ_ONLY;
/** Prints every request with its answer. */
const verbose = args.verbose ?? process.env.FUZZ_VERBOSE === "1";

interface Example {
  request: FuzzRequest;
  answer: Answer;
  detail: string;
}

interface FailureGroup {
  operation: string;
  reason: Reason;
  count: number;
  example: Example;
  /** Other variants that failed the same way (a few). */
  others: Set<string>;
}

/** When a request was under way, on the clock of performance.now(). */
interface Span {
  request: FuzzRequest;
  start: number;
  end: number;
}

class Results {
  readonly statuses = new Map<string, number>();
  readonly latencies: number[] = [];
  readonly failures = new Map<string, FailureGroup>();
  readonly sentPerOperation = new Map<string, number>();
  readonly spans: Span[] = [];
  /** Every failing request, briefly. */
  readonly failing: Array<{ operation: string; reason: Reason; label: string }> = [];
  /** Answers over 2 s or none at all, judged once the run is over (see `judgeLate`). */
  readonly late: Array<{ span: Span; request: FuzzRequest; answer: Answer; reason: "slow" | "no answer" }> = [];
  requests = 0;

  record(request: FuzzRequest, answer: Answer, start: number): void {
    this.requests += 1;
    this.sentPerOperation.set(request.operation, (this.sentPerOperation.get(request.operation) ?? 0) + 1);
    const status = answer.error ? (answer.error.startsWith("not sendable") ? "not sendable" : "no answer") : String(answer.status);
    this.statuses.set(status, (this.statuses.get(status) ?? 0) + 1);
    if (!answer.error) this.latencies.push(answer.elapsedMs);
    // Bodies are dropped from the timeline: only the late ones' neighbours are ever named.
    const span = { request: { ...request, body: undefined }, start, end: start + answer.elapsedMs };
    this.spans.push(span);
    for (const problem of problemsOf(request, answer)) {
      if (problem.reason === "slow" || problem.reason === "no answer") this.late.push({ span, request, answer, reason: problem.reason });
      else this.fail(request.operation, problem.reason, { request, answer, detail: problem.detail });
    }
  }

  fail(operation: string, reason: Reason, example: Example): void {
    this.failing.push({ operation, reason, label: example.request.label });
    const key = `${operation}\u0000${reason}`;
    const group = this.failures.get(key);
    if (!group) {
      this.failures.set(key, { operation, reason, count: 1, example, others: new Set() });
      return;
    }
    group.count += 1;
    if (group.others.size < 4 && example.request.label !== group.example.request.label) group.others.add(example.request.label);
  }

  get failed(): number {
    return [...this.failures.values()].reduce((sum, group) => sum + group.count, 0);
  }
}

const excerpt = (bytes: Buffer | undefined, max = 160) => {
  if (!bytes || bytes.length === 0) return "(empty)";
  const text = bytes.subarray(0, max).toString("utf8");
  return `${bytes.length.toLocaleString("en")} bytes: ${JSON.stringify(text)}${bytes.length > max ? "…" : ""}`;
};

function describe(example: Example): string[] {
  const { request, answer, detail } = example;
  const headers = ["content-type", "content-encoding"]
    .filter((name) => request.headers[name] !== undefined)
    .map((name) => `${name}: ${request.headers[name]}`)
    .join(", ");
  const path = request.path.length > 200 ? `${request.path.slice(0, 200)}… (${request.path.length.toLocaleString("en")} characters)` : request.path;
  const outcome = answer.error
    ? `no answer after ${Math.round(answer.elapsedMs)} ms: ${answer.error}`
    : `${answer.status} in ${Math.round(answer.elapsedMs)} ms: ${excerpt(answer.body, 200)}`;
  return [
    `  e.g. ${request.label} (as ${request.as}) — ${detail}`,
    `       ${request.method} ${path}${headers ? `  [${headers}]` : ""}`,
    ...(request.body ? [`       body ${excerpt(request.body)}`] : []),
    `       → ${outcome}`,
  ];
}

/** Runs `tasks` with `concurrency` workers; `inFlight` holds what is being sent (for a crash report). */
async function runAll(world: World, tasks: Array<() => FuzzRequest>, results: Results, inFlight: Set<FuzzRequest>, progress: (done: number) => void) {
  let next = 0;
  let done = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const request = tasks[next++]();
      inFlight.add(request);
      const start = performance.now();
      const answer = await send(world.agent, world.base, request, REQUEST_TIMEOUT_MS);
      inFlight.delete(request);
      results.record(request, answer, start);
      if (verbose)
        console.log(
          `  ${answer.error ? "---" : answer.status} ${Math.round(answer.elapsedMs).toString().padStart(5)} ms  ${request.operation} — ${request.label} (as ${request.as})`,
        );
      progress(++done);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, worker));
}

function printTable(header: string[], rows: string[][]) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((row) => row[i].length)));
  const line = (cells: string[]) => cells.map((cell, i) => (i < 2 ? cell.padEnd(widths[i]) : cell.padStart(widths[i]))).join("  ");
  console.log(line(header));
  console.log(widths.map((w) => "-".repeat(w)).join("  "));
  for (const row of rows) console.log(line(row));
}

async function main(): Promise<number> {
  if (!(count >= 1) || !Number.isInteger(seed) || !(concurrency >= 1)) throw new Error("--count and --concurrency must be at least 1, --seed an integer");
  console.log(`fuzz: seed ${seed}, ${count} variants per operation, concurrency ${concurrency}${only ? `, only operations matching "${only}"` : ""}`);
  console.log(`replay: FUZZ_SEED=${seed} FUZZ_COUNT=${count}${only ? ` FUZZ_ONLY="${only}"` : ""} npm run fuzz`);

  const results = new Results();
  const inFlight = new Set<FuzzRequest>();
  // The service runs in this process: whatever it throws past its handlers lands here, and is a failure of the run.
  const crashed = (error: unknown) => {
    const message = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const culprit = [...inFlight][0];
    const request = culprit ?? { operation: "(none in flight)", label: "-", as: "-", method: "-", path: "-", headers: {} };
    results.fail(request.operation, "app crash", {
      request,
      answer: { status: -1, contentType: "", body: Buffer.alloc(0), elapsedMs: 0, error: "process-level exception" },
      detail: `${message}; ${inFlight.size} request(s) in flight`,
    });
  };
  process.on("uncaughtException", crashed);
  process.on("unhandledRejection", crashed);

  const bootStarted = performance.now();
  const world = await startWorld(concurrency);
  const interrupted = (signal: NodeJS.Signals) => {
    console.error(`\n${signal}: stopping the service${world.database.startsWith("PostgreSQL") ? " and dropping the scratch database" : ""}`);
    void world.close().finally(() => process.exit(130));
  };
  process.once("SIGINT", interrupted);
  process.once("SIGTERM", interrupted);
  try {
    console.log(`service on ${world.base.origin}, ${world.database}; people and rows created in ${ms(performance.now() - bootStarted)} ms`);
    const documentAnswer = await send(
      world.agent,
      world.base,
      { operation: "-", label: "-", as: "anonymous", method: "GET", path: "/api/openapi.json", headers: {} },
      REQUEST_TIMEOUT_MS,
    );
    if (documentAnswer.status !== 200) throw new Error(`GET /api/openapi.json answered ${documentAnswer.status}`);
    const allOperations = operationsOf(JSON.parse(documentAnswer.body.toString()));
    if (allOperations.length === 0) throw new Error("the OpenAPI document has no operations");
    const operations = allOperations.filter((op) => !only || op.key.includes(only));
    const variants = new RestVariants(world, seed);
    const tasks: Array<() => FuzzRequest> = [];
    for (const op of operations) for (let i = 0; i < count; i++) tasks.push(() => variants.request(op, i));
    const graphql = graphqlRequests(world, Random.derive(seed, "graphql")).filter((request) => !only || request.operation.includes(only));
    tasks.push(...graphql.map((request) => () => request));
    console.log(
      `operations: ${allOperations.length} in the document, ${operations.length} fuzzed × ${count} + ${graphql.length} GraphQL requests = ${tasks.length} requests`,
    );

    const started = performance.now();
    const loop = watchEventLoopDelay();
    let reported = 0;
    await runAll(world, tasks, results, inFlight, (done) => {
      if (done - reported >= 200 || done === tasks.length) {
        reported = done;
        console.log(`  ${done}/${tasks.length} sent, ${results.failed} failing, ${Math.round((performance.now() - started) / 1000)} s`);
      }
    });
    const elapsed = performance.now() - started;
    const loopDelay = loop.read();

    await judgeLate(world, results);

    const health = await send(
      world.agent,
      world.base,
      { operation: "GET /healthz", label: "after the run", as: "anonymous", method: "GET", path: "/healthz", headers: {} },
      REQUEST_TIMEOUT_MS,
    );
    if (health.status !== 200)
      results.fail("GET /healthz", "health", {
        request: { operation: "GET /healthz", label: "after the run", as: "anonymous", method: "GET", path: "/healthz", headers: {} },
        answer: health,
        detail: "the service no longer answers",
      });
    const mailed = await world.app.mailWorker.runOnce().then(
      (n) => `mail outbox drained (${n} left for the last delivery)`,
      (error: unknown) => `mail delivery failed: ${String(error)}`,
    );

    report(results, elapsed, loopDelay, world, mailed, operations.length);
    return results.failures.size > 0 ? 1 : 0;
  } finally {
    await world.close();
  }
}

/**
 * Every late answer (over 2 s, or none) is a failure. Sent again alone (once per variant, the slowest first, up to a
 * few), it is told apart: late by itself, or only alongside others, then with the requests that ran at the same time
 * (the service and this client share one event loop, so one request's work delays every other), the costliest first.
 */
async function judgeLate(world: World, results: Results): Promise<void> {
  const late = [...results.late].sort((a, b) => b.answer.elapsedMs - a.answer.elapsedMs);
  const variant = (request: FuzzRequest) => `${request.operation}\u0000${request.label}`;
  const alone = new Map<string, { ms: number; late: boolean }>();
  for (const entry of late) {
    if (alone.has(variant(entry.request)) || alone.size >= LATE_RECHECKS) continue;
    const answer = await send(world.agent, world.base, entry.request, REQUEST_TIMEOUT_MS);
    alone.set(variant(entry.request), { ms: answer.elapsedMs, late: answer.error !== undefined || answer.elapsedMs > SLOW_MS });
  }
  const aloneMs = (span: Span) => alone.get(variant(span.request))?.ms ?? 0;
  // What a neighbour costs by itself: its time alone where measured, else its time here.
  const weight = (span: Span) => alone.get(variant(span.request))?.ms ?? span.end - span.start;
  for (const entry of late) {
    const took = entry.answer.error ? `no answer in ${Math.round(entry.answer.elapsedMs)} ms` : `${Math.round(entry.answer.elapsedMs)} ms`;
    const again = alone.get(variant(entry.request));
    const example = { request: entry.request, answer: entry.answer };
    if (!again) {
      results.fail(entry.request.operation, entry.reason, { ...example, detail: `${took} (not sent again alone)` });
      continue;
    }
    const verdict = `${took}; alone ${Math.round(again.ms)} ms`;
    if (again.late) {
      results.fail(entry.request.operation, `${entry.reason}, alone too`, { ...example, detail: verdict });
      continue;
    }
    const neighbours = results.spans
      .filter((span) => span !== entry.span && span.start < entry.span.end && span.end > entry.span.start)
      .sort((a, b) => weight(b) - weight(a))
      .slice(0, 3)
      .map(
        (span) =>
          `${span.request.operation} — ${span.request.label} (${Math.round(span.end - span.start)} ms${aloneMs(span) ? `, alone ${Math.round(aloneMs(span))} ms` : ""})`,
      );
    results.fail(entry.request.operation, `${entry.reason} alongside others`, { ...example, detail: `${verdict}; meanwhile: ${neighbours.join(" | ")}` });
  }
}

function report(results: Results, elapsedMs: number, loopDelay: { p99: number; max: number }, world: World, mailed: string, operations: number) {
  const latencies = [...results.latencies].sort((a, b) => a - b);
  const statuses = [...results.statuses.entries()].sort(([a], [b]) => a.localeCompare(b)).map(([status, n]) => `${status} ×${n}`);
  const byReason = new Map<string, number>();
  for (const group of results.failures.values()) byReason.set(group.reason, (byReason.get(group.reason) ?? 0) + group.count);

  console.log(`\n=== fuzz summary (seed ${seed}) ===`);
  console.log(`operations covered: ${operations} REST${[...results.sentPerOperation.keys()].some((op) => op.endsWith("/graphql")) ? " + GraphQL" : ""}`);
  console.log(
    `requests: ${results.requests} in ${(elapsedMs / 1000).toFixed(1)} s (${(results.requests / (elapsedMs / 1000)).toFixed(1)}/s, concurrency ${concurrency})`,
  );
  console.log(`statuses: ${statuses.join(", ")}`);
  console.log(
    `latency: p50 ${ms(percentile(latencies, 50))} ms, p99 ${ms(percentile(latencies, 99))} ms, max ${ms(latencies[latencies.length - 1] ?? Number.NaN)} ms; event-loop delay p99 ${ms(loopDelay.p99)} ms, max ${ms(loopDelay.max)} ms`,
  );
  console.log(`after the run: /healthz ${results.failures.has("GET /healthz\u0000health") ? "DOWN" : "answers"}; ${mailed}`);
  const reasons = [...byReason.entries()].map(([reason, n]) => `${reason} ${n}`);
  console.log(`failures: ${results.failed} request(s) in ${results.failures.size} group(s)${reasons.length ? ` — ${reasons.join(", ")}` : ""}`);

  const groups = [...results.failures.values()].sort((a, b) => a.reason.localeCompare(b.reason) || a.operation.localeCompare(b.operation));
  if (groups.length > 0) {
    console.log();
    printTable(
      ["operation", "reason", "failed", "sent"],
      groups.map((group) => [group.operation, group.reason, String(group.count), String(results.sentPerOperation.get(group.operation) ?? 0)]),
    );
  }
  for (const group of groups) {
    console.log(`\n${group.operation} — ${group.reason} ×${group.count} of ${results.sentPerOperation.get(group.operation) ?? 0}`);
    for (const line of describe(group.example)) console.log(line);
    if (group.others.size > 0) console.log(`  also: ${[...group.others].join(" | ")}`);
  }

  // The same hostile value failing on many operations points at one cause (a shared parser, the token check).
  const variants = new Map<string, { reasons: Set<string>; operations: Set<string> }>();
  for (const failure of results.failing) {
    const entry = variants.get(failure.label) ?? { reasons: new Set(), operations: new Set() };
    entry.reasons.add(failure.reason);
    entry.operations.add(failure.operation);
    variants.set(failure.label, entry);
  }
  const spread = [...variants.entries()].sort((a, b) => b[1].operations.size - a[1].operations.size).slice(0, 30);
  if (spread.length > 0) {
    console.log("\nfailing variants, by how many operations they fail on:");
    for (const [label, entry] of spread) console.log(`  ${entry.operations.size} operation(s), ${[...entry.reasons].join(", ")}: ${label}`);
  }

  const logged = new Map<string, number>();
  for (const entry of world.serverErrors) logged.set(`${entry.where} — ${entry.error}`, (logged.get(`${entry.where} — ${entry.error}`) ?? 0) + 1);
  if (logged.size > 0) {
    console.log(`\nlogged by the service at error level (${world.serverErrors.length}):`);
    for (const [line, n] of [...logged.entries()].sort((a, b) => b[1] - a[1]).slice(0, 40)) console.log(`  ${n} × ${line}`);
  }
  console.log(
    results.failures.size > 0
      ? `\nFAILED (replay: FUZZ_SEED=${seed} FUZZ_COUNT=${count} FUZZ_ONLY="<operation>" npm run fuzz)`
      : "\nOK: no 5xx, nothing over 2 s, no stack trace or SQL text",
  );
}

runBenchmark(main);
