/** The shapes every REST answer shares (api-spec.md "Conventions"). */

/** A timestamp as the API writes it: ISO 8601 in UTC with milliseconds. */
export const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The keys of the REST page object, sorted. */
export const PAGE_KEYS = ["content", "empty", "first", "last", "number", "numberOfElements", "pageable", "size", "sort", "totalElements", "totalPages"];

export const sortedKeys = (value: object) => Object.keys(value).sort();

/** The fields named by a validation error body, sorted. */
export const fieldsOf = (body: { errors: { field: string }[] }) => body.errors.map((error) => error.field).sort();
