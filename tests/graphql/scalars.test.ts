import { DateTimeISOResolver } from "graphql-scalars";
import { describe, expect, it } from "vitest";
import { DateTime } from "../../src/graphql/scalars.js";

// Every instant a GraphQL answer carries goes through DateTime.serialize: it must write what graphql-scalars'
// DateTimeISO writes, and refuse what it refuses.
describe("the DateTime scalar", () => {
  it("writes every instant as graphql-scalars' DateTimeISO does", () => {
    const values: unknown[] = [
      new Date(0),
      new Date(-1),
      new Date(253_402_300_800_000),
      new Date(Date.UTC(2024, 1, 29, 23, 59, 59, 999)),
      "2026-03-01T10:20:30.456Z",
      1_700_000_000_000,
    ];
    for (let i = 0; i < 5_000; i++) values.push(new Date(Math.floor(Math.random() * 253_402_300_800_000)));
    const differing = values.filter((value) => DateTime.serialize(value) !== DateTimeISOResolver.serialize(value));
    expect(differing).toEqual([]);
  });

  it("refuses an invalid Date or a value that is no instant, as DateTimeISO does", () => {
    for (const value of [new Date(Number.NaN), "yesterday", {}, true]) {
      expect(() => DateTime.serialize(value)).toThrow(/DateTime cannot/);
    }
  });

  it("is DateTimeISO to clients: the same name and description in the schema", () => {
    expect(DateTime.name).toBe("DateTimeISO");
    expect(DateTime.description).toBe(DateTimeISOResolver.description);
  });
});
