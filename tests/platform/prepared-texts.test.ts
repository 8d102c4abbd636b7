import { describe, expect, it } from "vitest";
import { preparedTextGate } from "../../src/platform/db/database.js";

describe("statement texts kept prepared", () => {
  it("are the first distinct texts up to the limit: a text seen before stays prepared, a new one past the limit runs unprepared", () => {
    const mayPrepare = preparedTextGate(3);
    expect(["select 1", "select 2", "select 1", "select 3"].map(mayPrepare)).toEqual([true, true, true, true]);
    // Endless new texts (a client varying its GraphQL selection, an id list's length) no longer grow the cache.
    expect(Array.from({ length: 50 }, (_, i) => mayPrepare(`select ${i + 4}`)).every((prepared) => !prepared)).toBe(true);
    expect(["select 1", "select 2", "select 3"].map(mayPrepare)).toEqual([true, true, true]);
  });
});
