/**
 * A statement's value in the form PostgreSQL reads untyped, by the type the statement gives it, so that postgres.js
 * sends it with the statement in one round trip rather than first asking the server its type (`describe: false`,
 * patches/): null as null, bytes as they are, a date as ISO 8601, a list as an array literal, any other object as its
 * JSON text, anything else as its text.
 */
export function untypedValue(value: unknown): string | Uint8Array | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Uint8Array) return value;
  if (value instanceof Date) return value.toISOString();
  if (Array.isArray(value)) return arrayLiteral(value);
  if (typeof value === "object") return JSON.stringify(value);
  return String(value as string | number | boolean | bigint);
}

/**
 * PostgreSQL's text form of an array (`{"a","b \"c\"",NULL,{"1","2"}}`): every element quoted, so the server reads it by
 * the type the statement gives the array, null as NULL, nested arrays as nested braces.
 */
function arrayLiteral(values: readonly unknown[]): string {
  const items = values.map((value): string => {
    if (value === null || value === undefined) return "NULL";
    if (Array.isArray(value)) return arrayLiteral(value);
    // Bytes in bytea's hex form; anything else as its own text.
    const text = value instanceof Uint8Array ? `\\x${Buffer.from(value).toString("hex")}` : (untypedValue(value) as string);
    return `"${text.replace(/[\\"]/g, "\\$&")}"`;
  });
  return `{${items.join(",")}}`;
}
