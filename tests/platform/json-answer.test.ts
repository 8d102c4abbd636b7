import { describe, expect, it } from "vitest";
import { isoInstant } from "../../src/platform/dates.js";
import { withIsoInstants } from "../../src/platform/http/json-answer.js";

// Every REST answer goes through these (src/app.ts): the text sent must be what JSON.stringify wrote of the Dates.
describe("JSON answers' instants", () => {
  it("are written as Date.prototype.toISOString writes them, at every edge of days, months, leap years and eras", () => {
    const instants = [
      0, 1, 86_399_999, 86_400_000, 951_782_400_000, 951_868_800_000, 4_107_542_400_000, 253_402_300_799_999, 253_402_300_800_000, -1, -62_198_755_200_000,
    ];
    for (let year = 1970; year <= 2400; year++) {
      for (const month of [0, 1, 2, 11]) instants.push(Date.UTC(year, month, 1), Date.UTC(year, month, 1) - 1, Date.UTC(year, 1, 29, 23, 59, 59, 999));
    }
    for (let i = 0; i < 20_000; i++) instants.push(Math.floor(Math.random() * 253_402_300_800_000));
    const wrong = instants.filter((time) => isoInstant(new Date(time)) !== new Date(time).toISOString());
    expect(wrong).toEqual([]);
    expect(isoInstant(new Date(Number.NaN))).toBeNull();
  });

  it("leave the JSON text of an answer unchanged", () => {
    class Money {
      toJSON() {
        return "R$ 1,00";
      }
    }
    const answer = {
      at: new Date("2026-03-01T10:20:30.456Z"),
      invalid: new Date(Number.NaN),
      nested: [{ day: new Date(0), items: [new Date(-1), null, undefined, 1.5, "x"] }],
      money: new Money(),
      own: { toJSON: () => ({ kept: new Date(5) }) },
      empty: Object.create(null) as object,
      skipped: undefined,
    };
    expect(JSON.stringify(withIsoInstants(answer))).toBe(JSON.stringify(answer));
    expect((withIsoInstants(answer) as { nested: unknown[] }).nested).not.toBe(answer.nested);
  });
});
