/**
 * Feed walkers in their own process (as bench/load-client.ts, so the clients' work never runs on the server's event
 * loop): each walker reads GET /api/sync/changes from `since` (none: an initial sync) page after page until hasMore
 * is false, then starts over, until the time is up. Receives one WalkRequest over IPC, answers one WalkResult.
 */
import http from "node:http";
import { request } from "../support.js";

export interface WalkRequest {
  base: string;
  token: string;
  since?: string;
  limit: number;
  durationMs: number;
  concurrency: number;
}

export interface WalkResult {
  /** Milliseconds per page. */
  latencies: number[];
  /** Milliseconds per whole walk (from the first page to the one with hasMore false). */
  walks: number[];
  /** Changes per walk (the last walk's). */
  changesPerWalk: number;
  pagesPerWalk: number;
  errors: number;
  firstError: string;
}

async function run({ base, token, since, limit, durationMs, concurrency }: WalkRequest): Promise<WalkResult> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const target = new URL(base);
  const headers = { authorization: `Bearer ${token}` };
  const result: WalkResult = { latencies: [], walks: [], changesPerWalk: 0, pagesPerWalk: 0, errors: 0, firstError: "" };
  const until = performance.now() + durationMs;
  const walker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      let cursor = since;
      let [changes, pages] = [0, 0];
      for (;;) {
        const query = new URLSearchParams({ limit: String(limit), ...(cursor ? { since: cursor } : {}) });
        const sent = performance.now();
        const reply = await request(agent, target, "GET", `/api/sync/changes?${query}`, headers);
        result.latencies.push(performance.now() - sent);
        if (reply.status !== 200) {
          result.errors++;
          result.firstError ||= `${reply.status} ${reply.body.slice(0, 200)}`;
          break;
        }
        const page = JSON.parse(reply.body) as { changes: unknown[]; cursor: string; hasMore: boolean };
        changes += page.changes.length;
        pages += 1;
        cursor = page.cursor;
        if (!page.hasMore) break;
      }
      result.walks.push(performance.now() - started);
      [result.changesPerWalk, result.pagesPerWalk] = [changes, pages];
    }
  };
  await Promise.all(Array.from({ length: concurrency }, walker));
  agent.destroy();
  return result;
}

process.once("message", (message) => {
  void run(message as WalkRequest).then((result) => process.send!(result, () => process.exit(0)));
});
