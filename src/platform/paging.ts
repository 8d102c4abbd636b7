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

const nonNegativeInteger = /^\d+$/;

/**
 * Applies contract §2: page ≥ 0, size ≥ 1 clamped to 100, sort fields from `sortable` only,
 * `sort` repeatable (`name,asc`).
 */
export function parsePageRequest(raw: RawPageParams, { sortable, fallbackSort }: Paging): PageRequest {
  const page = integerParam(raw.page, "page", 0);
  const size = integerParam(raw.size, "size", DEFAULT_PAGE_SIZE);
  if (size < 1) throw invalidParameter("size");
  const sortValues = raw.sort === undefined ? [] : Array.isArray(raw.sort) ? raw.sort : [raw.sort];
  const sort = sortValues.map((value) => parseSort(value, sortable));
  return { page, size: Math.min(size, MAX_PAGE_SIZE), sort: sort.length > 0 ? sort : fallbackSort };
}

function integerParam(value: unknown, name: string, fallback: number): number {
  if (value === undefined || value === null || value === "") return fallback;
  if (typeof value === "number" && Number.isSafeInteger(value) && value >= 0) return value;
  if (typeof value === "string" && nonNegativeInteger.test(value) && value.length <= 9) return Number(value);
  throw invalidParameter(name);
}

function parseSort(value: unknown, sortable: readonly string[]): SortOrder {
  if (typeof value !== "string") throw invalidParameter("sort");
  const [field, direction = "asc", ...rest] = value.split(",").map((part) => part.trim());
  const dir = direction.toLowerCase();
  if (rest.length > 0 || !sortable.includes(field) || (dir !== "asc" && dir !== "desc")) throw invalidParameter("sort");
  return { field, direction: dir };
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
