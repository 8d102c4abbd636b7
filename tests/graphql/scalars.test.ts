import { DateTimeISOResolver } from "graphql-scalars";
import { describe, expect, it } from "vitest";
import { DateTime } from "../../src/graphql/scalars.js";

// Every instant a GraphQL answer carries goes through DateTime.serialize: it must write what graphql-scalars'
// DateTimeISO writes, and refuse what it refuses.

/** What serializing answers: its text, or its refusal's message. */
function answer(serialize: () => unknown): unknown {
  try {
    return serialize();
  } catch (error) {
    return `refused: ${(error as Error).message}`;
  }
}
describe("the DateTime scalar", () => {
  it("writes every instant as graphql-scalars' DateTimeISO does", () => {
    const values: unknown[] = [
      new Date(0),
      new Date(-1),
      new Date(253_402_300_800_000),
      new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)),
      1_700_000_000_000,
      // Strings: the canonical form, others of 24 characters ending in Z, offsets, no milliseconds.
      "2026-03-01T10:20:30.456Z",
      "2024-02-29T23:59:59.999Z",
      "2026-03-01T10:20:30+00:00",
      "2026-03-01T10:20:30Z",
      "2026-03-01T10:20:30.4567Z",
      "2026-03-01T10:20:30.45+0Z",
      "+02026-03-01T10:20:30.4Z",
      "2026-03-01T10:20:30.456+01:00",
    ];
    for (let i = 0; i < 5_000; i++) {
      const date = new Date(Math.floor(Math.random() * 253_402_300_800_000));
      values.push(date, date.toISOString());
    }
    const differing = values.filter((value) => answer(() => DateTime.serialize(value)) !== answer(() => DateTimeISOResolver.serialize(value)));
    expect(differing).toEqual([]);
  });

  it("refuses an invalid Date or a value that is no instant, as DateTimeISO does", () => {
    for (const value of [new Date(Number.NaN), "yesterday", {}, true, "2026-02-30T10:20:30.456Z", "2026-13-01T10:20:30.456Z", "2026-03-01T25:20:30.456Z"]) {
      expect(() => DateTime.serialize(value)).toThrow(/DateTime cannot/);
    }
  });

  it("is DateTimeISO to clients: the same name and description in the schema", () => {
    expect(DateTime.name).toBe("DateTimeISO");
    expect(DateTime.description).toBe(DateTimeISOResolver.description);
  });
});
