import { invalidParameter } from "./errors.js";

export const DEFAULT_PAGE_SIZE = 20;
export const MAX_PAGE_SIZE = 100;

export interface SortOrder {
  field: string;
  direction: "asc" | "desc";
}

export interface PageRequest {
  page: number;
  size: number;
  sort: SortOrder[];
}

/** How a listing pages: the fields a client may sort it by, and its order when none is asked. */
export interface Paging {
  sortable: readonly string[];
  fallbackSort: SortOrder[];
}

/** A listing's request as its service reads it: its filters and the page asked. */
export interface ListQuery<Filter> {
  filter: Filter;
  page: PageRequest;
}

/** Raw paging parameters as they arrive from a query string or a GraphQL PageInput. */
export interface RawPageParams {
  page?: unknown;
  size?: unknown;
  sort?: unknown;
}

/** A page number or size in a query string: at most 9 digits. */
const pageDigits = /^\d{1,9}$/;
const MAX_PAGE_PARAM = 999_999_999;

/**
 * Applies contract §2: page ≥ 0, size ≥ 1 clamped to 100, sort fields from `sortable` only,
 * `sort` repeatable (`name,asc`). A field sorted again orders nothing more: only its first order is kept, so the
 * ORDER BY a request builds has a term per sortable field at most, however many times `sort` is repeated.
 */
export function parsePageRequest(raw: RawPageParams, { sortable, fallbackSort }: Paging): PageRequest {
  const page = integerParam(raw.page, "page", 0);
  const size = integerParam(raw.size, "size", DEFAULT_PAGE_SIZE);
  if (size < 1) throw invalidParameter("size");
  const sortValues = raw.sort === undefined ? [] : Array.isArray(raw.sort) ? raw.sort : [raw.sort];
  const sort: SortOrder[] = [];
  for (const value of sortValues) {
    const order = parseSort(value, sortable);
    if (!sort.some((kept) => kept.field === order.field)) sort.push(order);
  }
  return { page, size: Math.min(size, MAX_PAGE_SIZE), sort: sort.length > 0 ? sort : fallbackSort };
}

function integerParam(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && pageDigits.test(value)) return Number(value);
  throw invalidParameter(name);
}

function parseSort(value: unknown, sortable: readonly string[]): SortOrder {
  if (typeof value !== "string") throw invalidParameter("sort");
  const [field, direction = "asc", ...rest] = value.split(",").map((part) => part.trim());
  const dir = direction.toLowerCase();
  if (rest.length > 0 || !sortable.includes(field) || (dir !== "asc" && dir !== "desc")) throw invalidParameter("sort");
  return { field, direction: dir };
}

/** The orders a listing takes as `sort` values, as a client writes them: `field`, `field,asc`, `field,desc`. */
const sortValues = (sortable: readonly string[]) => sortable.flatMap((field) => [field, `${field},asc`, `${field},desc`]);

/** The query parameters parsePageRequest reads with `paging`, as the OpenAPI document declares them (JSON Schema). */
export function pageParameterSchemas({ sortable }: Paging): Record<string, Record<string, unknown>> {
  return {
    page: { type: "integer", minimum: 0, maximum: MAX_PAGE_PARAM, default: 0, description: "page number, from 0" },
    size: {
      type: "integer",
      minimum: 1,
      maximum: MAX_PAGE_PARAM,
      default: DEFAULT_PAGE_SIZE,
      description: `page size; more than ${MAX_PAGE_SIZE} reads ${MAX_PAGE_SIZE}`,
    },
    // A listing with a single order takes no `sort` (one sent is refused).
    ...(sortable.length > 0
      ? {
          sort: {
            type: "array",
            items: { type: "string", enum: sortValues(sortable) },
            description:
              "Repeatable: `field` (ascending) or `field,asc|desc`, the first sorting first; the direction's case and spaces around the parts do not matter",
          },
        }
      : {}),
  };
}

interface SortInfo {
  sorted: boolean;
  unsorted: boolean;
  empty: boolean;
}

/** The Spring page object api-spec.md's clients read. */
export interface Page<T> {
  content: T[];
  pageable: {
    sort: SortInfo;
    pageNumber: number;
    pageSize: number;
    offset: number;
    paged: true;
    unpaged: false;
  };
  totalPages: number;
  totalElements: number;
  last: boolean;
  first: boolean;
  sort: SortInfo;
  number: number;
  numberOfElements: number;
  size: number;
  empty: boolean;
}

export function toPage<T>(content: T[], totalElements: number, request: PageRequest): Page<T> {
  const sort: SortInfo = { sorted: request.sort.length > 0, unsorted: request.sort.length === 0, empty: request.sort.length === 0 };
  const totalPages = Math.ceil(totalElements / request.size);
  return {
    content,
    pageable: {
      sort,
      pageNumber: request.page,
      pageSize: request.size,
      offset: request.page * request.size,
      paged: true,
      unpaged: false,
    },
    totalPages,
    totalElements,
    last: request.page >= totalPages - 1,
    first: request.page === 0,
    sort,
    number: request.page,
    numberOfElements: content.length,
    size: request.size,
    empty: content.length === 0,
  };
}
