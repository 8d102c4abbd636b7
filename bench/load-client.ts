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
  token: string;
  url: string;
  durationMs: number;
  concurrency: number;
}

export interface LoadResult {
  /** Milliseconds, in the order the answers came. */
  latencies: number[];
  errors: number;
  firstError: string;
  elapsed: number;
}

async function run({ base, token, url, durationMs, concurrency }: LoadRequest): Promise<LoadResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(base);
  const latencies: number[] = [];
  let errors = 0;
  let firstError = "";
  const started = performance.now();
  const until = started + durationMs;
  const caller = async () => {
    while (performance.now() < until) {
      const sent = performance.now();
      const reply = await request(agent, target, "GET", url, { authorization: `Bearer ${token}` });
      latencies.push(performance.now() - sent);
      if (reply.status !== 200) {
        errors++;
        firstError ||= `${reply.status} ${reply.body.slice(0, 200)}`;
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, caller));
  agent.destroy();
  return { latencies, errors, firstError, elapsed: performance.now() - started };
}

process.once("message", (message) => {
  void run(message as LoadRequest).then((result) => process.send!(result, () => process.exit(0)));
});
