import { existsSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import type { Reporter, TestModule, TestRunEndReason, Vitest } from "vitest/node";
import type { WorkerCoverage } from "./openapi-contract.js";

/** Where the workers of the run whose main process is `pid` write what they reached (provided by global-setup.ts). */
export const openapiCoverageDir = (pid: number) => path.join(tmpdir(), `fitness-openapi-coverage-${pid}`);

/**
 * At the end of a run of the whole suite: the OpenAPI operations and statuses no test reached, and a failed run when
 * an operation was never called. A run of a few files (or of some tests by name) only cleans up.
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

    const declared = new Map<string, Set<string>>();
    const reached = new Map<string, Set<string>>();
    let exchanges = 0;
    for (const worker of workers) {
      exchanges += worker.exchanges;
      // Every operation declares 500 for the unforeseen failure: a test reaching it for each would be noise.
      for (const [id, statuses] of Object.entries(worker.declared))
        declared.set(id, new Set([...(declared.get(id) ?? []), ...statuses.filter((s) => s !== "500")]));
      for (const [id, statuses] of Object.entries(worker.reached)) reached.set(id, new Set([...(reached.get(id) ?? []), ...Object.keys(statuses)]));
    }
    const total = [...declared.values()].reduce((sum, statuses) => sum + statuses.size, 0);
    const covered = [...declared].reduce((sum, [id, statuses]) => sum + [...statuses].filter((status) => reached.get(id)?.has(status)).length, 0);
    const neverCalled = [...declared.keys()].filter((id) => !reached.has(id)).sort();
    const lines = [
      `OpenAPI: ${exchanges} exchanges validated; ${declared.size - neverCalled.length} of ${declared.size} operations called; ${covered} of ${total} declared statuses (500 aside) reached.`,
    ];
    const unreached = [...declared]
      .filter(([id]) => reached.has(id))
      .map(([id, statuses]) => [id, [...statuses].filter((status) => !reached.get(id)!.has(status))] as const)
      .filter(([, statuses]) => statuses.length > 0)
      .sort(([a], [b]) => a.localeCompare(b));
    if (unreached.length > 0) lines.push("Statuses no test reached:", ...unreached.map(([id, statuses]) => `  ${id}: ${statuses.join(", ")}`));
    if (neverCalled.length > 0) {
      lines.push(`Operations no test called (this fails the run): ${neverCalled.join(", ")}`);
      process.exitCode = 1;
    }
    console.log(`\n${lines.join("\n")}\n`);
  }
}
