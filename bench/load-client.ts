/**
 * A closed-loop HTTP load generator in its own process, so the clients' work (sockets, reading large bodies) never
 * runs on the server's event loop and inflates the latencies it measures: real clients are on other machines.
 *
 * Receives one LoadRequest over IPC, answers with one LoadResult and exits.
 */
import http from "node:http";
import { request } from "./support.js";

export interface LoadRequest {
  base: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** An answer whose body contains this is an error too (e.g. `"errors"` for GraphQL, which answers them with 200). */
  failOn?: string;
  durationMs: number;
  concurrency: number;
}

export interface LoadResult {
  /** Milliseconds, in the order the answers came. */
  latencies: number[];
  errors: number;
  firstError: string;
  elapsed: number;
  /** CPU time this client used (user + system): near `elapsed`, the client itself was the bottleneck. */
  cpuMs: number;
}

async function run({ base, method, path, headers, body, failOn, durationMs, concurrency }: LoadRequest): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(base);
  const latencies: number[] = [];
  let errors = 0;
  let firstError = "";
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + durationMs;
  const caller = async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      const reply = await request(agent, target, method, path, headers, body);
      latencies.push(performance.now() - sent);
      if (reply.status !== 200 || (failOn !== undefined && reply.body.includes(failOn))) {
        errors++;
        firstError ||= `${reply.status} ${reply.body.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { latencies, errors, firstError, elapsed, cpuMs: (cpu.user + cpu.system) / 1000 };
}

process.once("message", (message) => {
  void run(message as LoadRequest).then((result) => process.send!(result, () => process.exit(0)));
});
