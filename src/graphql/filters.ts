/** A GraphQL filter object as the query-string values the REST layer hands the same services. */
export function asQuery(filter: object | undefined): Record<string, string | undefined> {
  return Object.fromEntries(Object.entries(filter ?? {}).map(([key, value]) => [key, value === undefined || value === null ? undefined : String(value)]));
}
