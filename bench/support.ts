import http from "node:http";

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
