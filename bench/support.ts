import http from "node:http";
import { monitorEventLoopDelay } from "node:perf_hooks";

/** What the benchmarks share: a raw keep-alive HTTP client and percentiles. */
export interface Reply {
  status: number;
  body: string;
}

/** One HTTP request on a keep-alive agent; resolves with status and body (never rejects: -1 on a socket error). */
export function request(agent: http.Agent, base: URL, method: string, url: string, headers: Record<string, string> = {}, body?: string): Promise<Reply> {
  return new Promise((resolve) => {
    const req = http.request(
      { host: base.hostname, port: base.port, method, path: url, agent, headers: { ...headers, ...(body ? { "content-length": Buffer.byteLength(body) } : {}) } },
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
