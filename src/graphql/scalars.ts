import { DateTimeISOResolver, LocalDateResolver } from "graphql-scalars";

/** ISO 8601 UTC timestamps with milliseconds, as the REST layer writes them. */
export const DateTime = DateTimeISOResolver;
/** YYYY-MM-DD. */
export const LocalDate = LocalDateResolver;
/** A JSON object, passed as it is (the change feed's REST DTOs). */
export { JSONObjectResolver as JSONObject } from "graphql-scalars";
