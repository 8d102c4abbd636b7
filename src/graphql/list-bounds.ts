import {
  defaultFieldResolver,
  GraphQLError,
  getNamedType,
  getNullableType,
  isCompositeType,
  isInterfaceType,
  isIntrospectionType,
  isListType,
  isObjectType,
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLFieldResolver,
  type GraphQLNamedType,
  type GraphQLSchema,
} from "graphql";
import { Extensions } from "type-graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from "../platform/paging.js";

/** The field extension giving how many items a list field holds, for the cost of an operation (query-limits.ts). */
const LIST_BOUND = "listBound";
/** The field extension of a field whose result is one page of `argument` items (the change feed's `limit`). */
const PAGED_BY = "pagedBy";

/**
 * The cap of a list that grows with a user's history and has no paging (records, weight history, links, assignments):
 * a page's maximum, so that what it selects counts as much as under a page of 100.
 */
export const HISTORY_LIST_CAP = MAX_PAGE_SIZE;

/** The usual number of an entity's parts (a plan's trainings, a training's exercises, an execution's sets). */
export const PARTS_ESTIMATE = 5;

/**
 * How many items a list field holds: `cap`, at most that many (the first of its order; `cutListsToCaps`); `parts`, the parts of one
 * entity (a training's exercises, an execution's sets), capped by that entity's inputs, counted at their usual number
 * (counting the inputs' cap would refuse every plan tree; the answer-size budget bounds the rest).
 */
export type ListBound = { cap: number } | { parts: number };

export interface PagedBy {
  argument: string;
  default: number;
  max: number;
}

/** Marks a list field with its bound: every list of an object type must have one (`assertListsBounded`). */
export const ListBound = (bound: ListBound) => Extensions({ [LIST_BOUND]: bound });

/** Marks a field whose result pages the `argument` items it is asked for: its selection counts that many times. */
export const PagedBy = (paging: PagedBy) => Extensions({ [PAGED_BY]: paging });

type AnyField = GraphQLField<unknown, unknown>;

/** The items a list field counts for: its cap, or its parts' usual number; undefined for a field not marked. */
export function listBoundOf(field: AnyField): number | undefined {
  const bound = field.extensions[LIST_BOUND] as ListBound | undefined;
  if (!bound) return undefined;
  return "cap" in bound ? bound.cap : bound.parts;
}

function pagedByOf(field: AnyField): PagedBy | undefined {
  return field.extensions[PAGED_BY] as PagedBy | undefined;
}

/** A `page: PageInput` argument, read as `parsePageRequest` reads it. */
const PAGE_INPUT: PagedBy = { argument: "page", default: DEFAULT_PAGE_SIZE, max: MAX_PAGE_SIZE };

const isPageArgument = (argument: GraphQLArgument) => argument.name === PAGE_INPUT.argument && getNamedType(argument.type).name === "PageInput";

/** How a field pages its result: by a `page: PageInput` argument (its `size`), by its `PagedBy` argument, or not at all. */
export function pagingOfField(field: AnyField): { paging: PagedBy; size: (value: unknown) => unknown } | undefined {
  if (field.args.some(isPageArgument)) return { paging: PAGE_INPUT, size: (page) => (page as { size?: unknown } | null | undefined)?.size };
  const paging = pagedByOf(field);
  return paging ? { paging, size: (value) => value } : undefined;
}

/** The items a paging field returns for this argument value: the default when absent, within 1 and the maximum. */
export function pagedItems(paging: PagedBy, value: unknown): number {
  if (typeof value !== "number") return paging.default;
  return Math.min(Math.max(value, 1), paging.max);
}

interface SchemaPaging {
  /** The types paging fields return: their list holds that page's items. */
  pageTypes: Set<GraphQLNamedType>;
  /** The names of the arguments that set a page's size. */
  pagingArguments: Set<string>;
}

const pagingBySchema = new WeakMap<GraphQLSchema, SchemaPaging>();

export function pagingOf(schema: GraphQLSchema): SchemaPaging {
  let known = pagingBySchema.get(schema);
  if (!known) {
    known = { pageTypes: new Set(), pagingArguments: new Set() };
    for (const type of Object.values(schema.getTypeMap())) {
      if (!isObjectType(type) && !isInterfaceType(type)) continue;
      for (const field of Object.values(type.getFields())) {
        const paged = pagingOfField(field);
        if (!paged) continue;
        known.pageTypes.add(getNamedType(field.type));
        known.pagingArguments.add(paged.paging.argument);
      }
    }
    pagingBySchema.set(schema, known);
  }
  return known;
}

/**
 * Throws, naming them, when lists of objects have no bound: a list added without one would count as any number of
 * items. A page's own list (`content`, the feed's `changes`) is counted at the field that pages it.
 */
export function assertListsBounded(schema: GraphQLSchema): void {
  const { pageTypes } = pagingOf(schema);
  const unbounded: string[] = [];
  for (const type of Object.values(schema.getTypeMap())) {
    if ((!isObjectType(type) && !isInterfaceType(type)) || isIntrospectionType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      if (!isListType(getNullableType(field.type)) || !isCompositeType(getNamedType(field.type))) continue;
      if (listBoundOf(field) === undefined && !pageTypes.has(type)) unbounded.push(`${type.name}.${field.name}`);
    }
  }
  if (unbounded.length > 0) throw new Error(`list fields without a ListBound: ${unbounded.join(", ")}`);
}

/** The items the capped lists of one request may still hold (GRAPHQL_MAX_LIST_ITEMS), kept in its context. */
export interface ListItemsBudget {
  max: number;
  left: number;
}

export const RESPONSE_TOO_LARGE = "RESPONSE_TOO_LARGE";

const tooManyItems = (budget: ListItemsBudget) =>
  new GraphQLError(`A consulta lista mais de ${budget.max} itens: peça páginas menores (page.size, limit) ou menos listas aninhadas`, {
    extensions: { code: RESPONSE_TOO_LARGE, http: { status: 400 } },
  });

/**
 * Cuts every list marked with a `cap` to its first `cap` items, whatever its resolver answers: what the cost counts is
 * then what can be answered (services that can choose better, the newest weights, cut there first). Each list's items
 * are taken from the request's `listItems` budget: past it, lists still to resolve fail without being read, and the
 * answer is that error alone (`answerSizeLimit`), so capped lists nested in lists, counted at their usual number by
 * the cost, hold a bounded number of rows in memory.
 */
export function cutListsToCaps(schema: GraphQLSchema): void {
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type) || isIntrospectionType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const bound = field.extensions[LIST_BOUND] as ListBound | undefined;
      if (!bound || !("cap" in bound)) continue;
      const { cap } = bound;
      const resolve: GraphQLFieldResolver<unknown, unknown> = field.resolve ?? defaultFieldResolver;
      field.resolve = (parent, args, context, info) => {
        const budget = (context as { listItems?: ListItemsBudget }).listItems;
        if (budget && budget.left < 0) throw tooManyItems(budget);
        const cut = (items: unknown) => {
          const kept = Array.isArray(items) && items.length > cap ? items.slice(0, cap) : items;
          if (budget && Array.isArray(kept)) {
            budget.left -= kept.length;
            if (budget.left < 0) throw tooManyItems(budget);
          }
          return kept;
        };
        const items = resolve(parent, args, context, info);
        return items instanceof Promise ? items.then(cut) : cut(items);
      };
    }
  }
}
