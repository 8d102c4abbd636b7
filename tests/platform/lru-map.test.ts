import { describe, expect, it } from "vitest";
import { LruMap } from "../../src/platform/lru-map.js";

/** What the map still holds of `keys`, in the order given. */
const kept = (map: LruMap<string>, keys: string[]) => keys.filter((key) => map.get(key) !== undefined);

describe("LruMap", () => {
  it("drops the least recently used entries once past its weight, a read counting as a use", () => {
    const map = new LruMap<string>(3);
    map.set("a", "A");
    map.set("b", "B");
    map.set("c", "C");
    expect(map.get("a")).toBe("A"); // a is now the most recently used: b goes first
    map.set("d", "D");
    expect(map.get("b")).toBeUndefined();
    expect(kept(map, ["a", "c", "d"])).toEqual(["a", "c", "d"]);
  });

  it("weighs entries by their value and key, and keeps the entry just set whatever its weight", () => {
    const map = new LruMap<string>(10, (value, key) => value.length + key.length);
    map.set("a", "1234"); // 5
    map.set("b", "1234"); // 10 in all
    expect(kept(map, ["a", "b"])).toEqual(["a", "b"]);
    map.set("c", "1"); // 12: a goes
    expect(kept(map, ["a", "b", "c"])).toEqual(["b", "c"]);
    map.set("huge", "x".repeat(50)); // past the bound alone: everything else goes, it stays
    expect(kept(map, ["b", "c", "huge"])).toEqual(["huge"]);
    map.set("d", "1"); // the huge one is the least recently used now
    expect(kept(map, ["huge", "d"])).toEqual(["d"]);
  });

  it("counts a replaced or deleted entry's weight no more", () => {
    const map = new LruMap<string>(4, (value) => value.length);
    map.set("a", "1234");
    map.set("a", "1"); // 1 in all, not 5
    map.set("b", "123"); // 4 in all
    expect(kept(map, ["a", "b"])).toEqual(["a", "b"]);
    map.delete("a");
    map.set("c", "1"); // 4 in all again
    expect(kept(map, ["a", "b", "c"])).toEqual(["b", "c"]);
  });
});
