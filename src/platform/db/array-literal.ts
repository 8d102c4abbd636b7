/**
 * PostgreSQL's text form of an array (`{"a","b \"c\"",NULL,{"1","2"}}`): every element quoted, so the server reads it by
 * the type the statement gives the array, null as NULL, nested arrays as nested braces; `element` writes any other
 * element as text.
 */
export function arrayLiteral(values: readonly unknown[], element: (value: unknown) => string): string {
  const items = values.map((value): string => {
    if (value === null || value === undefined) return "NULL";
    if (Array.isArray(value)) return arrayLiteral(value, element);
    return `"${element(value).replace(/[\\"]/g, "\\$&")}"`;
  });
  return `{${items.join(",")}}`;
}
