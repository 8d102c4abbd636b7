import type { Random } from "./random.js";

/**
 * Hostile values. None of them contains the words the checks look for in an answer (SQL keywords, `Error:`, source
 * paths), so an answer that merely repeats what was stored is never taken for a leak.
 */

/** A value as JSON text (`1e309`, `-0` and deep nesting cannot go through JSON.stringify), with what it is. */
export interface HostileJson {
  label: string;
  json: string;
}

/** Nesting depth of the "several thousand levels" values. */
export const DEEP = 5_000;

const json = (label: string, value: unknown): HostileJson => ({ label, json: JSON.stringify(value) });
const raw = (label: string, text: string): HostileJson => ({ label, json: text });

export const nestedArrays = (depth: number) => "[".repeat(depth) + "]".repeat(depth);
export const nestedObjects = (depth: number) => '{"a":'.repeat(depth) + "1" + "}".repeat(depth);

/** Strings people and tools do send: every control character, bidi overrides, lone surrogates, emoji, injections. */
export function hostileString(rng: Random): { label: string; value: string } {
  const control = rng.below(32);
  const choices: Array<[string, () => string]> = [
    [`U+${control.toString(16).padStart(4, "0").toUpperCase()} inside`, () => `a${String.fromCharCode(control)}b`],
    ["every control character U+0000..U+001F", () => Array.from({ length: 32 }, (_, i) => String.fromCharCode(i)).join("")],
    ["only U+0000", () => "\u0000"],
    ["RTL override U+202E", () => "\u202Eevil\u202C.png"],
    ["zero-width and BOM", () => "\uFEFF\u200B\u200C\u200D"],
    ["lone high surrogate", () => "x\uD800"],
    ["lone low surrogate", () => "\uDC00y"],
    ["emoji with ZWJ and skin tone", () => "💪🏽🏋️‍♀️👨‍👩‍👧"],
    ["2,000 combining marks", () => "a" + "\u0301".repeat(2_000)],
    ["Arabic-Indic digits", () => "١٢٣"],
    ["fullwidth digits", () => "１２３"],
    ["quote injection", () => "' OR '1'='1"],
    ["backslashes and quotes", () => "\\\"\\\\'`"],
    ["percent-encoded NUL", () => "%00"],
    ["HTML", () => "<script>alert(1)</script><img src=x onerror=alert(1)>"],
    ["template syntax", () => "${7*7}{{7*7}}#{7*7}"],
    ["path traversal", () => "../../../../etc/passwd"],
    ["CRLF header injection", () => "x\r\nX-Injected: 1\r\n\r\n"],
    ["blank", () => "   "],
    ["empty", () => ""],
    ["the text null", () => "null"],
    ["100 KB", () => "x".repeat(100_000)],
    ["900 KB (the body stays under the 1 MB limit)", () => "x".repeat(900_000)],
    ["70 two-byte characters", () => "é".repeat(70)],
    ["10,000 emoji", () => "😀".repeat(10_000)],
  ];
  const [label, make] = rng.pick(choices);
  return { label: `string: ${label}`, value: make() };
}

export function hostileNumber(rng: Random): HostileJson {
  return rng.pick([
    raw("number 1e309 (Infinity once parsed)", "1e309"),
    raw("number -1e309", "-1e309"),
    raw("number -0", "-0"),
    raw("number 1.5", "1.5"),
    raw("number 0.5", "0.5"),
    raw("number 1e-400 (underflows to 0)", "1e-400"),
    raw("number -1", "-1"),
    raw("number 0", "0"),
    raw("number 2^31-1", "2147483647"),
    raw("number 2^31", "2147483648"),
    raw("number -2^31-1", "-2147483649"),
    raw("number 2^53+1", "9007199254740993"),
    raw("number 1e21", "1e21"),
    raw("number with 30 digits", "123456789012345678901234567890"),
    raw("number with 400 digits", "9".repeat(400)),
    raw("number 1E2", "1E2"),
    raw("number 4.9e-324", "4.9e-324"),
    raw("number 1.7976931348623157e308", "1.7976931348623157e308"),
    raw("number 0.30000000000000004", "0.30000000000000004"),
  ]);
}

/** Calendar oddities, as strings a date or timestamp field might get. */
export const ODD_DATES = [
  "2024-02-30",
  "2023-02-29",
  "2024-02-29",
  "0000-01-01",
  "99999-01-01",
  "2024-13-01",
  "2024-00-10",
  "2024-1-1",
  "1899-12-31",
  "3000-01-01",
  "1970-01-01",
  "-000001-01-01",
  "+275760-09-13T00:00:00.000Z",
  "-271821-04-20T00:00:00.000Z",
  "2024-02-30T10:00:00Z",
  "2024-01-01T24:00:00Z",
  "2024-01-01T23:59:60Z",
  "2024-01-01T00:00:00+99:00",
  "2024-01-01T00:00:00.123456789Z",
  "0000-01-01T00:00:00Z",
  "99999-01-01T00:00:00Z",
  "2024-01-01 00:00:00",
  "1700000000000",
];

export function hostileDate(rng: Random): HostileJson {
  if (rng.chance(0.15)) return rng.pick([raw("date as number 0", "0"), raw("date as epoch milliseconds", "1700000000000")]);
  const date = rng.pick(ODD_DATES);
  return json(`date ${date}`, date);
}

export function hostileType(rng: Random): HostileJson {
  return rng.pick([
    raw("null", "null"),
    raw("true", "true"),
    raw("false", "false"),
    raw('the string "1"', '"1"'),
    raw('the string "true"', '"true"'),
    raw("number 1", "1"),
    raw("empty array", "[]"),
    raw("empty object", "{}"),
    raw("array [1]", "[1]"),
    raw("array [null]", "[null]"),
    raw('object {"a":1}', '{"a":1}'),
    raw('operator object {"$gt":""}', '{"$gt":""}'),
    raw("__proto__ object", '{"__proto__":{"isAdmin":true}}'),
  ]);
}

export function hostileStructure(rng: Random): HostileJson {
  const depth = rng.pick([64, 1_000, DEEP]);
  return rng.pick([
    raw(`arrays nested ${depth} deep`, nestedArrays(depth)),
    raw(`objects nested ${depth} deep`, nestedObjects(depth)),
    raw(`arrays nested ${DEEP} deep`, nestedArrays(DEEP)),
    raw(`objects nested ${DEEP} deep`, nestedObjects(DEEP)),
    raw("array of 100,000 numbers", `[${Array.from({ length: 100_000 }, (_, i) => i).join(",")}]`),
    raw("array of 20,000 empty objects", `[${Array.from({ length: 20_000 }, () => "{}").join(",")}]`),
    raw("object with 20,000 keys", `{${Array.from({ length: 20_000 }, (_, i) => `"k${i}":${i}`).join(",")}}`),
    raw("string of 1.1 MB (past the 1 MB limit)", JSON.stringify("x".repeat(1_100_000))),
  ]);
}

/** Any hostile JSON value; `like` (the valid value it replaces) steers towards mistakes of its own kind half the time. */
export function hostileJson(rng: Random, like: unknown): HostileJson {
  if (rng.chance(0.5)) {
    if (typeof like === "number") return hostileNumber(rng);
    if (typeof like === "string" && /^\d{4}-\d\d-\d\d/.test(like)) return hostileDate(rng);
    if (typeof like === "string") {
      const text = hostileString(rng);
      return json(text.label, text.value);
    }
  }
  const family = rng.below(5);
  if (family === 0) return hostileType(rng);
  if (family === 1) return hostileNumber(rng);
  if (family === 2) return hostileDate(rng);
  if (family === 3) return hostileStructure(rng);
  const text = hostileString(rng);
  return json(text.label, text.value);
}

/** Path segment values, already percent-encoded as they go on the wire; `valid` is a real row's id. */
export function hostilePathValue(rng: Random, valid: string, other: string): { label: string; value: string } {
  const choices: Array<[string, string]> = [
    ["someone else's", other],
    ["0", "0"],
    ["-1", "-1"],
    ["leading zeros", `0000${valid}`],
    ["2^31", "2147483648"],
    ["2^31-1", "2147483647"],
    ["2^53+1", "9007199254740993"],
    ["20 digits", "99999999999999999999"],
    ["1e3", "1e3"],
    ["1.0", `${valid}.0`],
    ["hex", "0x10"],
    ["abc", "abc"],
    ["%00", "%00"],
    ["id then %00", `${valid}%00`],
    ["broken percent-encoding", "%E0%A4%A"],
    ["lone %", "%"],
    ["overlong UTF-8", "%C0%AF"],
    ["encoded dot-dot-slash", "..%2F..%2F"],
    ["encoded space then id", `%20${valid}`],
    ["5,000 digits", "9".repeat(5_000)],
    ["Arabic-Indic digit", "%D9%A3"],
    ["fullwidth digit", "%EF%BC%91"],
    ["RTL override then id", `%E2%80%AE${valid}`],
    ["emoji", "%F0%9F%92%AA"],
    ["Infinity", "Infinity"],
    ["NaN", "NaN"],
    ["null", "null"],
    ["quote", `${valid}'`],
  ];
  const [label, value] = rng.pick(choices);
  return { label, value };
}

/** Query values, percent-encoded; `enumValues` are the values the document lists for the parameter, if any. */
export function hostileQueryValue(rng: Random, name: string, enumValues: string[]): { label: string; value: string } {
  const choices: Array<[string, string]> = [
    ["-1", "-1"],
    ["0", "0"],
    ["leading zeros", "00001"],
    ["2^31", "2147483648"],
    ["20 digits", "99999999999999999999"],
    ["1e309", "1e309"],
    ["1e3", "1e3"],
    ["1.5", "1.5"],
    ["-0", "-0"],
    ["NaN", "NaN"],
    ["Infinity", "Infinity"],
    ["hex", "0x10"],
    ["space then 1", "%201"],
    ["1 then %00", "1%00"],
    ["empty", ""],
    ["%00", "%00"],
    ["RTL override", "%E2%80%AEevil"],
    ["emoji", "%F0%9F%92%AA"],
    ["invalid UTF-8", "%FF%FE"],
    ["lone %", "%"],
    ["broken percent-encoding", "%E0%A4%A"],
    ["10,000 characters", "a".repeat(10_000)],
    ["quote injection", "%27%20OR%20%271%27%3D%271"],
    ["__proto__", "__proto__"],
    ["constructor", "constructor"],
    ["TRUE", "TRUE"],
    ["yes", "yes"],
  ];
  for (const date of ODD_DATES) choices.push([`date ${date}`, encodeURIComponent(date)]);
  for (const value of enumValues) {
    if (value.toLowerCase() !== value) choices.push([`${value} in lower case`, value.toLowerCase()]);
    choices.push([`${value} with spaces`, encodeURIComponent(` ${value} `)]);
  }
  if (name === "sort") {
    for (const sort of [
      "name,sideways",
      ",",
      ",,,",
      "__proto__,asc",
      "createdAt,desc,extra",
      `${"a".repeat(500)},asc`,
      "id%00,asc",
      "name;DROP TABLE users,asc",
      "createdAt,DESC",
    ]) {
      choices.push([`sort ${sort.slice(0, 40)}`, encodeURIComponent(sort)]);
    }
  }
  const [label, value] = rng.pick(choices);
  return { label, value };
}

/** Query strings of odd shapes around parameter `name` (the extended parser turns brackets into arrays and objects). */
export function hostileQueryShape(rng: Random, name: string): { label: string; query: string } {
  const many = Array.from({ length: 1_200 }, (_, i) => `k${i}=1`).join("&");
  const choices: Array<[string, string]> = [
    ["repeated", `${name}=1&${name}=2`],
    ["array brackets", `${name}[]=1&${name}[]=2`],
    ["object", `${name}[a]=b`],
    ["deeply nested object", `${name}${"[a]".repeat(30)}=1`],
    ["__proto__ key", `${name}[__proto__][polluted]=1`],
    ["top-level __proto__", "__proto__[polluted]=1"],
    ["constructor.prototype", "constructor[prototype][polluted]=1"],
    ["array index 9999", `${name}[9999]=x`],
    ["no value", name],
    ["empty value", `${name}=`],
    ["value and object mixed", `${name}=a&${name}[b]=c`],
    ["1,200 parameters", many],
    ["only separators", "&&&=&=="],
  ];
  const [label, query] = rng.pick(choices);
  return { label: `query ${label}`, query };
}
