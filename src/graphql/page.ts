import { ClassType, Field, InputType, Int, ObjectType, registerEnumType } from "type-graphql";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, parsePageRequest, type PageRequest, type Paging } from "../platform/paging.js";
import type { Selection } from "./look-ahead.js";

/** Paging arguments of every root list field (contract §10). */
@InputType("PageInput", { description: "Which page of a listing to answer" })
export class PageInput {
  @Field(() => Int, { nullable: true, description: "The page number, from 0 (the default)" }) page?: number;
  @Field(() => Int, { nullable: true, description: `How many items a page holds: ${DEFAULT_PAGE_SIZE} by default, at most ${MAX_PAGE_SIZE}` })
  size?: number;
  @Field(() => [String], {
    nullable: true,
    description: 'The order as REST\'s `sort` texts, e.g. ["createdAt,desc"]; an unknown field is refused when the field runs',
    deprecationReason: "Use the listing's `orderBy`, whose values the schema checks",
  })
  sort?: string[];
}

/** A listing's `orderBy` as its resolver receives it: the REST `sort` texts of the values given, in order. */
export type OrderBy = string[];

const CONSTANT_CASE_BOUNDARY = /(?<=[a-z0-9])(?=[A-Z])/g;

/**
 * A listing's orders as a GraphQL enum, by PostGraphile's convention (`NAME_ASC`, `CREATED_AT_DESC`): one value per
 * sortable field and direction, standing for the REST `sort` text it means, so the schema refuses an unknown order
 * and the listing reads it as REST reads `sort`.
 */
export function orderByEnum(name: string, { sortable }: Paging, subject: string): Record<string, string> {
  const values: Record<string, string> = {};
  const valuesConfig: Record<string, { description: string }> = {};
  for (const field of sortable) {
    for (const direction of ["asc", "desc"] as const) {
      const value = `${field.replace(CONSTANT_CASE_BOUNDARY, "_").toUpperCase()}_${direction.toUpperCase()}`;
      values[value] = `${field},${direction}`;
      valuesConfig[value] = { description: `By ${field}, ${direction === "asc" ? "ascending" : "descending"}` };
    }
  }
  registerEnumType(values, { name, description: `How a listing of ${subject} is ordered: the first order given sorts first`, valuesConfig });
  return values;
}

/** A page of `Item`: the subset of the REST page object that GraphQL clients use. */
export function PageOf<Item extends object>(item: ClassType<Item>, name: string) {
  @ObjectType(name, { description: "A page of a listing", simpleResolvers: true })
  class Page {
    @Field(() => [item], { description: "The page's items, in the order asked" }) content!: Item[];
    @Field(() => Int, { description: "How many items the listing has (counted only when asked for)" }) totalElements!: number;
    @Field(() => Int, { description: "How many pages the listing has at this size (counted only when asked for)" }) totalPages!: number;
    @Field(() => Int, { description: "The page's number, from 0" }) number!: number;
    @Field(() => Int, { description: "The size asked" }) size!: number;
  }
  return Page;
}

/**
 * The page a PageInput and a listing's `orderBy` ask for, read as REST reads `page`, `size` and `sort` (`orderBy`, when
 * given, in place of the deprecated `sort`); a field sent as null is one not given.
 */
export const pageRequestOf = (page: PageInput | null | undefined, paging: Paging, orderBy?: OrderBy | null): PageRequest =>
  parsePageRequest({ page: page?.page ?? undefined, size: page?.size ?? undefined, sort: orderBy?.length ? orderBy : (page?.sort ?? undefined) }, paging);

/**
 * Whether a selection of a PageOf shows its total (totalElements or totalPages, under any alias or fragment): a page
 * read for a selection without one need not count every row the filter keeps.
 */
export const totalShown = (page: Selection | undefined): boolean => Boolean(page?.field("totalElements") ?? page?.field("totalPages"));
