import { GraphQLScalarType } from "graphql";
import { DateTimeISOResolver, LocalDateResolver } from "graphql-scalars";
import { isoInstant } from "../platform/dates.js";

/**
 * ISO 8601 UTC timestamps with milliseconds, as the REST layer writes them: graphql-scalars' DateTimeISO, with a valid
 * Date written by our own formatting (the same text as its `toISOString`, at a fraction of the cost: a page of
 * executions answers hundreds of them), and a string already in that very form (an instant read from JSON built by
 * PostgreSQL) answered as it is, where DateTimeISO would validate it, parse it and write it again; anything else is its.
 */
export const DateTime = new GraphQLScalarType({
  ...DateTimeISOResolver.toConfig(),
  serialize(value) {
    if (value instanceof Date) return isoInstant(value) ?? DateTimeISOResolver.serialize(value);
    if (typeof value === "string" && value.length === 24 && value.endsWith("Z") && isoInstant(new Date(value)) === value) return value;
    return DateTimeISOResolver.serialize(value);
  },
});
/** YYYY-MM-DD. */
export const LocalDate = LocalDateResolver;
/** A JSON object, passed as it is (the change feed's REST DTOs). */
export { JSONObjectResolver as JSONObject } from "graphql-scalars";
