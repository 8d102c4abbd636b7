import { describe, expect, it } from "vitest";
import { buildBoleto, dueDateFactor, mod10, mod11 } from "../../src/modules/billing/boleto.js";

describe("boleto", () => {
  it("computes the FEBRABAN due-date factor, restarting at 1000 after 9999", () => {
    expect(dueDateFactor(new Date("1997-10-08T12:00:00Z"))).toBe("0001");
    expect(dueDateFactor(new Date("2025-02-21T00:00:00Z"))).toBe("9999");
    expect(dueDateFactor(new Date("2025-02-22T23:59:59Z"))).toBe("1000");
    expect(dueDateFactor(new Date("2025-02-23T00:00:00Z"))).toBe("1001");
  });

  it("computes the mod 10 and mod 11 check digits of known examples", () => {
    // Field 1 of a published example line: 00190.00009 → check digit 9
    expect(mod10("001900000")).toBe("9");
    expect(mod10("0")).toBe("0");
    // Any sum whose remainder gives 0, 10 or 11 becomes 1
    expect(mod11("0000000000000000000000000000000000000000000")).toBe("1");
  });

  it("builds a 44-digit barcode and a 47-digit line that agree with each other", () => {
    const boleto = buildBoleto({ invoiceId: 42, amountCents: 4990, dueDate: new Date("2026-11-25T10:00:00Z") });
    expect(boleto.barcode).toMatch(/^\d{44}$/);
    const digits = boleto.digitableLine.replace(/[ .]/g, "");
    expect(digits).toMatch(/^\d{47}$/);
    expect(boleto.barcode.slice(0, 4)).toBe("9999");
    expect(boleto.barcode.slice(9, 19)).toBe("0000004990");
    expect(boleto.barcode.slice(19)).toBe("42".padStart(25, "0"));
    // The general check digit validates the other 43 digits
    expect(boleto.barcode[4]).toBe(mod11(boleto.barcode.slice(0, 4) + boleto.barcode.slice(5)));
    // Line: fields 1-3 each end with their mod 10 digit; field 4 is the barcode's DV; field 5 factor + value
    expect(digits[9]).toBe(mod10(digits.slice(0, 9)));
    expect(digits[20]).toBe(mod10(digits.slice(10, 20)));
    expect(digits[31]).toBe(mod10(digits.slice(21, 31)));
    expect(digits[32]).toBe(boleto.barcode[4]);
    expect(digits.slice(33)).toBe(boleto.barcode.slice(5, 19));
    expect(boleto).toMatchObject({ dueDate: "2026-11-25", amount: 49.9 });
  });

  it("refuses amounts that do not fit ten digits", () => {
    expect(() => buildBoleto({ invoiceId: 1, amountCents: 10_000_000_000, dueDate: new Date() })).toThrow(RangeError);
  });
});
