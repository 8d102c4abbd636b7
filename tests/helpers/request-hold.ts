import { EventEmitter, once } from "node:events";

/**
 * Requests a local fake holds until the test releases them (a slow gateway whose pace the test sets), or until
 * `safetyMs` pass, so that code which deadlocks on a held request fails its assertions instead of hanging the run.
 */
export class RequestHold {
  /** Who released it: "test", "safety" (the time ran out), or null while held. */
  releasedBy: "test" | "safety" | null = null;
  readonly #released: Promise<void>;
  #open!: () => void;
  readonly #safety: NodeJS.Timeout;

  constructor(safetyMs = 10_000) {
    this.#released = new Promise<void>((resolve) => (this.#open = resolve));
    this.#safety = setTimeout(() => this.#finish("safety"), safetyMs);
  }

  release(): void {
    this.#finish("test");
  }

  /** Resolves when released (what a held request awaits). */
  passed(): Promise<void> {
    return this.#released;
  }

  #finish(by: "test" | "safety"): void {
    if (this.releasedBy) return;
    this.releasedBy = by;
    clearTimeout(this.#safety);
    this.#open();
  }
}

/** Counts the requests a fake receives, so a test can wait until some have arrived. */
export class Arrivals {
  readonly #events = new EventEmitter();

  constructor(private readonly count: (match: string) => number) {}

  arrived(): void {
    this.#events.emit("request");
  }

  /** Resolves once `count` requests matching `match` have arrived. */
  async waitFor(match: string, count: number): Promise<void> {
    while (this.count(match) < count) await once(this.#events, "request");
  }
}
