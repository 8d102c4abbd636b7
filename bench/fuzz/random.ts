/** A small seeded PRNG (mulberry32): the same seed gives the same variants, so a failure can be replayed. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  /** A generator of its own for `key` under `seed`: an operation's variants do not depend on which others run. */
  static derive(seed: number, key: string): Random {
    let hash = seed >>> 0 || 1;
    for (let i = 0; i < key.length; i++) hash = Math.imul(hash ^ key.charCodeAt(i), 0x01000193) >>> 0;
    return new Random(hash);
  }

  /** Uniform in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  /** An integer in [0, n). */
  below(n: number): number {
    return Math.floor(this.next() * n);
  }

  pick<T>(items: readonly T[]): T {
    if (items.length === 0) throw new Error("pick from nothing");
    return items[this.below(items.length)];
  }

  chance(p: number): boolean {
    return this.next() < p;
  }
}
