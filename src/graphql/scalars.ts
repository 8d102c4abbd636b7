import { DateTimeISOResolver, LocalDateResolver } from "graphql-scalars";

/** ISO 8601 UTC timestamps with milliseconds, as the REST layer writes them. */
export const DateTime = DateTimeISOResolver;
/** YYYY-MM-DD. */
export const LocalDate = LocalDateResolver;
