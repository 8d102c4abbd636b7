import type { Clock } from "../../platform/clock.js";
import type { Logger } from "../../platform/logger.js";
import { LruMap } from "../../platform/lru-map.js";

/** `lastUsedAt` is written at most this often per credential: a busy tool costs no write per request. */
const RESOLUTION_MS = 60_000;
const KEPT = 10_000;

/**
 * Notes that a credential (a personal token, a grant) was used, writing it at most once a minute per credential and per
 * instance, after the request's answer is on its way: a failed write is logged, never the request's failure.
 */
export class LastUsedWriter {
  private readonly lastWritten = new LruMap<number>(KEPT);

  constructor(
    private readonly clock: Clock,
    private readonly logger: Logger,
    private readonly write: (key: string, at: Date) => Promise<void>,
  ) {}

  note(key: string): void {
    const now = this.clock.now();
    const last = this.lastWritten.get(key);
    if (last !== undefined && now.getTime() - last < RESOLUTION_MS) return;
    this.lastWritten.set(key, now.getTime());
    this.write(key, now).catch((error: unknown) => this.logger.warn({ err: error }, "lastUsedAt not written"));
  }
}
