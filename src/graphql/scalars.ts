import { GraphQLScalarType } from "graphql";
import { DateTimeISOResolver, LocalDateResolver } from "graphql-scalars";
import { isoInstant } from "../platform/dates.js";

/**
 * ISO 8601 UTC timestamps with milliseconds, as the REST layer writes them: graphql-scalars' DateTimeISO, with a valid
 * Date written by our own formatting (the same text as its `toISOString`, at a fraction of the cost: a page of
 * executions answers hundreds of them); anything else is its.
 */
export const DateTime = new GraphQLScalarType({
  ...DateTimeISOResolver.toConfig(),
  serialize(value) {
    const iso = value instanceof Date ? isoInstant(value) : null;
    return iso ?? DateTimeISOResolver.serialize(value);
  },
});
/** YYYY-MM-DD. */
export const LocalDate = LocalDateResolver;
/** A JSON object, passed as it is (the change feed's REST DTOs). */
export { JSONObjectResolver as JSONObject } from "graphql-scalars";
