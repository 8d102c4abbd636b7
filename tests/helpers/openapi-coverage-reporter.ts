import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Reporter, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import { REASON_SEPARATOR, SHARED_ANSWERS } from "../../rest-compat/openapi.js";
import type { WorkerCoverage } from "./openapi-contract.js";

/** Where the workers of the run whose main process is `pid` write what they reached (provided by global-setup.ts). */
export const openapiCoverageDir = (pid: number) => path.join(tmpdir(), `fitness-openapi-coverage-${pid}`);

/**
 * Answers no test reaches on purpose, by status and reason as the document gives them, and why: they are counted, never
 * listed.
 */
const NOT_WORTH_A_TEST: Record<string, string> = {
  "500 Erro interno do servidor": "the unforeseen failure every operation declares",
  "400 JSON inválido (a body sent along that does not parse)": "a GET carrying a body that does not parse: no client sends one (fetch cannot)",
  "503 the password hashing queue is full":
    "the password hasher's queue is full: its own test fills it (tests/platform/password-hasher.test.ts); over HTTP it takes a saturated machine",
};

/** Every reason the machinery in front of the handlers gives (rest-compat/openapi.ts), by status. */
const sharedReasons = new Set(
  Object.values(SHARED_ANSWERS)
    .flat()
    .map(([status, reason]) => `${status} ${reason}`),
);

/**
 * Why no test needs to reach the answer, when every reason of its description is one no test needs to reach or the
 * shared machinery's (a 503 past the connection cap beside the password hasher's full queue).
 */
function notWorthATest(status: string, description: string): string | undefined {
  const own = description.split(REASON_SEPARATOR).filter((reason) => !sharedReasons.has(`${status} ${reason}`));
  const whys = new Set(own.map((reason) => NOT_WORTH_A_TEST[`${status} ${reason}`]));
  return whys.size === 1 ? [...whys][0] : undefined;
}

/**
 * An operation's status is its own when one of its reasons is the operation's; one whose every reason is the shared
 * machinery's (token check, parameter and body parsing, idempotency) is the same on every operation, and the tests of
 * that machinery reach it (tests/platform, tests/sync): a test per operation would only repeat them.
 */
const isShared = (status: string, description: string) => description.split(REASON_SEPARATOR).every((reason) => sharedReasons.has(`${status} ${reason}`));

/**
 * After a run of the whole suite, an informational summary of the OpenAPI statuses the tests reached, the operations'
 * own statuses no test reached grouped by operation; the run fails only when an operation was never called. A run of a
 * few files (or of some tests by name) only cleans up.
 */
export default class OpenApiCoverageReporter implements Reporter {
  private vitest!: Vitest;

  onInit(vitest: Vitest): void {
    this.vitest = vitest;
    rmSync(openapiCoverageDir(process.pid), { recursive: true, force: true });
  }

  async onTestRunEnd(testModules: ReadonlyArray<TestModule>, _errors: unknown, reason: TestRunEndReason): Promise<void> {
    const dir = openapiCoverageDir(process.pid);
    const workers = existsSync(dir) ? readdirSync(dir).map((file) => JSON.parse(readFileSync(path.join(dir, file), "utf8")) as WorkerCoverage) : [];
    rmSync(dir, { recursive: true, force: true });
    const wholeSuite = !this.vitest.config.testNamePattern && testModules.length === (await this.vitest.globTestSpecifications()).length;
    if (!wholeSuite || reason === "interrupted" || workers.length === 0) return;
    console.log(`\n${summary(workers).join("\n")}\n`);
  }
}

/** The summary's lines; sets `process.exitCode` when an operation was never called. */
function summary(workers: readonly WorkerCoverage[]): string[] {
  const declared = new Map<string, Record<string, string>>();
  const reached = new Map<string, Set<string>>();
  let exchanges = 0;
  for (const worker of workers) {
    exchanges += worker.exchanges;
    for (const [id, statuses] of Object.entries(worker.declared)) declared.set(id, { ...declared.get(id), ...statuses });
    for (const [id, statuses] of Object.entries(worker.reached)) reached.set(id, new Set([...(reached.get(id) ?? []), ...Object.keys(statuses)]));
  }

  const own = { declared: 0, reached: 0 };
  const shared = { declared: 0, reached: 0 };
  const notWorth = new Map<string, number>();
  const unreached: [string, string[]][] = [];
  for (const [id, statuses] of [...declared].sort(([a], [b]) => a.localeCompare(b))) {
    const missing: string[] = [];
    for (const [status, description] of Object.entries(statuses)) {
      const hit = reached.get(id)?.has(status) ?? false;
      const why = notWorthATest(status, description);
      if (why) notWorth.set(`${status}: ${why}`, (notWorth.get(`${status}: ${why}`) ?? 0) + 1);
      else if (isShared(status, description)) {
        shared.declared += 1;
        if (hit) shared.reached += 1;
      } else {
        own.declared += 1;
        if (hit) own.reached += 1;
        else missing.push(status);
      }
    }
    if (missing.length > 0 && reached.has(id)) unreached.push([id, missing]);
  }
  const neverCalled = [...declared.keys()].filter((id) => !reached.has(id)).sort();

  const lines = [
    "OpenAPI coverage (informational: nothing below is a test failure)",
    `  ${exchanges} exchanges checked against the document; ${declared.size - neverCalled.length} of ${declared.size} operations called`,
    `  operations' own statuses reached: ${own.reached} of ${own.declared}`,
    `  shared statuses reached: ${shared.reached} of ${shared.declared} (token, parameters, body, idempotency: the same code on every operation, covered by its own tests)`,
    ...[...notWorth].map(([why, count]) => `  not counted, on ${count} operation${count === 1 ? "" : "s"}: ${why}`),
  ];
  if (unreached.length > 0) {
    const count = unreached.reduce((sum, [, statuses]) => sum + statuses.length, 0);
    const width = Math.max(...unreached.map(([id]) => id.length));
    lines.push(`  own statuses no test reached (${count}, in ${unreached.length} operations):`);
    lines.push(...unreached.map(([id, statuses]) => `    ${id.padEnd(width)}  ${statuses.join(", ")}`));
  }
  if (neverCalled.length > 0) {
    lines.push(`FAILED: operations no test called: ${neverCalled.join(", ")}`);
    process.exitCode = 1;
  }
  return lines;
}
