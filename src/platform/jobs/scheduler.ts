import type { Logger } from "../logger.js";

interface ScheduledJob {
  name: string;
  intervalMs: number;
  run: () => Promise<unknown>;
}

/** In-process timers for background jobs; a run never overlaps the previous run of the same job. */
export class JobScheduler {
  private readonly jobs: ScheduledJob[] = [];
  private readonly timers: NodeJS.Timeout[] = [];
  private readonly running = new Set<Promise<unknown>>();
  private stopped = false;

  constructor(private readonly logger: Logger) {}

  every(name: string, intervalMs: number, run: () => Promise<unknown>): void {
    this.jobs.push({ name, intervalMs, run });
  }

  start(): void {
    for (const job of this.jobs) {
      let busy = false;
      const tick = () => {
        if (busy || this.stopped) return;
        busy = true;
        const run = job
          .run()
          .catch((error: unknown) => this.logger.error({ err: error, job: job.name }, "job failed"))
          .finally(() => {
            busy = false;
            this.running.delete(run);
          });
        this.running.add(run);
      };
      this.timers.push(setInterval(tick, job.intervalMs));
      setImmediate(tick);
    }
  }

  /** Stops the timers and waits for runs under way. */
  async stop(): Promise<void> {
    this.stopped = true;
    for (const timer of this.timers) clearInterval(timer);
    await Promise.allSettled([...this.running]);
  }
}
