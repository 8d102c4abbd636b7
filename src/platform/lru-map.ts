/**
 * A map that keeps its most recently used entries: past `maxWeight` in all (each entry weighs what `weigh` says of its
 * value and key, 1 unless told), the least recently used are dropped first. The entry just set is kept whatever its
 * weight.
 */
export class LruMap<Value> {
  private readonly entries = new Map<string, { value: Value; weight: number }>();
  private weight = 0;

  constructor(
    private readonly maxWeight: number,
    private readonly weigh: (value: Value, key: string) => number = () => 1,
  ) {}

  /** The value kept for `key`, now the most recently used; undefined when none is kept. */
  get(key: string): Value | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.value;
  }

  /** Keeps `value` for `key` as the most recently used, dropping the least recently used while past the bound. */
  set(key: string, value: Value): void {
    this.delete(key);
    const weight = this.weigh(value, key);
    this.entries.set(key, { value, weight });
    this.weight += weight;
    for (const oldest of this.entries.keys()) {
      if (this.weight <= this.maxWeight || oldest === key) break;
      this.delete(oldest);
    }
  }

  delete(key: string): void {
    const entry = this.entries.get(key);
    if (!entry) return;
    this.entries.delete(key);
    this.weight -= entry.weight;
  }
}
