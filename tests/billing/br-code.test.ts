import { describe, expect, it } from "vitest";
import { buildPixBrCode, crc16, formatAmount, isValidBrCode, parseEmv, PIX_GUI } from "../../src/modules/billing/gateways/pix/br-code.js";

/** The static BR Code of the Banco Central's BR Code manual (key, "Fulano de Tal", "BRASILIA", no amount). */
const MANUAL_EXAMPLE =
  "00020126580014br.gov.bcb.pix0136123e4567-e12b-12d1-a456-4266554400005204000053039865802BR" + "5913Fulano de Tal6008BRASILIA62070503***63041D3D";

const KEY = "123e4567-e12b-12d1-a456-426655440000";

const fieldsOf = (payload: string) => Object.fromEntries(parseEmv(payload).map((f) => [f.id, f.value]));

const build = (overrides: Partial<Parameters<typeof buildPixBrCode>[0]> = {}) =>
  buildPixBrCode({
    key: KEY,
    merchantName: "Fitness Training",
    merchantCity: "Sao Paulo",
    amountCents: 4990,
    txid: "SUB42",
    ...overrides,
  } as Parameters<typeof buildPixBrCode>[0]);

describe("crc16 (CCITT-FALSE)", () => {
  it("matches the standard check value and other known vectors", () => {
    expect(crc16("123456789")).toBe("29B1");
    expect(crc16("")).toBe("FFFF");
    expect(crc16("A")).toBe("B915");
  });

  it("pads to four uppercase hex digits", () => {
    for (const text of ["a", "pix", "000201", "0000", "x".repeat(50)]) expect(crc16(text)).toMatch(/^[0-9A-F]{4}$/);
  });

  it("gives the CRC printed in the BR Code manual's example", () => {
    expect(crc16(MANUAL_EXAMPLE.slice(0, -4))).toBe("1D3D");
  });
});

describe("buildPixBrCode", () => {
  it("reproduces the BR Code manual's static example byte for byte", () => {
    expect(buildPixBrCode({ key: KEY, merchantName: "Fulano de Tal", merchantCity: "BRASILIA" })).toBe(MANUAL_EXAMPLE);
  });

  it("lays out the EMV fields in order, with the PIX account and txid templates", () => {
    const payload = build();
    const fields = parseEmv(payload);
    expect(fields.map((f) => f.id)).toEqual(["00", "26", "52", "53", "54", "58", "59", "60", "62", "63"]);
    const byId = fieldsOf(payload);
    expect(byId).toMatchObject({
      "00": "01",
      "52": "0000",
      "53": "986",
      "54": "49.90",
      "58": "BR",
      "59": "Fitness Training",
      "60": "Sao Paulo",
    });
    expect(parseEmv(byId["26"])).toEqual([
      { id: "00", value: PIX_GUI },
      { id: "01", value: KEY },
    ]);
    expect(parseEmv(byId["62"])).toEqual([{ id: "05", value: "SUB42" }]);
    expect(byId["63"]).toBe(crc16(payload.slice(0, -4)));
    expect(payload.slice(-8, -4)).toBe("6304");
  });

  it("formats the amount from integer cents", () => {
    expect(fieldsOf(build({ amountCents: 4990 }))["54"]).toBe("49.90");
    expect(fieldsOf(build({ amountCents: 1 }))["54"]).toBe("0.01");
    expect(fieldsOf(build({ amountCents: 10 }))["54"]).toBe("0.10");
    expect(fieldsOf(build({ amountCents: 100 }))["54"]).toBe("1.00");
    expect(fieldsOf(build({ amountCents: 123456789 }))["54"]).toBe("1234567.89");
    expect(formatAmount(44990)).toBe("449.90");
  });

  it("leaves the amount out when none is given (payer types it)", () => {
    expect(fieldsOf(build({ amountCents: undefined }))["54"]).toBeUndefined();
  });

  it("refuses amounts that are not positive integer cents or do not fit field 54", () => {
    for (const amountCents of [0, -1, 49.9, Number.NaN, 10_000_000_000_000]) {
      expect(() => build({ amountCents })).toThrow(RangeError);
    }
  });

  it("folds the merchant name and city to ASCII and cuts them to 25 and 15 characters", () => {
    const fields = fieldsOf(build({ merchantName: "Academia Açaí & Saúde Ótima Ltda", merchantCity: "São José dos Campos" }));
    expect(fields["59"]).toBe("Academia Acai & Saude Oti");
    expect(fields["59"]).toHaveLength(25);
    expect(fields["60"]).toBe("Sao Jose dos Ca");
    expect(fields["60"]).toHaveLength(15);
  });

  it("drops characters that have no ASCII form and squeezes spaces", () => {
    expect(fieldsOf(build({ merchantName: "  Força  💪 Total  " }))["59"]).toBe("Forca Total");
  });

  it("uses *** when there is no txid and refuses txids that are not 1–25 letters or digits", () => {
    const payload = build({ txid: undefined });
    expect(parseEmv(fieldsOf(payload)["62"])).toEqual([{ id: "05", value: "***" }]);
    expect(fieldsOf(build({ txid: "A".repeat(25) }))["62"]).toBe(`0525${"A".repeat(25)}`);
    for (const txid of ["", "A".repeat(26), "pix_char_1", "ação"]) {
      expect(() => build({ txid })).toThrow(RangeError);
    }
  });

  it("builds a dynamic code with the payload URL and point of initiation 12", () => {
    const payload = buildPixBrCode({
      url: "pix.example.com/qr/v2/9d36b84f",
      merchantName: "Fitness",
      merchantCity: "Recife",
      amountCents: 12990,
    });
    const fields = fieldsOf(payload);
    expect(
      parseEmv(payload)
        .map((f) => f.id)
        .slice(0, 3),
    ).toEqual(["00", "01", "26"]);
    expect(fields["01"]).toBe("12");
    expect(parseEmv(fields["26"])).toEqual([
      { id: "00", value: PIX_GUI },
      { id: "25", value: "pix.example.com/qr/v2/9d36b84f" },
    ]);
    expect(isValidBrCode(payload)).toBe(true);
  });

  it("refuses a key too long for the merchant account template or empty names", () => {
    expect(() => build({ key: "k".repeat(78) })).toThrow(RangeError);
    expect(() => build({ key: "k".repeat(77) })).not.toThrow();
    expect(() => build({ merchantName: "💪" })).toThrow(RangeError);
    expect(() => build({ merchantCity: "  " })).toThrow(RangeError);
  });
});

describe("isValidBrCode", () => {
  it("accepts generated payloads and the manual's example", () => {
    expect(isValidBrCode(build())).toBe(true);
    expect(isValidBrCode(MANUAL_EXAMPLE)).toBe(true);
  });

  it("rejects a payload with one character changed", () => {
    const payload = build();
    const at = payload.indexOf("49.90");
    const tampered = `${payload.slice(0, at)}48.90${payload.slice(at + 5)}`;
    expect(tampered).toHaveLength(payload.length);
    expect(isValidBrCode(tampered)).toBe(false);
    const lastDigit = payload.at(-1) === "0" ? "1" : "0";
    expect(isValidBrCode(payload.slice(0, -1) + lastDigit)).toBe(false);
  });

  it("rejects lowercase CRCs, missing CRCs and malformed TLVs", () => {
    expect(isValidBrCode(MANUAL_EXAMPLE.replace(/1D3D$/, "1d3d"))).toBe(false);
    const payload = build();
    expect(isValidBrCode(payload.slice(0, -8))).toBe(false);
    expect(isValidBrCode("")).toBe(false);
    const broken = `000201269900${"x".repeat(10)}6304`;
    expect(isValidBrCode(broken + crc16(broken))).toBe(false);
  });
});

describe("parseEmv", () => {
  it("throws on a truncated field or a non-numeric header", () => {
    expect(() => parseEmv("000201")).not.toThrow();
    expect(() => parseEmv("0005ab")).toThrow(/truncated/);
    expect(() => parseEmv("00x1a")).toThrow(/Malformed/);
  });
});
