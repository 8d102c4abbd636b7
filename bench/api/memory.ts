/**
 * Where the service's memory and GC time go under load, read from its own GET /metrics (prom-client's default
 * metrics, which production exposes too): nothing is added to the process the bench measures. Peak RSS alone does
 * not tell a heap grown with garbage between full collections from live data, buffers or code.
 */
import http from "node:http";
import { request } from "../support.js";

/** Once a second: reading /metrics costs the service ~1 ms, a negligible share of a second of load. */
const SAMPLE_EVERY_MS = 1000;

/** Peaks over the samples, in MiB. */
export interface MemoryPeaks {
  heapTotal: number;
  heapUsed: number;
  /** The old generation's size (space_size of old_space): live data plus the garbage awaiting a full collection. */
  oldSpace: number;
  /** The young generation's size (both semi-spaces). */
  newSpace: number;
  codeSpace: number;
  external: number;
}

/** GC pause time so far, in ms: scavenges (minor) and full collections with their incremental steps (major). */
export interface GcTime {
  minor: number;
  major: number;
}

const MiB = 1024 * 1024;

function metric(text: string, name: string, labels = ""): number {
  const line = text.split("\n").find((l) => l.startsWith(`${name}${labels} `));
  return line ? Number(line.slice(line.lastIndexOf(" ") + 1)) : Number.NaN;
}

export async function readGcTime(agent: http.Agent, base: URL): Promise<GcTime> {
  const text = (await request(agent, base, "GET", "/metrics")).body;
  const seconds = (kind: string) => metric(text, "nodejs_gc_duration_seconds_sum", `{kind="${kind}"}`);
  return { minor: seconds("minor") * 1000, major: (seconds("major") + seconds("incremental")) * 1000 };
}

/** Samples the service's heap until `stop()`, which answers the peaks seen. */
export function watchMemory(base: URL): { stop(): Promise<MemoryPeaks> } {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const peaks: MemoryPeaks = { heapTotal: 0, heapUsed: 0, oldSpace: 0, newSpace: 0, codeSpace: 0, external: 0 };
  const sample = async () => {
    const text = (await request(agent, base, "GET", "/metrics")).body;
    const space = (name: string) => metric(text, "nodejs_heap_space_size_total_bytes", `{space="${name}"}`);
    const seen: MemoryPeaks = {
      heapTotal: metric(text, "nodejs_heap_size_total_bytes"),
      heapUsed: metric(text, "nodejs_heap_size_used_bytes"),
      oldSpace: space("old"),
      newSpace: space("new"),
      codeSpace: space("code"),
      external: metric(text, "nodejs_external_memory_bytes"),
    };
    for (const key of Object.keys(peaks) as (keyof MemoryPeaks)[]) {
      if (Number.isFinite(seen[key])) peaks[key] = Math.max(peaks[key], seen[key] / MiB);
    }
  };
  let sampling = sample();
  const timer = setInterval(() => {
    sampling = sampling.then(sample);
  }, SAMPLE_EVERY_MS);
  return {
    async stop() {
      clearInterval(timer);
      await sampling;
      agent.destroy();
      return peaks;
    },
  };
}

/** Larger of each. */
export function highest(a: MemoryPeaks, b: MemoryPeaks): MemoryPeaks {
  return Object.fromEntries(Object.keys(a).map((key) => [key, Math.max(a[key as keyof MemoryPeaks], b[key as keyof MemoryPeaks])])) as unknown as MemoryPeaks;
}
