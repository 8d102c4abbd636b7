/**
 * An HTTP load generator in its own process, so the clients' work (sockets, reading large bodies) never runs on the
 * server's event loop and inflates the latencies it measures: real clients are on other machines. Closed loop
 * (`concurrency` callers, each sending when its last answer came) or open loop (`rate`: requests sent on a fixed
 * schedule whatever the answers, as many independent users do).
 *
 * Receives one LoadRequest over IPC, answers with one LoadResult and exits.
 */
import { randomUUID } from "node:crypto";
import http from "node:http";
import { percentile, request } from "./support.js";

export interface LoadRequest {
  base: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: string;
  /** An answer whose body contains this is an error too (e.g. `"errors"` for GraphQL, which answers them with 200). */
  failOn?: string;
  /** The status of a good answer (200 unless given: 201 for a write that creates). */
  okStatus?: number;
  /** A header given a fresh random value (a UUID) on every request: an Idempotency-Key. */
  freshHeader?: string;
  /** Headers of each caller (caller i takes entry i modulo their number), over `headers`: one user per caller. */
  callerHeaders?: Record<string, string>[];
  durationMs: number;
  concurrency: number;
  /**
   * Open loop: this many requests per second, each issued on its schedule even while earlier ones are still waiting,
   * over at most `concurrency` connections (a request finding them all busy waits for one, and that wait counts in its
   * latency): a server that stalls is charged for every request it kept waiting (no coordinated omission). A latency
   * runs from when this process issued the request: on a machine whose cores it shares with the server and
   * PostgreSQL, its own timer can fire late, and that lateness (reported apart) is not the server's.
   */
  rate?: number;
}

export interface LoadResult {
  /** Milliseconds, in the order the answers came. */
  latencies: number[];
  errors: number;
  firstError: string;
  elapsed: number;
  /** CPU time this client used (user + system): near `elapsed`, the client itself was the bottleneck. */
  cpuMs: number;
  /** Open loop: the 99th percentile of how late, in ms, this process issued a request after its scheduled instant. */
  lateP99?: number;
}

/** How often the open loop looks for requests that fell due: finer than any latency it reports. */
const OPEN_LOOP_TICK_MS = 1;

async function run({
  base,
  method,
  path,
  headers,
  body,
  failOn,
  okStatus = 200,
  freshHeader,
  callerHeaders,
  durationMs,
  concurrency,
  rate,
}: LoadRequest): Promise<LoadResult> {
  // FIFO: open loop spreads its requests over every connection it opened. The default (LIFO) reuses the last one freed,
  // so after a burst a connection can sit idle past the server's keep-alive timeout and be picked just as the server
  // closes it: a reset that is the generator's race, not an answer of the server.
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency, scheduling: "fifo" });
  const target = new URL(base);
  const latencies: number[] = [];
  let errors = 0;
  let firstError = "";
  const ownHeaders = (index: number) => ({ ...headers, ...(callerHeaders?.[index % callerHeaders.length] ?? {}) });
  /** Sends one request; its latency runs from `since`. */
  const send = async (own: Record<string, string>, since: number) => {
    const sending = freshHeader ? { ...own, [freshHeader]: randomUUID() } : own;
    const reply = await request(agent, target, method, path, sending, body);
    latencies.push(performance.now() - since);
    if (reply.status !== okStatus || (failOn !== undefined && reply.body.includes(failOn))) {
      errors++;
      firstError ||= `${reply.status} ${reply.body.slice(0, 200)}`;
    }
  };
  const cpuBefore = process.cpuUsage();
  const started = performance.now();
  const until = started + durationMs;
  let lateP99: number | undefined;
  if (rate) {
    const interval = 1000 / rate;
    const pending: Promise<void>[] = [];
    const late: number[] = [];
    let sent = 0;
    for (let now = started; now < until; now = performance.now()) {
      for (; started + sent * interval <= now; sent++) {
        late.push(now - (started + sent * interval));
        pending.push(send(ownHeaders(sent), now));
      }
      await new Promise((resolve) => setTimeout(resolve, OPEN_LOOP_TICK_MS));
    }
    await Promise.all(pending);
    lateP99 = percentile(
      late.sort((a, b) => a - b),
      99,
    );
  } else {
    const caller = async (index: number) => {
      const own = ownHeaders(index);
      while (performance.now() < until) await send(own, performance.now());
    };
    await Promise.all(Array.from({ length: concurrency }, (_, index) => caller(index)));
  }
  const elapsed = performance.now() - started;
  const cpu = process.cpuUsage(cpuBefore);
  agent.destroy();
  return { latencies, errors, firstError, elapsed, cpuMs: (cpu.user + cpu.system) / 1000, lateP99 };
}

process.once("message", (message) => {
  void run(message as LoadRequest).then((result) => process.send!(result, () => process.exit(0)));
});
